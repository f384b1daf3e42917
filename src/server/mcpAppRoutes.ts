import { Hono, type Context } from 'hono';
import { toFieldIssues } from '../runtime/events';
import type { ThreadHost } from '../runtime/host/threadHost';
import type { Principal } from '../runtime/principal';
import { createMcpAppAccess, McpAppAccessError } from '../runtime/host/mcpAppAccess';
import { AppToolCallBody, THREAD_ID } from '../workspace/protocol';
import { requirePrincipal, type PrincipalVariables } from './guard';
import { errorResponse, readJson } from './http';

export interface McpAppRoutesOptions {
  host: ThreadHost;
  /** The caller, as the host's `authenticate` said; null answers 401. */
  principal(request: Request): Promise<Principal | null>;
}

type Env = { Variables: PrincipalVariables };

/**
 * MCP Apps on the workspace protocol: `GET …/invocations/{id}/app` answers a
 * finished card's `ui://` view (read here, from the MCP server, never from
 * the browser), `POST …/invocations/{id}/app/calls` runs a tool the view
 * asked for through the thread host, like a chip. Only the principal's own
 * threads; anything else is a 404.
 */
export function mcpAppRoutes(options: McpAppRoutesOptions): Hono<Env> {
  const access = createMcpAppAccess(options.host);
  const app = new Hono<Env>();
  app.use('/v1/threads/:id/invocations/:invocation/app', requirePrincipal(options.principal, 'Sign in to use this workspace.'));
  app.use('/v1/threads/:id/invocations/:invocation/app/*', requirePrincipal(options.principal, 'Sign in to use this workspace.'));

  const target = (c: Context<Env>) => {
    const threadId = c.req.param('id') ?? '';
    const invocationId = c.req.param('invocation') ?? '';
    if (!THREAD_ID.test(threadId)) return null;
    return { threadId, invocationId };
  };
  const refused = (error: unknown): Response => {
    if (error instanceof McpAppAccessError) return errorResponse(error.status, error.code, error.message);
    throw error;
  };

  app.get('/v1/threads/:id/invocations/:invocation/app', async (c) => {
    const request = target(c);
    if (!request) return errorResponse(400, 'invalid_thread_id', 'A thread id is 1–128 characters from A–Z a–z 0–9 _ . -');
    try {
      const view = await access.read(c.get('principal'), request);
      // The view is the server's answer for this user's card: not for shared caches.
      return c.json(view, 200, { 'cache-control': 'private, max-age=60' });
    } catch (error) {
      return refused(error);
    }
  });

  app.post('/v1/threads/:id/invocations/:invocation/app/calls', async (c) => {
    const request = target(c);
    if (!request) return errorResponse(400, 'invalid_thread_id', 'A thread id is 1–128 characters from A–Z a–z 0–9 _ . -');
    const raw = await readJson(c);
    if (!raw.ok) return raw.response;
    const parsed = AppToolCallBody.safeParse(raw.value);
    if (!parsed.success) {
      const issues = toFieldIssues(parsed.error.issues);
      return errorResponse(400, 'invalid_request', issues.map((i) => `${i.path}: ${i.message}`).join('; '), issues);
    }
    try {
      const answer = await access.call(c.get('principal'), { ...request, name: parsed.data.name, ...(parsed.data.arguments ? { arguments: parsed.data.arguments } : {}) });
      return c.json(answer);
    } catch (error) {
      return refused(error);
    }
  });
  return app;
}
