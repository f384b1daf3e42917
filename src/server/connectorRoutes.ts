import { Hono, type Context } from 'hono';
import type { Principal } from '../runtime/principal';
import { routes } from '../workspace/protocol';
import { requirePrincipal, type PrincipalVariables } from './guard';
import { errorResponse } from './http';
import { mountRoute } from './mountRoute';
import { ConnectRefusedError, type Connectors } from './connectors';

export { connectorLandingRoutes } from './connectorLanding';

export interface ConnectorRoutesOptions {
  connectors: Connectors;
  /** The caller, as the host's `authenticate` said (the workspace protocol's); null answers 401. */
  principal(request: Request): Promise<Principal | null>;
}

type Env = { Variables: PrincipalVariables };

/** The origin a sign-in comes back to: the host's `publicOrigin`, else this request's own. */
export const originOf = (c: Context, connectors: Connectors) => connectors.publicOrigin ?? new URL(c.req.url).origin;

/**
 * The signed-in user's own MCP servers: `GET /v1/mcp-servers` lists them
 * (never a token), `POST` connects one (`{ label, url, token? }`: checked,
 * connected and listed before it is stored), `DELETE /v1/mcp-servers/{label}`
 * removes it and its tools. A server that signs users in with OAuth is kept
 * as `needs_auth`: `POST /v1/mcp-servers/{label}/authorize` answers the page
 * to sign in on, and `POST /v1/mcp-servers/oauth/complete` (posted by the
 * landing page the sign-in comes back to) finishes it for the session that
 * started it. Behind the same sign-in as the workspace protocol; the
 * server's cross-site guard runs before these routes.
 */
export function connectorRoutes(options: ConnectorRoutesOptions): Hono<Env> {
  const { connectors } = options;
  const app = new Hono<Env>();
  const signedIn = requirePrincipal(options.principal, 'Sign in to connect your own MCP servers.');
  app.use(routes.listConnectors.path, signedIn);
  app.use(`${routes.listConnectors.path}/*`, signedIn);
  const refused = (error: unknown) => {
    if (error instanceof ConnectRefusedError) return errorResponse(error.status, error.code, error.message);
    throw error;
  };

  mountRoute(app, routes.listConnectors, async (c, _input, reply) => reply({ servers: await connectors.list(c.get('principal')) }));

  mountRoute(app, routes.connectConnector, async (c, { body: { label, url, token } }, reply) => {
    try {
      const server = await connectors.connect(c.get('principal'), { label, url, ...(token ? { token } : {}) });
      return reply({ server }, 201);
    } catch (error) {
      return refused(error);
    }
  });

  mountRoute(app, routes.completeConnectorSignIn, async (c, { body }, reply) => {
    try {
      return reply(await connectors.completeSignIn(c.get('principal'), body), 200, { 'cache-control': 'no-store' });
    } catch (error) {
      return refused(error);
    }
  });

  mountRoute(app, routes.authorizeConnector, async (c, { params: { label } }, reply) => {
    const origin = originOf(c, connectors);
    try {
      const { url } = await connectors.authorize(c.get('principal'), label, {
        redirectUri: `${origin}/v1/mcp-servers/oauth/callback`,
        clientDocumentUrl: `${origin}/v1/mcp-servers/oauth/client`,
        // The guard let this request in: its Origin is this server's own or one the host listed.
        openerOrigin: c.req.header('origin') ?? new URL(c.req.url).origin,
      });
      return reply({ url }, 200, { 'cache-control': 'no-store' });
    } catch (error) {
      return refused(error);
    }
  });

  mountRoute(app, routes.disconnectConnector, async (c, { params: { label } }, reply) => {
    if (!(await connectors.disconnect(c.get('principal'), label))) return errorResponse(404, 'unknown_server', `You have no MCP server named "${label}".`);
    return reply({ removed: label });
  });
  return app;
}
