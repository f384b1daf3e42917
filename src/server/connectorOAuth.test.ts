import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createMemoryConnectorStore, type ConnectorStore } from '../runtime/stores/connectorStore';
import type { TestAuthServer } from '../test/authServer';
import { startOAuthMcpServer, type OAuthMcpServer } from '../test/oauthMcpServer';
import { openToken, sealToken } from './connectorTokens';
import { clientFor, grantOf, isSafeEndpoint, withGrant, type OAuthGrant } from './connectorOAuth';
import { createConnectors } from './connectors';
import { createWorkspaceServer, type WorkspaceServer, type WorkspaceServerOptions } from './createWorkspaceServer';

/**
 * A user's own MCP server behind OAuth: the kit's own MCP door with `mcpAuth` (access tokens from a
 * real authorization server on loopback, oidc-provider), connected by another kit server acting as
 * the user's OAuth client.
 */
const KEY = Buffer.alloc(32, 7).toString('base64');
let mcp: OAuthMcpServer;
let auth: TestAuthServer;
let resource: string;

beforeAll(async () => {
  mcp = await startOAuthMcpServer();
  auth = mcp.auth;
  resource = mcp.url;
}, 30_000);
afterAll(async () => {
  await mcp?.stop();
});

async function start(extra: Partial<WorkspaceServerOptions> = {}): Promise<WorkspaceServer> {
  return createWorkspaceServer({
    capabilities: [],
    database: ':memory:',
    authenticate: (request) => {
      const user = request.headers.get('x-user');
      return user ? { user } : null;
    },
    connectors: { allowHosts: ['127.0.0.1'], tokenKey: KEY },
    ...extra,
  });
}

