import { Hono } from 'hono';
import { toFieldIssues } from '../runtime/events';
import type { Principal } from '../runtime/principal';
import { ConnectMcpBody, mcpServerPaths } from '../workspace/mcpServersProtocol';
import { requirePrincipal, type PrincipalVariables } from './guard';
import { errorResponse, readJson } from './http';
import { ConnectRefusedError, type UserMcp } from './userMcp';

export interface UserMcpRoutesOptions {
  userMcp: UserMcp;
  /** The caller, as the host's `authenticate` said (the workspace protocol's); null answers 401. */
  principal(request: Request): Promise<Principal | null>;
}

type Env = { Variables: PrincipalVariables };

/**
 * The signed-in user's own MCP servers: `GET /v1/mcp-servers` lists them
 * (never a token), `POST` connects one (`{ label, url, token? }`: checked,
 * connected and listed before it is stored), `DELETE /v1/mcp-servers/{label}`
 * removes it and its tools. Behind the same sign-in as the workspace
 * protocol; the server's cross-site guard runs before these routes.
 */
export function userMcpRoutes(options: UserMcpRoutesOptions): Hono<Env> {
  const { userMcp } = options;
  const app = new Hono<Env>();
  const signedIn = requirePrincipal(options.principal, 'Sign in to connect your own MCP servers.');
  app.use(mcpServerPaths.list, signedIn);
  app.use(`${mcpServerPaths.list}/*`, signedIn);

  app.get(mcpServerPaths.list, async (c) => c.json({ servers: await userMcp.list(c.get('principal')) }));

  app.post(mcpServerPaths.connect, async (c) => {
    const raw = await readJson(c);
    if (!raw.ok) return raw.response;
    const parsed = ConnectMcpBody.safeParse(raw.value);
    if (!parsed.success) {
      const issues = toFieldIssues(parsed.error.issues);
      return errorResponse(400, 'invalid_request', issues.map((i) => `${i.path}: ${i.message}`).join('; '), issues);
    }
    const { label, url, token } = parsed.data;
    try {
      const server = await userMcp.connect(c.get('principal'), { label, url, ...(token ? { token } : {}) });
      return c.json({ server }, 201);
    } catch (error) {
      if (error instanceof ConnectRefusedError) return errorResponse(error.status, error.code, error.message);
      throw error;
    }
  });

  app.delete(`${mcpServerPaths.list}/:label`, async (c) => {
    const label = c.req.param('label');
    if (!(await userMcp.disconnect(c.get('principal'), label))) return errorResponse(404, 'unknown_server', `You have no MCP server named "${label}".`);
    return c.json({ removed: label });
  });
  return app;
}
