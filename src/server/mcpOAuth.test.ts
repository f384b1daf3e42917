import {
  Client,
  StreamableHTTPClientTransport,
  UnauthorizedError,
  type OAuthClientInformationMixed,
  type OAuthClientMetadata,
  type OAuthClientProvider,
  type OAuthDiscoveryState,
  type OAuthTokens,
} from '@modelcontextprotocol/client';
import { decodeJwt } from 'jose';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { startAuthServer, type TestAuthServer } from '../test/authServer';
import { defineCapability } from '../runtime/capability';
import { textResult } from '../runtime/results';
import { createWorkspaceServer, type WorkspaceServer, type WorkspaceServerOptions } from './createWorkspaceServer';
import { createMcpOAuth, importJose, metadataUrls } from './mcpOAuth';
import { MissingPeerError } from '../runtime/peers';

const KEY = 'mcp-oauth-test-key-0123456789';
let auth: TestAuthServer;
let stranger: TestAuthServer;
let server: WorkspaceServer | null = null;
const clients: Client[] = [];
const seen: string[] = [];

beforeAll(async () => {
  [auth, stranger] = await Promise.all([startAuthServer(), startAuthServer()]);
});
afterAll(async () => {
  await Promise.all([auth?.close(), stranger?.close()]);
});
afterEach(async () => {
  for (const client of clients.splice(0)) await client.close();
  await server?.close();
  server = null;
  seen.length = 0;
});

const whoami = defineCapability({
  name: 'who.ami',
  title: 'Who am I',
  description: 'Says who is calling.',
  input: z.object({}),
  handler: (_args, ctx) => {
    // A door's call without a thread runs for `mcp:<user>`.
    const user = ctx.threadKey.replace(/^mcp:/, '');
    seen.push(user);
    return textResult(`You are ${user}.`);
  },
});

/** A server with the MCP door behind OAuth (`mcp:tools` required) and one API key. */
async function start(options: Partial<WorkspaceServerOptions> = {}, mcpAuth: Partial<NonNullable<WorkspaceServerOptions['mcpAuth']>> = {}) {
  server = await createWorkspaceServer({
    capabilities: [whoami],
    database: ':memory:',
    apiKeys: [{ id: 'agent', key: KEY }],
    mcpAuth: { issuer: auth.issuer, requiredScopes: ['mcp:tools'], ...mcpAuth },
    ...options,
  });
  const { url } = await server.listen();
  return { url, resource: `${url}/mcp` };
}

