// `node scripts/oauth-dev-server.mjs`: an OAuth 2.1 authorization server for trying the demo's MCP door
// with OAuth on this machine (README, "MCP clients with OAuth"). It is oidc-provider (a devDependency)
// on http://127.0.0.1:4444 (OAUTH_PORT overrides), with what the MCP authorization spec asks of one:
// metadata (RFC 8414), dynamic client registration, authorization code with PKCE, and JWT access tokens
// (RFC 9068) bound to the resource the client names (RFC 8707), with the scopes of MCP_AUTH_SCOPES
// (default "mcp:tools"). Its sign-in page takes any name and any password. Development only: its keys
// and its clients live in memory and are gone when it stops.
import { generateKeyPairSync } from 'node:crypto';

const { default: Provider } = await import('oidc-provider').catch(() => {
  console.error('oidc-provider is not installed: it is a devDependency of this checkout; run npm install first.');
  process.exit(1);
});

const port = Number(process.env.OAUTH_PORT ?? 4444);
const issuer = `http://127.0.0.1:${port}`;
const scopes = (process.env.MCP_AUTH_SCOPES || 'mcp:tools').split(/[\s,]+/).filter(Boolean);
const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });

const provider = new Provider(issuer, {
  jwks: { keys: [{ ...privateKey.export({ format: 'jwk' }), kid: 'dev', use: 'sig', alg: 'RS256' }] },
  features: {
    devInteractions: { enabled: true },
    registration: { enabled: true },
    resourceIndicators: {
      enabled: true,
      defaultResource: (_ctx, _client, oneOf) => oneOf,
      useGrantedResource: () => true,
      // Any resource a client names (the demo's http://127.0.0.1:5173/mcp): a JWT for it, with these scopes.
      getResourceServerInfo: () => ({ scope: scopes.join(' '), accessTokenTTL: 3600, accessTokenFormat: 'jwt', jwt: { sign: { alg: 'RS256' } } }),
    },
  },
  scopes: ['openid', 'offline_access', ...scopes],
  // MCP clients in a browser (an inspector page) call the token and registration endpoints too.
  clientBasedCORS: () => true,
  findAccount: (_ctx, sub) => ({ accountId: sub, claims: () => ({ sub }) }),
  ttl: { AccessToken: 3600, AuthorizationCode: 60, ClientCredentials: 600, Grant: 86400, IdToken: 3600, Interaction: 3600, RefreshToken: 86400, Session: 86400 },
});

provider.listen(port, '127.0.0.1');
console.log(`OAuth authorization server for development: ${issuer} (scopes: ${scopes.join(' ')}; sign in with any name)`);
console.log(`Start the demo with it: MCP_AUTH_ISSUER=${issuer} MCP_AUTH_SCOPES="${scopes.join(' ')}" npm run demo`);