async function call(server: WorkspaceServer, method: string, path: string, user: string | null, body?: unknown, headers: Record<string, string> = {}) {
  const response = await server.fetch(
    new Request(`http://127.0.0.1:4999${path}`, {
      method,
      headers: { ...(user ? { 'x-user': user } : {}), ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    }),
  );
  const text = await response.text();
  const json = response.headers.get('content-type')?.startsWith('application/json') && text ? (JSON.parse(text) as Record<string, any>) : null;
  return { status: response.status, text, json, headers: response.headers };
}

/** Connects `label` for `user`, signs in at the authorization server, and answers what the landing page would post. */
async function signIn(server: WorkspaceServer, user: string, label: string) {
  const started = await call(server, 'POST', `/v1/mcp-servers/${label}/authorize`, user, {});
  expect(started.status, started.text).toBe(200);
  const back = await auth.authorize(started.json!.url, user);
  return { started, back, response: Object.fromEntries(back.searchParams) as Record<string, string> };
}

describe('OAuth for a user\'s own MCP server', () => {
  it('keeps a 401 server as needing sign-in, signs the user in with PKCE bound to the resource, and runs its tool with the user\'s token', async () => {
    const server = await start();
    try {
      const connected = await call(server, 'POST', '/v1/mcp-servers', 'alice', { label: 'notes', url: resource });
      expect(connected.status, connected.text).toBe(201);
      expect(connected.json!.server).toMatchObject({ label: 'notes', status: 'needs_auth', signIn: 'oauth', tools: [] });
      expect(connected.json!.server.problems[0]).toMatch(/notes needs you to sign in/);

      const { started, back, response } = await signIn(server, 'alice', 'notes');
      const asked = new URL(started.json!.url);
      expect(asked.origin).toBe(auth.issuer);
      expect(asked.searchParams.get('code_challenge_method')).toBe('S256');
      expect(asked.searchParams.get('resource')).toBe(resource);
      expect(asked.searchParams.get('scope')).toBe('mcp:tools offline_access');
      expect(asked.searchParams.get('redirect_uri')).toBe('http://127.0.0.1:4999/v1/mcp-servers/oauth/callback');
      expect(back.pathname).toBe('/v1/mcp-servers/oauth/callback');
      expect(response.code).toBeTruthy();

      // Another user's session cannot complete alice's sign-in, nor start one for her server: 404, and hers still works.
      expect((await call(server, 'POST', '/v1/mcp-servers/oauth/complete', 'bob', response)).status).toBe(404);
      expect((await call(server, 'POST', '/v1/mcp-servers/notes/authorize', 'bob', {})).status).toBe(404);

      const done = await call(server, 'POST', '/v1/mcp-servers/oauth/complete', 'alice', response, { origin: 'http://127.0.0.1:4999' });
      expect(done.status, done.text).toBe(200);
      expect(done.json).toEqual({ label: 'notes', status: 'connected', openerOrigin: 'http://127.0.0.1:4999', message: 'Signed in to notes: 1 tool in your chats now.' });
      // A state is used once.
      expect((await call(server, 'POST', '/v1/mcp-servers/oauth/complete', 'alice', response)).status).toBe(404);

      const listed = await call(server, 'GET', '/v1/mcp-servers', 'alice');
      expect(listed.json!.servers).toEqual([expect.objectContaining({ label: 'notes', status: 'connected', signIn: 'oauth', tools: [expect.objectContaining({ name: 'notes.notes.count' })] })]);
      expect(listed.text).not.toMatch(/access_token|refresh_token|eyJ/);
      expect((await call(server, 'GET', '/v1/mcp-servers', 'bob')).json!.servers).toEqual([]);

      let before = auth.tokenRequests;
      const ran = await call(server, 'POST', '/v1/invocations', 'alice', { threadId: 'oauth-thread', capability: 'notes.notes.count', args: {} });
      expect(ran.status, ran.text).toBe(200);
      expect(JSON.stringify(ran.json!.result)).toContain('7 notes for alice');
      expect(auth.tokenRequests).toBe(before);
      // The server ran it for alice as its own authorization server knows her.
      expect(mcp.seen).toEqual([`alice@${new URL(auth.issuer).host}`]);

      // Four and a half minutes on, the 5-minute token is within a minute of running out: it is renewed with the refresh token first.
      vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 270_000 });
      try {
        before = auth.tokenRequests;
        const later = await call(server, 'POST', '/v1/invocations', 'alice', { threadId: 'oauth-thread', capability: 'notes.notes.count', args: {} });
        expect(JSON.stringify(later.json!.result)).toContain('7 notes for alice');
        expect(auth.tokenRequests).toBe(before + 1);
      } finally {
        vi.useRealTimers();
      }
    } finally {
      await server.close();
    }
  }, 30_000);

  it('says a refused cross-site start, a stranger state and an unknown server in words', async () => {
    const server = await start();
    try {
      expect((await call(server, 'POST', '/v1/mcp-servers/nothing/authorize', 'alice', {})).json!.error.code).toBe('unknown_server');
      const crossSite = await call(server, 'POST', '/v1/mcp-servers/nothing/authorize', 'alice', {}, { origin: 'https://evil.example' });
      expect(crossSite.status).toBe(403);
      const stranger = await call(server, 'POST', '/v1/mcp-servers/oauth/complete', 'alice', { state: 'made-up', code: 'x' });
      expect(stranger.status).toBe(404);
      expect(stranger.json!.error.message).toMatch(/not one you started here/);
    } finally {
      await server.close();
    }
  });

  it('serves the landing page from another site\'s redirect, without framing, referrer or inline code it did not sign', async () => {
    const server = await start();
    try {
      const page = await call(server, 'GET', '/v1/mcp-servers/oauth/callback?code=abc&state=def', null, undefined, { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'navigate' });
      expect(page.status).toBe(200);
      const csp = page.headers.get('content-security-policy')!;
      const nonce = /'nonce-([^']+)'/.exec(csp)![1];
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toContain("connect-src 'self'");
      expect(page.headers.get('referrer-policy')).toBe('no-referrer');
      expect(page.text).toContain(`<script nonce="${nonce}">`);
      expect(page.text).toContain('/v1/mcp-servers/oauth/complete');
      // Everything else under /v1 from another site is still refused.
      expect((await call(server, 'GET', '/v1/mcp-servers', 'alice', undefined, { 'sec-fetch-site': 'cross-site' })).status).toBe(403);
      const document = await call(server, 'GET', '/v1/mcp-servers/oauth/client', null);
      expect(document.json).toMatchObject({ client_id: 'http://127.0.0.1:4999/v1/mcp-servers/oauth/client', redirect_uris: ['http://127.0.0.1:4999/v1/mcp-servers/oauth/callback'] });
    } finally {
      await server.close();
    }
  });

  it('without a key to seal tokens, refuses an OAuth server in words and stores nothing', async () => {
    const previous = process.env.CHATSURFACE_TOKEN_KEY;
    delete process.env.CHATSURFACE_TOKEN_KEY;
    const server = await start({ connectors: { allowHosts: ['127.0.0.1'] } });
    try {
      const refused = await call(server, 'POST', '/v1/mcp-servers', 'alice', { label: 'notes', url: resource });
      expect(refused.status).toBe(501);
      expect(refused.json!.error.message).toMatch(/signs users in with OAuth, and this workspace has no key .*connectors\.tokenKey/);
      expect((await call(server, 'GET', '/v1/mcp-servers', 'alice')).json!.servers).toEqual([]);
    } finally {
      if (previous !== undefined) process.env.CHATSURFACE_TOKEN_KEY = previous;
      await server.close();
    }
  });
});

