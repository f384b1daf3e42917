import { toNodeHandler } from '@modelcontextprotocol/node';
import { createMcpHandler, McpServer } from '@modelcontextprotocol/server';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { foldAll, initialThreadState, type ThreadState } from '../runtime/fold';
import type { ThreadEvent } from '../runtime/events';
import { startEverythingServer, type EverythingServer } from '../test/everythingServer';
import { freePort } from '../test/freePort';
import { createWorkspaceServer, type WorkspaceServer, type WorkspaceServerOptions } from './createWorkspaceServer';

let everything: EverythingServer;
const fixtures: Server[] = [];
const dir = mkdtempSync(join(tmpdir(), 'chatsurface-byo-'));

beforeAll(async () => {
  everything = await startEverythingServer();
}, 30_000);
afterAll(async () => {
  await everything.stop();
  for (const f of fixtures) {
    f.closeAllConnections();
    await new Promise((resolve) => f.close(resolve));
  }
  rmSync(dir, { recursive: true, force: true });
});

/** A plain HTTP server answering every request with `status` and `body`. */
async function fixture(handle: Parameters<typeof createServer>[1]): Promise<string> {
  const server = createServer(handle);
  fixtures.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
}

/** An SDK v2 MCP server that wants `Bearer good-token`, with one read-only tool. */
async function tokenServer(): Promise<{ url: string; seen: string[] }> {
  const seen: string[] = [];
  const handler = toNodeHandler(
    createMcpHandler(() => {
      const mcp = new McpServer({ name: 'notes', version: '1.0.0' });
      mcp.registerTool('count', { title: 'Count notes', description: 'Counts the notes.', inputSchema: z.object({}), annotations: { readOnlyHint: true } }, async () => ({
        content: [{ type: 'text', text: '7 notes' }],
      }));
      return mcp;
    }),
  );
  const url = await fixture(async (req, res) => {
    seen.push(req.headers.authorization ?? '');
    if (req.headers.authorization !== 'Bearer good-token') return void res.writeHead(401, { 'content-type': 'application/json' }).end('{"error":"unauthorized"}');
    await handler(req, res);
  });
  return { url, seen };
}

const as = (user: string) => ({ 'x-user': user });

async function start(extra: Partial<WorkspaceServerOptions> = {}): Promise<WorkspaceServer> {
  return createWorkspaceServer({
    capabilities: [],
    database: ':memory:',
    authenticate: (request) => {
      const user = request.headers.get('x-user');
      return user ? { user } : null;
    },
    connectors: { allowHosts: ['127.0.0.1'] },
    ...extra,
  });
}