/** A bare JSON-RPC POST to /mcp (the 2025-11-25 handshake's first request). */
function post(url: string, token?: string) {
  return fetch(`${url}/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } } }),
  });
}

/** The parameters of a `WWW-Authenticate: Bearer …` challenge. */
function challenge(response: Response): Record<string, string> {
  const header = response.headers.get('www-authenticate') ?? '';
  expect(header).toMatch(/^Bearer /);
  return Object.fromEntries([...header.matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1]!, m[2]!]));
}

async function connect(url: string, token: string) {
  const client = new Client({ name: 'oauth-test', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
  clients.push(client);
  return client;
}

describe('MCP door with OAuth: the protected resource metadata (RFC 9728)', () => {
  it('serves the document at the root and at the path of the MCP endpoint, to any origin', async () => {
    const { url, resource } = await start({}, { scopesSupported: ['mcp:tools', 'mcp:admin'] });
    for (const path of ['/.well-known/oauth-protected-resource', '/.well-known/oauth-protected-resource/mcp']) {
      const response = await fetch(`${url}${path}`, { headers: { origin: 'https://inspector.example' } });
      expect(response.status, path).toBe(200);
      expect(response.headers.get('access-control-allow-origin')).toBe('*');
      expect(await response.json()).toEqual({
        resource,
        authorization_servers: [auth.issuer],
        scopes_supported: ['mcp:tools', 'mcp:admin'],
        bearer_methods_supported: ['header'],
      });
    }
    expect((await fetch(`${url}/.well-known/oauth-protected-resource/elsewhere`)).status).toBe(404);
    // A browser client's preflight (the SDK sends MCP-Protocol-Version with its discovery requests).
    const preflight = await fetch(`${url}/.well-known/oauth-protected-resource/mcp`, {
      method: 'OPTIONS',
      headers: { origin: 'https://inspector.example', 'access-control-request-method': 'GET', 'access-control-request-headers': 'mcp-protocol-version' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    expect(preflight.headers.get('access-control-allow-headers')).toBe('mcp-protocol-version');
  });

  it('names the configured resource (a server behind a proxy) and its required scopes by default', async () => {
    const { url } = await start({}, { resource: 'https://App.Example.com/tools/mcp/' });
    expect(await (await fetch(`${url}/.well-known/oauth-protected-resource/tools/mcp`)).json()).toEqual({
      resource: 'https://app.example.com/tools/mcp',
      authorization_servers: [auth.issuer],
      scopes_supported: ['mcp:tools'],
      bearer_methods_supported: ['header'],
    });
    const refused = await post(url);
    expect(challenge(refused).resource_metadata).toBe('https://app.example.com/.well-known/oauth-protected-resource/tools/mcp');
  });

  it('looks for the issuer metadata where RFC 8414 and OpenID Connect put it', () => {
    expect(metadataUrls('https://auth.example.com')).toEqual(['https://auth.example.com/.well-known/oauth-authorization-server', 'https://auth.example.com/.well-known/openid-configuration']);
    expect(metadataUrls('https://auth.example.com/tenant1')).toEqual([
      'https://auth.example.com/.well-known/oauth-authorization-server/tenant1',
      'https://auth.example.com/.well-known/openid-configuration/tenant1',
      'https://auth.example.com/tenant1/.well-known/openid-configuration',
    ]);
  });
});

describe('MCP door with OAuth: access tokens', () => {
  it('answers a request without a token 401 pointing at the metadata and asking for the scopes', async () => {
    const { url } = await start();
    const response = await post(url);
    expect(response.status).toBe(401);
    expect(challenge(response)).toEqual({ resource_metadata: `${url}/.well-known/oauth-protected-resource/mcp`, scope: 'mcp:tools' });
    expect(((await response.json()) as { error: { message: string } }).error.message).toContain(auth.issuer);
  });

  it('takes a token of its issuer for its resource: the principal is the subject at that issuer, with its scopes', async () => {
    const { url, resource } = await start();
    const token = await auth.token({ resource, scope: 'mcp:tools mcp:admin' });
    expect(decodeJwt(token)).toMatchObject({ iss: auth.issuer, aud: resource, sub: 'minter', scope: 'mcp:tools mcp:admin' });
    const client = await connect(url, token);
    const result = await client.callTool({ name: 'who.ami', arguments: {} });
    const user = `minter@${new URL(auth.issuer).host}`;
    expect(result).toMatchObject({ content: [{ type: 'text', text: `You are ${user}.` }] });
    expect(seen).toEqual([user]);
  });

  it('refuses a token for another resource (401 invalid_token)', async () => {
    const { url } = await start();
    const token = await auth.token({ resource: 'http://127.0.0.1:1/mcp', scope: 'mcp:tools' });
    const response = await post(url, token);
    expect(response.status).toBe(401);
    expect(challenge(response)).toMatchObject({ error: 'invalid_token', resource_metadata: `${url}/.well-known/oauth-protected-resource/mcp`, scope: 'mcp:tools' });
    expect(challenge(response).error_description).toMatch(/not for this server: its audience must be http:\/\/127\.0\.0\.1:\d+\/mcp/);
  });

  it('refuses an expired token (401 invalid_token)', async () => {
    let clock = Date.now();
    const { url, resource } = await start({}, { now: () => clock });
    const token = await auth.token({ resource, scope: 'mcp:tools' });
    expect((await post(url, token)).status).toBe(200);
    clock = decodeJwt(token).exp! * 1000 + 31_000;
    const response = await post(url, token);
    expect(response.status).toBe(401);
    expect(challenge(response)).toMatchObject({ error: 'invalid_token', error_description: 'The access token has expired; get a new one from the authorization server.' });
  });

  it('refuses a token of another authorization server, even for this resource (401 invalid_token)', async () => {
    const { url, resource } = await start();
    const token = await stranger.token({ resource, scope: 'mcp:tools' });
    const response = await post(url, token);
    expect(response.status).toBe(401);
    expect(challenge(response)).toMatchObject({ error: 'invalid_token', error_description: `The access token was not issued by ${auth.issuer}, the authorization server of this server.` });
  });

  it('refuses a token whose payload was changed after signing (401 invalid_token)', async () => {
    const { url, resource } = await start();
    const [header, payload, signature] = (await auth.token({ resource, scope: 'mcp:tools' })).split('.');
    const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString()) as Record<string, unknown>;
    const forged = Buffer.from(JSON.stringify({ ...claims, sub: 'admin' })).toString('base64url');
    const response = await post(url, `${header}.${forged}.${signature}`);
    expect(response.status).toBe(401);
    expect(challenge(response)).toMatchObject({ error: 'invalid_token', error_description: `The access token's signature does not verify with the keys of ${auth.issuer}.` });
  });

  it('refuses a token without the required scope (403 insufficient_scope naming it)', async () => {
    const { url, resource } = await start();
    const token = await auth.token({ resource, scope: 'mcp:admin' });
    const response = await post(url, token);
    expect(response.status).toBe(403);
    expect(challenge(response)).toMatchObject({ error: 'insufficient_scope', scope: 'mcp:tools', resource_metadata: `${url}/.well-known/oauth-protected-resource/mcp` });
    expect(seen).toEqual([]);
  });

  it('refuses a bearer value that is neither a key nor a token, and another scheme (401 invalid_token)', async () => {
    const { url } = await start();
    const response = await post(url, 'not-a-key-nor-a-token');
    expect(response.status).toBe(401);
    expect(challenge(response)).toMatchObject({ error: 'invalid_token', error_description: 'The bearer token is neither an API key of this server nor an access token it accepts.' });
    const basic = await fetch(`${url}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Basic YTpi' }, body: '{}' });
    expect(basic.status).toBe(401);
    expect(challenge(basic)).toMatchObject({ error: 'invalid_token', resource_metadata: `${url}/.well-known/oauth-protected-resource/mcp` });
  });

  it('keeps the API keys working beside the tokens', async () => {
    const { url } = await start();
    const client = await connect(url, KEY);
    expect(await client.callTool({ name: 'who.ami', arguments: {} })).toMatchObject({ content: [{ type: 'text', text: 'You are agent.' }] });
  });

  it("maps the claims to the host's principal, and refuses a subject the host refuses (403)", async () => {
    const { url, resource } = await start({}, { principalFromClaims: (claims, scopes) => (claims.sub === 'minter' ? { user: 'robot', space: 'acme', scopes } : null) });
    const client = await connect(url, await auth.token({ resource, scope: 'mcp:tools' }));
    await client.callTool({ name: 'who.ami', arguments: {} });
    expect(seen).toEqual(['robot']);
    await server!.close();
    const again = await start({}, { principalFromClaims: () => null });
    const response = await post(again.url, await auth.token({ resource: again.resource, scope: 'mcp:tools' }));
    expect(response.status).toBe(403);
  });

  it('answers 503 in words while the issuer cannot be reached, and logs it', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      const { url, resource } = await start({}, { jwksUri: 'http://127.0.0.1:1/jwks' });
      const response = await post(url, await auth.token({ resource, scope: 'mcp:tools' }));
      expect(response.status).toBe(503);
      expect(response.headers.get('retry-after')).toBe('5');
      expect(((await response.json()) as { error: { message: string } }).error.message).toMatch(/could not reach its authorization server/);
      expect(logged).toHaveBeenCalledWith(expect.stringMatching(/^\[chatsurface\] mcpAuth: could not read the keys of http:\/\/127\.0\.0\.1:\d+/));
      await server!.close();
      // An issuer whose JWKS address answers something else than a key set is away too, not the token bad.
      const again = await start({}, { jwksUri: `${auth.issuer}/no-such-jwks` });
      expect((await post(again.url, await auth.token({ resource: again.resource, scope: 'mcp:tools' }))).status).toBe(503);
    } finally {
      logged.mockRestore();
    }
  });

  it('refuses an issuer or resource that is not https (but loopback) at once', () => {
    expect(() => createMcpOAuth({ issuer: 'http://auth.example.com' })).toThrow(/must be https/);
    expect(() => createMcpOAuth({ issuer: 'https://auth.example.com', resource: 'http://app.example.com/mcp' })).toThrow(/must be https/);
    expect(() => createMcpOAuth({ issuer: 'auth.example.com' })).toThrow(/is not a URL/);
  });

  it('says which package to install when jose is missing', async () => {
    const missing = Object.assign(new Error("Cannot find package 'jose' imported from /app/server.js"), { code: 'ERR_MODULE_NOT_FOUND' });
    const error = await importJose(() => Promise.reject(missing)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MissingPeerError);
    expect((error as Error).message).toBe(
      'OAuth 2.1 on the MCP door (the mcpAuth option of chatsurface/server: checking access tokens) needs the package "jose", which is not installed. Install it beside chatsurface: npm install jose',
    );
  });
});

/**
 * The official SDK client's OAuth provider, in memory: it registers itself
 * (dynamic client registration), keeps its PKCE verifier and tokens, and
 * hands the authorization URL to the scripted browser.
 */
class MemoryOAuthProvider implements OAuthClientProvider {
  private info: OAuthClientInformationMixed | undefined;
  private saved: OAuthTokens | undefined;
  private verifier = '';
  private discovery: OAuthDiscoveryState | undefined;
  authorizationUrl: URL | null = null;
  readonly redirectUrl = 'http://127.0.0.1:7/callback';
  get clientMetadata(): OAuthClientMetadata {
    return { client_name: 'ChatSurface OAuth test', redirect_uris: [this.redirectUrl], token_endpoint_auth_method: 'none' };
  }
  clientInformation() {
    return this.info;
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.info = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
  // Kept with the verifier: the callback leg checks the code comes back from the server it was asked of (SEP-2352).
  saveDiscoveryState(state: OAuthDiscoveryState) {
    this.discovery = state;
  }
  discoveryState() {
    return this.discovery;
  }
}

describe('MCP door with OAuth: the official SDK client, end to end', () => {
  it('goes from a 401 through discovery, registration, authorization code with PKCE and the token to a tool call', async () => {
    const { url, resource } = await start();
    const provider = new MemoryOAuthProvider();
    const first = new StreamableHTTPClientTransport(new URL(`${url}/mcp`), { authProvider: provider });
    await expect(new Client({ name: 'oauth-test', version: '1.0.0' }).connect(first)).rejects.toBeInstanceOf(UnauthorizedError);

    // The SDK read the challenge and the metadata, registered (dynamic client registration), and sent the user to the authorization endpoint.
    const registered = provider.clientInformation()!;
    expect(registered.client_id).toMatch(/\S{20,}/);
    const authorization = provider.authorizationUrl!;
    expect(authorization.searchParams.get('client_id')).toBe(registered.client_id);
    expect(authorization.origin).toBe(auth.issuer);
    expect(Object.fromEntries(authorization.searchParams)).toMatchObject({ response_type: 'code', code_challenge_method: 'S256', resource, scope: 'mcp:tools' });
    expect(authorization.searchParams.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);

    // The browser: login and consent at the authorization server, then back to the client with the code.
    const callback = await auth.authorize(authorization, 'alice');
    expect(callback.href.startsWith(provider.redirectUrl)).toBe(true);
    await first.finishAuth(callback.searchParams);
    const token = provider.tokens()!.access_token;
    expect(decodeJwt(token)).toMatchObject({ iss: auth.issuer, aud: resource, sub: 'alice', scope: 'mcp:tools' });

    const client = new Client({ name: 'oauth-test', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp`), { authProvider: provider }));
    clients.push(client);
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['who.ami']);
    const result = await client.callTool({ name: 'who.ami', arguments: {} });
    expect(result).toMatchObject({ content: [{ type: 'text', text: `You are alice@${new URL(auth.issuer).host}.` }] });
  });

  it('steps up on a 403 insufficient_scope: the client authorizes again for the scopes the challenge names', async () => {
    const { url, resource } = await start({}, { requiredScopes: ['mcp:tools', 'mcp:admin'] });
    const provider = new MemoryOAuthProvider();
    // A token the client already holds, good but narrower than the server needs.
    provider.saveTokens({ access_token: await auth.token({ resource, scope: 'mcp:tools' }), token_type: 'Bearer', scope: 'mcp:tools' });
    const first = new StreamableHTTPClientTransport(new URL(`${url}/mcp`), { authProvider: provider });
    await expect(new Client({ name: 'oauth-test', version: '1.0.0' }).connect(first)).rejects.toThrow();
    expect(provider.authorizationUrl?.searchParams.get('scope')?.split(' ').sort()).toEqual(['mcp:admin', 'mcp:tools']);

    await first.finishAuth((await auth.authorize(provider.authorizationUrl!, 'bob')).searchParams);
    expect(decodeJwt(provider.tokens()!.access_token).scope).toBe('mcp:tools mcp:admin');
    const client = new Client({ name: 'oauth-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp`), { authProvider: provider }));
    clients.push(client);
    expect(await client.callTool({ name: 'who.ami', arguments: {} })).toMatchObject({ content: [{ type: 'text', text: `You are bob@${new URL(auth.issuer).host}.` }] });
  });
});