describe('OAuth grants at rest', () => {
  const alice = { user: 'alice', space: 'default' };
  const place = { redirectUri: 'http://127.0.0.1:4999/v1/mcp-servers/oauth/callback', clientDocumentUrl: 'http://127.0.0.1:4999/v1/mcp-servers/oauth/client', openerOrigin: 'http://127.0.0.1:4999' };

  it('keeps tokens sealed per user, and a refresh the server refuses turns the server to "sign in again" in words', async () => {
    const raw: ConnectorStore = createMemoryConnectorStore();
    const key = Buffer.from(KEY, 'base64');
    const first = createConnectors(raw, { allowHosts: ['127.0.0.1'], tokenKey: KEY }, () => false);
    let row;
    try {
      expect((await first.connect(alice, { label: 'notes', url: resource })).status).toBe('needs_auth');
      const { url } = await first.authorize(alice, 'notes', place);
      const back = await auth.authorize(url, 'alice');
      const done = await first.completeSignIn(alice, Object.fromEntries(back.searchParams) as { state: string });
      expect(done.status).toBe('connected');
      [row] = await raw.list(alice);
      // Sealed at rest, bound to its owner: the access token is nowhere in the row, and bob's row could not be opened with it.
      expect(row!.token).toMatch(/^sealed:v1:/);
      const opened = openToken(key, row!, row!.token!)!;
      const grant = grantOf({ ...row!, token: opened })!;
      expect(row!.token).not.toContain(grant.tokens!.access_token.slice(0, 20));
      expect(grant.tokens!.refresh_token).toBeTruthy();
      expect(openToken(key, { ...row!, user: 'bob' }, row!.token!)).toBeNull();

      // The refresh token stops working (revoked, or another device rotated it): the row is changed as the server would find it.
      const broken = withGrant(row!, { ...grant, tokens: { ...grant.tokens!, refresh_token: `${grant.tokens!.refresh_token!.slice(0, -6)}AAAAAA`, expires_at: Date.now() } });
      await raw.update!({ ...broken, token: sealToken(key, broken, broken.token!) });
    } finally {
      await first.close();
    }
    // Another instance (or a restart) reads the row: the token has run out and cannot be renewed.
    const second = createConnectors(raw, { allowHosts: ['127.0.0.1'], tokenKey: KEY }, () => false);
    try {
      const [listed] = await second.list(alice);
      expect(listed, JSON.stringify(listed)).toMatchObject({ label: 'notes', status: 'needs_auth', signIn: 'oauth' });
      expect(listed!.problems.join(' ')).toMatch(/notes needs you to sign in again: its sign-in server refused to renew it \(invalid_grant\)\. Choose "Sign in" next to it\./);
      // And it stays so (kept in the row) until the user signs in again, which brings it back.
      const again = await second.authorize(alice, 'notes', place);
      const back = await auth.authorize(again.url, 'alice');
      expect((await second.completeSignIn(alice, Object.fromEntries(back.searchParams) as { state: string })).status).toBe('connected');
      expect((await second.list(alice))[0]).toMatchObject({ status: 'connected', problems: [] });
    } finally {
      await second.close();
    }
  }, 30_000);
});

