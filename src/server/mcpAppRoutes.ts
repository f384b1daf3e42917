import { Hono } from 'hono';
import type { ThreadHost } from '../runtime/host/threadHost';
import type { Principal } from '../runtime/principal';
import type { Registry } from '../runtime/registry';
import { createMcpAppAccess, McpAppAccessError, type AppCallLimits } from '../runtime/host/mcpAppAccess';
import { APP_FRAME_PATH } from '../runtime/mcpAppFrame';
import { routes } from '../workspace/protocol';
import { requirePrincipal, type PrincipalVariables } from './guard';
import { errorResponse } from './http';
import { mountRoute } from './mountRoute';

export interface McpAppRoutesOptions {
  host: ThreadHost;
  /** The caller, as the host's `authenticate` said; null answers 401. */
  principal(request: Request): Promise<Principal | null>;
  /** Tool calls one card's view may make (a 429 in words beyond). @default { burst: 10, perMinute: 60 } */
  appCalls?: AppCallLimits;
  /** The principal's own capabilities (users' own MCP servers), as the host has them: their views render too. */
  capabilitiesOf?: (principal: Principal) => Registry | undefined;
}

type Env = { Variables: PrincipalVariables };

/**
 * MCP Apps on the workspace protocol: `GET …/invocations/{id}/app` answers a
 * finished card's `ui://` view (read here, from the MCP server, never from
 * the browser: a user's own server through that user's connection),
 * `POST …/invocations/{id}/app/calls` runs a tool the view asked for inside
 * the card (no card per call; a tool that needs approval asks once per app
 * session). Only the principal's own threads and tools; anything else is a
 * 404. A view's calls are throttled per card (`appCalls`): beyond it a 429
 * in words, and nothing runs. The view names
 * the frame document it runs in (`frame`: `GET /v1/app-frame`, see viewFrame.ts).
 */
export function mcpAppRoutes(options: McpAppRoutesOptions): Hono<Env> {
  const access = createMcpAppAccess(options.host, {
    ...(options.appCalls ? { limits: options.appCalls } : {}),
    ...(options.capabilitiesOf ? { capabilitiesOf: options.capabilitiesOf } : {}),
  });
  const app = new Hono<Env>();
  app.use(routes.readApp.path, requirePrincipal(options.principal, 'Sign in to use this workspace.'));
  app.use(`${routes.readApp.path}/*`, requirePrincipal(options.principal, 'Sign in to use this workspace.'));

  const refused = (error: unknown): Response => {
    if (error instanceof McpAppAccessError) {
      return errorResponse(error.status, error.code, error.message, undefined, error.retryAfterSeconds !== undefined ? { 'retry-after': String(error.retryAfterSeconds) } : {});
    }
    throw error;
  };

  mountRoute(app, routes.readApp, async (c, { params }, reply) => {
    try {
      const view = await access.read(c.get('principal'), params);
      // The view is the server's answer for this user's card: not for shared caches. It runs in the
      // frame document this server serves (viewFrame.ts), whose headers stop WebRTC and navigation.
      return reply({ ...view, frame: APP_FRAME_PATH }, 200, { 'cache-control': 'private, max-age=60' });
    } catch (error) {
      return refused(error);
    }
  });

  mountRoute(app, routes.callAppTool, async (c, { params, body }, reply) => {
    try {
      const answer = await access.call(c.get('principal'), {
        ...params,
        name: body.name,
        ...(body.arguments ? { arguments: body.arguments } : {}),
        ...(body.session ? { session: body.session } : {}),
      });
      return reply(answer);
    } catch (error) {
      return refused(error);
    }
  });
  return app;
}
