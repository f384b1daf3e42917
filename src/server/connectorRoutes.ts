import { Hono } from 'hono';
import type { Principal } from '../runtime/principal';
import { routes } from '../workspace/protocol';
import { requirePrincipal, type PrincipalVariables } from './guard';
import { errorResponse } from './http';
import { mountRoute } from './mountRoute';
import { ConnectRefusedError, type Connectors } from './connectors';

export interface ConnectorRoutesOptions {
  connectors: Connectors;
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
export function connectorRoutes(options: ConnectorRoutesOptions): Hono<Env> {
  const { connectors } = options;
  const app = new Hono<Env>();
  const signedIn = requirePrincipal(options.principal, 'Sign in to connect your own MCP servers.');
  app.use(routes.listConnectors.path, signedIn);
  app.use(`${routes.listConnectors.path}/*`, signedIn);

  mountRoute(app, routes.listConnectors, async (c, _input, reply) => reply({ servers: await connectors.list(c.get('principal')) }));

  mountRoute(app, routes.connectConnector, async (c, { body: { label, url, token } }, reply) => {
    try {
      const server = await connectors.connect(c.get('principal'), { label, url, ...(token ? { token } : {}) });
      return reply({ server }, 201);
    } catch (error) {
      if (error instanceof ConnectRefusedError) return errorResponse(error.status, error.code, error.message);
      throw error;
    }
  });

  mountRoute(app, routes.disconnectConnector, async (c, { params: { label } }, reply) => {
    if (!(await connectors.disconnect(c.get('principal'), label))) return errorResponse(404, 'unknown_server', `You have no MCP server named "${label}".`);
    return reply({ removed: label });
  });
  return app;
}