describe('sign-in addresses', () => {
  it('takes https, and plain http on this machine only; never a script or data URL', () => {
    expect(isSafeEndpoint('https://auth.example.com/authorize')).toBe(true);
    expect(isSafeEndpoint('http://127.0.0.1:4444/auth')).toBe(true);
    expect(isSafeEndpoint('http://localhost:4444/auth')).toBe(true);
    expect(isSafeEndpoint('http://auth.example.com/authorize')).toBe(false);
    expect(isSafeEndpoint('javascript:alert(document.cookie)')).toBe(false);
    expect(isSafeEndpoint('data:text/html,<script>alert(1)</script>')).toBe(false);
    expect(isSafeEndpoint('https://user:pass@auth.example.com/')).toBe(false);
  });
});

describe('the client the kit is at an authorization server', () => {
  const grant = (supported: boolean): OAuthGrant => ({
    resource: 'https://notes.example.com/mcp',
    authorizationServer: 'https://auth.example.com',
    metadata: {
      issuer: 'https://auth.example.com',
      authorization_endpoint: 'https://auth.example.com/authorize',
      token_endpoint: 'https://auth.example.com/token',
      response_types_supported: ['code'],
      ...(supported ? { client_id_metadata_document_supported: true } : {}),
    },
  });
  const noNetwork = (() => Promise.reject(new Error('no request was expected'))) as typeof fetch;

  it('is its client ID metadata document when the server takes them and the kit is on https (no registration)', async () => {
    const client = await clientFor(grant(true), 'https://app.example.com/v1/mcp-servers/oauth/callback', 'https://app.example.com/v1/mcp-servers/oauth/client', noNetwork);
    expect(client).toEqual({ info: { client_id: 'https://app.example.com/v1/mcp-servers/oauth/client' }, redirectUri: 'https://app.example.com/v1/mcp-servers/oauth/callback' });
  });

  it('says so in words when the server takes neither documents from this address nor registrations', async () => {
    await expect(clientFor(grant(true), 'http://127.0.0.1:4999/v1/mcp-servers/oauth/callback', 'http://127.0.0.1:4999/v1/mcp-servers/oauth/client', noNetwork)).rejects.toThrow(
      /takes neither client ID metadata documents from this address nor registrations/,
    );
  });
});

describe('connectors.publicOrigin', () => {
  it('is where the sign-in comes back to, and must be an origin', async () => {
    expect(createConnectors(createMemoryConnectorStore(), { tokenKey: KEY, publicOrigin: 'https://app.example.com/' }, () => false).publicOrigin).toBe('https://app.example.com');
    expect(() => createConnectors(createMemoryConnectorStore(), { tokenKey: KEY, publicOrigin: 'https://app.example.com/chat' }, () => false)).toThrow(
      /connectors\.publicOrigin: "https:\/\/app\.example\.com\/chat" is not an origin/,
    );
    const server = await start({ connectors: { allowHosts: ['127.0.0.1'], tokenKey: KEY, publicOrigin: 'https://app.example.com' } });
    try {
      await call(server, 'POST', '/v1/mcp-servers', 'alice', { label: 'notes', url: resource });
      const started = await call(server, 'POST', '/v1/mcp-servers/notes/authorize', 'alice', {});
      expect(new URL(started.json!.url).searchParams.get('redirect_uri')).toBe('https://app.example.com/v1/mcp-servers/oauth/callback');
    } finally {
      await server.close();
    }
  });
});
