import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair } from 'jose';
import type Provider from 'oidc-provider';

/**
 * A real OAuth 2.1 authorization server on 127.0.0.1 for the MCP OAuth
 * tests: oidc-provider with dynamic client registration, PKCE, resource
 * indicators (RFC 8707) and JWT access tokens (RFC 9068) for any resource
 * indicator. Logging in is scripted: `authorize(url)` signs `account` in and
 * grants what was asked, following the redirects as a browser would, and
 * answers the redirect back to the client (with `code` and `iss`).
 */
export interface TestAuthServer {
  readonly issuer: string;
  /** Scopes it grants for any resource. */
  readonly scopes: readonly string[];
  /** An access token from the client_credentials grant (its `sub` is the client id, `minter`). */
  token(options: { resource: string; scope: string }): Promise<string>;
  /** Follows an authorization URL through login and consent to the client's redirect URL. */
  authorize(url: URL | string, account?: string): Promise<URL>;
  /** How many times the token endpoint was asked. */
  readonly tokenRequests: number;
  close(): Promise<void>;
}

export const MINTER = { id: 'minter', secret: 'minter-secret-0123456789abcdef0123456789' };

export async function startAuthServer(options: { scopes?: readonly string[]; accessTokenTTL?: number; port?: number } = {}): Promise<TestAuthServer> {
  const scopes = options.scopes ?? ['mcp:tools', 'mcp:admin'];
  let handler: Parameters<typeof createServer>[1] = (_req, res) => res.end();
  const http: Server = createServer((req, res) => handler!(req, res));
  await new Promise<void>((resolve) => http.listen(options.port ?? 0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;

  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const jwk = { ...(await exportJWK(privateKey)), kid: 'test-key', use: 'sig', alg: 'RS256' };
  const { default: OidcProvider } = await quietly(() => import('oidc-provider'));
  const provider: Provider = await quietly(async () => new OidcProvider(issuer, {
    jwks: { keys: [jwk] },
    clients: [{ client_id: MINTER.id, client_secret: MINTER.secret, grant_types: ['client_credentials'], redirect_uris: [], response_types: [] }],
    features: {
      devInteractions: { enabled: false },
      registration: { enabled: true },
      clientCredentials: { enabled: true },
      resourceIndicators: {
        enabled: true,
        // A client that names no resource gets a token for none (an opaque one the MCP door cannot read).
        defaultResource: (_ctx: unknown, _client: unknown, oneOf?: string | string[]) => oneOf,
        useGrantedResource: () => true,
        getResourceServerInfo: () => ({ scope: scopes.join(' '), accessTokenTTL: options.accessTokenTTL ?? 300, accessTokenFormat: 'jwt', jwt: { sign: { alg: 'RS256' } } }),
      },
    },
    scopes: ['openid', 'offline_access', ...scopes],
    findAccount: (_ctx: unknown, sub: string) => ({ accountId: sub, claims: () => ({ sub }) }),
    cookies: { keys: ['cookie-key-0123456789abcdef'] },
    ttl: { AccessToken: 300, AuthorizationCode: 60, ClientCredentials: 300, Grant: 3600, IdToken: 300, Interaction: 600, RefreshToken: 3600, Session: 3600 },
    renderError: (ctx: { body: unknown }, out: unknown) => {
      ctx.body = out;
    },
  }));
  let tokenRequests = 0;
  const callback = provider.callback();
  let account = 'alice';
  handler = (req, res) => {
    if (req.url?.startsWith('/token')) tokenRequests++;
    const interaction = /^\/interaction\/([^/?]+)/.exec(req.url ?? '');
    if (!interaction) return callback(req, res);
    // The login and consent pages of a real server, scripted: sign `account` in, grant what was asked.
    void (async () => {
      const details = await provider.interactionDetails(req, res);
      if (details.prompt.name === 'login') {
        await provider.interactionFinished(req, res, { login: { accountId: account } }, { mergeWithLastSubmission: false });
        return;
      }
      const grant = (details.grantId ? await provider.Grant.find(details.grantId) : undefined) ?? new provider.Grant({ accountId: account, clientId: details.params.client_id });
      const { missingOIDCScope, missingResourceScopes } = details.prompt.details;
      if (missingOIDCScope?.length) grant.addOIDCScope(missingOIDCScope.join(' '));
      for (const [indicator, granted] of Object.entries(missingResourceScopes ?? {})) grant.addResourceScope(indicator, granted.join(' '));
      const grantId = await grant.save();
      await provider.interactionFinished(req, res, { consent: { grantId } }, { mergeWithLastSubmission: true });
    })().catch((error: unknown) => {
      res.statusCode = 500;
      res.end(String(error));
    });
  };

  return {
    issuer,
    scopes,
    get tokenRequests() {
      return tokenRequests;
    },
    async token({ resource, scope }) {
      const response = await fetch(`${issuer}/token`, {
        method: 'POST',
        headers: { authorization: `Basic ${btoa(`${MINTER.id}:${MINTER.secret}`)}`, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ grant_type: 'client_credentials', resource, scope }),
      });
      const body = (await response.json()) as { access_token?: string };
      if (!response.ok || !body.access_token) throw new Error(`The token endpoint answered ${response.status}: ${JSON.stringify(body)}`);
      return body.access_token;
    },
    async authorize(url, who = 'alice') {
      account = who;
      const jar = new Map<string, string>();
      let next = new URL(url);
      for (let hop = 0; hop < 10; hop++) {
        if (next.origin !== issuer) return next;
        const response = await fetch(next, { redirect: 'manual', headers: { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; ') } });
        for (const cookie of response.headers.getSetCookie()) {
          const [pair] = cookie.split(';');
          const eq = pair!.indexOf('=');
          jar.set(pair!.slice(0, eq).trim(), pair!.slice(eq + 1).trim());
        }
        const location = response.headers.get('location');
        if (!location) throw new Error(`The authorization server answered ${response.status} without a redirect: ${(await response.text()).slice(0, 500)}`);
        next = new URL(location, next);
      }
      throw new Error('Too many redirects on the way to the client.');
    },
    async close() {
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

/**
 * Runs `fn` without oidc-provider's warnings about this test setup (its
 * in-memory store, Node 20, which it runs on but no longer names as supported).
 */
async function quietly<T>(fn: () => Promise<T>): Promise<T> {
  const warn = console.warn;
  console.warn = (...args: unknown[]) => {
    if (typeof args[0] === 'string' && args[0].includes('oidc-provider WARNING')) return;
    warn(...args);
  };
  try {
    return await fn();
  } finally {
    console.warn = warn;
  }
}