async function call(server: WorkspaceServer, method: string, path: string, user: string | null, body?: unknown, headers: Record<string, string> = {}) {
  const response = await server.fetch(
    new Request(`http://127.0.0.1${path}`, {
      method,
      headers: { ...(user ? as(user) : {}), ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    }),
  );
  const text = await response.text();
  const json = response.headers.get('content-type')?.startsWith('application/json') && text ? (JSON.parse(text) as Record<string, any>) : null;
  return { status: response.status, text, json };
}

async function say(server: WorkspaceServer, user: string, threadId: string, text: string): Promise<ThreadState> {
  const sent = await call(server, 'POST', `/v1/threads/${threadId}/turns`, user, { text });
  expect(sent.status, sent.text).toBe(200);
  return stateOf(server, user, threadId);
}

async function eventsOf(server: WorkspaceServer, user: string, threadId: string): Promise<ThreadEvent[]> {
  return [...(await server.host.events.read({ user, space: 'default', id: threadId }, 0))];
}
async function stateOf(server: WorkspaceServer, user: string, threadId: string): Promise<ThreadState> {
  return foldAll(initialThreadState, await eventsOf(server, user, threadId));
}
const invocations = (state: ThreadState) => state.rows.filter((r) => r.kind === 'invocation');

describe('the user\'s own MCP servers (BYO MCP)', () => {
  it('connects a real MCP server for one user, runs its read-only tool by words in their thread, and another user never sees it', async () => {
    const server = await start();
    try {
      const connected = await call(server, 'POST', '/v1/mcp-servers', 'alice', { label: 'everything', url: everything.url });
      expect(connected.status, connected.text).toBe(201);
      expect(connected.json!.server).toMatchObject({ label: 'everything', status: 'connected', hasToken: false });
      const tools = connected.json!.server.tools as { name: string; kind: string; needsApproval: boolean }[];
      expect(tools).toContainEqual(expect.objectContaining({ name: 'everything.echo', kind: 'read', needsApproval: false }));

      const alice = await say(server, 'alice', 't1', 'everything echo message=hello');
      const [card] = invocations(alice);
      expect(card).toMatchObject({ capability: 'everything.echo', state: 'done' });
      expect(JSON.stringify(card)).toContain('Echo: hello');

      // Bob: no servers, the same words run nothing, and his list is empty.
      const bob = await say(server, 'bob', 't1', 'everything echo message=hello');
      expect(invocations(bob)).toEqual([]);
      expect((await call(server, 'GET', '/v1/mcp-servers', 'bob')).json).toEqual({ servers: [] });
      // Nor do the REST and MCP doors serve them, to anyone.
      expect((await call(server, 'POST', '/v1/capabilities/everything.echo', 'bob', { message: 'x' })).status).toBe(404);
      expect((await call(server, 'POST', '/v1/capabilities/everything.echo', 'alice', { message: 'x' })).status).toBe(404);
      const mcpList = await call(server, 'POST', '/mcp', 'bob', { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }, { accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' });
      expect(mcpList.text).not.toContain('everything.');
    } finally {
      await server.close();
    }
  }, 30_000);

  it('puts a tool that is not read-only behind approval, and runs it only once approved', async () => {
    const server = await start();
    try {
      expect((await call(server, 'POST', '/v1/mcp-servers', 'alice', { label: 'everything', url: everything.url })).status).toBe(201);
      const state = await say(server, 'alice', 't2', 'everything toggle simulated logging');
      const approval = state.rows.find((r) => r.kind === 'approval');
      expect(approval, JSON.stringify(state.rows)).toMatchObject({ kind: 'approval', capability: 'everything.toggle-simulated-logging', status: 'pending' });
      expect(invocations(state)).toEqual([]);
      const decided = await call(server, 'POST', '/v1/threads/t2/decisions', 'alice', { id: approval!.id, decision: 'approve' });
      expect(decided.status, decided.text).toBe(200);
      const after = await stateOf(server, 'alice', 't2');
      expect(invocations(after)).toEqual([expect.objectContaining({ capability: 'everything.toggle-simulated-logging', state: 'done' })]);
    } finally {
      await server.close();
    }
  }, 30_000);

  it('disconnect removes the server and its tools from the user\'s chat', async () => {
    const server = await start();
    try {
      await call(server, 'POST', '/v1/mcp-servers', 'alice', { label: 'everything', url: everything.url });
      const removed = await call(server, 'DELETE', '/v1/mcp-servers/everything', 'alice', {});
      expect(removed.status, removed.text).toBe(200);
      expect((await call(server, 'GET', '/v1/mcp-servers', 'alice')).json).toEqual({ servers: [] });
      expect(invocations(await say(server, 'alice', 't3', 'everything echo message=hello'))).toEqual([]);
      expect((await call(server, 'DELETE', '/v1/mcp-servers/everything', 'alice', {})).status).toBe(404);
    } finally {
      await server.close();
    }
  }, 30_000);

  it('sends the token to the MCP server, never back to the browser nor into the thread, and keeps the server across a restart', async () => {
    const notes = await tokenServer();
    const database = join(dir, 'restart.db');
    let server = await start({ database });
    try {
      const refused = await call(server, 'POST', '/v1/mcp-servers', 'alice', { label: 'notes', url: notes.url, token: 'wrong-token' });
      expect(refused.status).toBe(400);
      expect(refused.json!.error).toMatchObject({ code: 'auth_refused' });
      expect(refused.json!.error.message).toContain('refused the token (401)');
      const none = await call(server, 'POST', '/v1/mcp-servers', 'alice', { label: 'notes', url: notes.url });
      expect(none.json!.error).toMatchObject({ code: 'auth_refused' });
      expect(none.json!.error.message).toContain('needs a token');

      const ok = await call(server, 'POST', '/v1/mcp-servers', 'alice', { label: 'notes', url: notes.url, token: 'good-token' });
      expect(ok.status, ok.text).toBe(201);
      expect(ok.json!.server).toMatchObject({ hasToken: true, tools: [expect.objectContaining({ name: 'notes.count' })] });
      expect(ok.text).not.toContain('good-token');
      expect((await call(server, 'GET', '/v1/mcp-servers', 'alice')).text).not.toContain('good-token');
      await say(server, 'alice', 't4', 'notes count notes');
      expect(JSON.stringify(await eventsOf(server, 'alice', 't4'))).toContain('7 notes');
      expect(JSON.stringify(await eventsOf(server, 'alice', 't4'))).not.toContain('good-token');
      expect(notes.seen).toContain('Bearer good-token');
    } finally {
      await server.close();
    }
    // A restarted server connects alice's stored server again on her next request.
    server = await start({ database });
    try {
      const listed = await call(server, 'GET', '/v1/mcp-servers', 'alice');
      expect(listed.json!.servers).toEqual([expect.objectContaining({ label: 'notes', status: 'connected', hasToken: true })]);
      const state = await say(server, 'alice', 't5', 'notes count notes');
      expect(invocations(state)).toEqual([expect.objectContaining({ capability: 'notes.count', state: 'done' })]);
    } finally {
      await server.close();
    }
  }, 30_000);

  it('says in plain words what is wrong: unreachable, not an MCP server, a name taken, a private address, too many servers', async () => {
    const html = await fixture((_, res) => void res.writeHead(200, { 'content-type': 'text/html' }).end('<html>hello</html>'));
    const closed = `http://127.0.0.1:${await freePort()}/mcp`;
    const server = await start({ capabilities: [], connectors: { allowHosts: ['127.0.0.1'], maxServersPerUser: 2 } });
    const strict = await start({ connectors: true });
    try {
      const post = (s: WorkspaceServer, body: unknown, user = 'alice') => call(s, 'POST', '/v1/mcp-servers', user, body);
      // A closed port and a page that is not MCP look alike: the same status, code and words (no port map).
      const down = await post(server, { label: 'down', url: closed });
      const page = await post(server, { label: 'page', url: html });
      expect(down.json!.error).toEqual({ code: 'unreachable', message: `Could not connect to an MCP server at ${closed}. Check the address (an MCP endpoint often ends in /mcp) and that the server is running.` });
      expect(page.json!.error).toEqual({ code: 'unreachable', message: `Could not connect to an MCP server at ${html}. Check the address (an MCP endpoint often ends in /mcp) and that the server is running.` });
      expect(down.status).toBe(page.status);
      expect((await post(server, { label: 'everything', url: everything.url })).status).toBe(201);
      const again = await post(server, { label: 'Everything', url: everything.url });
      expect(again.status).toBe(409);
      expect(again.json!.error.message).toContain('You already have a server named "everything"');
      expect((await post(server, { label: 'bad name!', url: everything.url })).json!.error).toMatchObject({ code: 'invalid_label' });
      expect((await post(server, { label: 'two', url: everything.url })).status).toBe(201);
      const third = await post(server, { label: 'three', url: everything.url });
      expect(third.status).toBe(429);
      expect(third.json!.error.message).toContain('at most 2 MCP servers');
      // Nothing of the failures was stored.
      expect(((await call(server, 'GET', '/v1/mcp-servers', 'alice')).json!.servers as { label: string }[]).map((s) => s.label)).toEqual(['everything', 'two']);

      // By default, loopback, private and link-local addresses are refused before anything connects.
      for (const url of [everything.url, 'http://localhost:1/mcp', 'http://10.1.2.3/mcp', 'http://169.254.169.254/latest', 'http://[::1]:80/mcp', 'http://[::ffff:127.0.0.1]/mcp']) {
        const blocked = await post(strict, { label: 'x', url });
        expect(blocked.json!.error, url).toMatchObject({ code: 'blocked_address' });
        expect(blocked.json!.error.message).toContain('private or local address');
      }
      expect((await post(strict, { label: 'x', url: 'file:///etc/passwd' })).json!.error.message).toContain('must start with https://');
      expect((await post(strict, { label: 'x', url: 'https://user:pw@example.com/mcp' })).json!.error.message).toContain('token field');
    } finally {
      await server.close();
      await strict.close();
    }
  }, 30_000);

  it('needs a signed-in user and refuses other sites', async () => {
    const server = await start();
    try {
      expect((await call(server, 'GET', '/v1/mcp-servers', null)).status).toBe(401);
      expect((await call(server, 'POST', '/v1/mcp-servers', null, { label: 'a', url: everything.url })).status).toBe(401);
      const cross = await call(server, 'POST', '/v1/mcp-servers', 'alice', { label: 'a', url: everything.url }, { origin: 'https://evil.example' });
      expect(cross.status).toBe(403);
      expect((await call(server, 'GET', '/v1/mcp-servers', 'alice')).json).toEqual({ servers: [] });
      const manifest = await call(server, 'GET', '/v1/manifest', 'alice');
      expect(manifest.json!.features).toContain('mcpServers');
    } finally {
      await server.close();
    }
  });
});
