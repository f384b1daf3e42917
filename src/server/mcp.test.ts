import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { createTaskSessionFromClient, resultFromTaskOutcome } from '@modelcontextprotocol/ext-tasks/client';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineCapability } from '../runtime/capability';
import { createMemoryMeter } from '../runtime/doors/meter';
import { textResult } from '../runtime/results';
import { createWorkspaceServer, type WorkspaceServer, type WorkspaceServerOptions } from './createWorkspaceServer';

const KEY = 'mcp-test-key-0123456789';
let server: WorkspaceServer | null = null;
const clients: Client[] = [];
let calls: Record<string, number> = {};

afterEach(async () => {
  for (const client of clients.splice(0)) await client.close();
  await server?.close();
  server = null;
  calls = {};
});

const count = (name: string) => {
  calls[name] = (calls[name] ?? 0) + 1;
};

const search = defineCapability({
  name: 'corpus.search',
  title: 'Search the corpus',
  description: 'Finds passages that mention a word.',
  input: z.object({ q: z.string().min(2), limit: z.number().int().min(1).max(20).default(5) }),
  output: z.object({ hits: z.array(z.string()) }),
  annotations: { idempotentHint: true, openWorldHint: false },
  handler: async ({ q, limit }, ctx) => {
    count('corpus.search');
    ctx.progress(1, 2, 'Scanning');
    await new Promise((resolve) => setTimeout(resolve, 30));
    ctx.progress(2, 2, 'Ranking');
    return textResult(`Found ${limit} passages about ${q}.`, { hits: Array.from({ length: limit }, (_, i) => `${q} #${i + 1}`) });
  },
});

const addNote = defineCapability({
  name: 'notes.add',
  title: 'Add note',
  description: 'Saves a short note.',
  kind: 'mutate',
  input: z.object({ text: z.string().min(1) }),
  handler: ({ text }) => {
    count('notes.add');
    return textResult(`Saved “${text}”.`, { saved: true });
  },
});

const crawl = defineCapability({
  name: 'site.crawl',
  title: 'Crawl a site',
  description: 'Slow: crawls a site.',
  input: z.object({}),
  output: z.object({ pages: z.number().int() }),
  handler: async () => {
    await new Promise((resolve) => setTimeout(resolve, 300));
    return textResult('Crawled 3 pages.', { pages: 3 });
  },
});

const dump = defineCapability({
  name: 'logs.dump',
  title: 'Dump logs',
  description: 'Returns a very long log.',
  input: z.object({ chars: z.number().int() }),
  handler: ({ chars }) => textResult('x'.repeat(chars)),
});

async function start(options: Partial<WorkspaceServerOptions> = {}) {
  server = await createWorkspaceServer({ capabilities: [search, addNote, dump, crawl], database: ':memory:', apiKeys: [{ id: 'agent', key: KEY }], ...options });
  const { url } = await server.listen();
  return url;
}

/** An SDK v2 client: `modern` speaks 2026-07-28 (server/discover, `_meta` per request), `legacy` the 2025-11-25 handshake. */
async function connect(url: string, key: string | null = KEY, era: 'modern' | 'legacy' = 'modern') {
  const client = new Client({ name: 'test-agent', version: '1.0.0' }, era === 'modern' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {});
  const transport = new StreamableHTTPClientTransport(new URL(`${url}/mcp`), {
    requestInit: key ? { headers: { authorization: `Bearer ${key}` } } : {},
  });
  await client.connect(transport);
  clients.push(client);
  expect(client.getProtocolEra()).toBe(era);
  return client;
}

describe('MCP door', () => {
  it('lists the reads with their schemas and annotations, and no mutate unless opted in', async () => {
    const url = await start();
    const client = await connect(url);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(['corpus.search', 'logs.dump', 'site.crawl']);
    const tool = tools[0]!;
    expect(tool.title).toBe('Search the corpus');
    expect(tool.annotations).toEqual({ readOnlyHint: true, idempotentHint: true, openWorldHint: false });
    const registrySchema = server!.host.registry.describe().find((c) => c.name === 'corpus.search')!.inputSchema;
    expect(registrySchema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    // The registry's schema, its dialect marker kept (MCP 2025-11-25).
    expect(tool.inputSchema).toEqual(registrySchema);
    expect(tool.outputSchema).toMatchObject({ type: 'object', properties: { hits: { type: 'array' } } });
  });

  it('serves a mutate the host opted in', async () => {
    const url = await start({ mcp: { mutates: ['notes.add'] } });
    const client = await connect(url);
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['corpus.search', 'logs.dump', 'notes.add', 'site.crawl']);
    const result = await client.callTool({ name: 'notes.add', arguments: { text: 'call Ada' } });
    expect(result).toMatchObject({ content: [{ type: 'text', text: 'Saved “call Ada”.' }], structuredContent: { saved: true } });
  });

  it('refuses a mutate that was not opted in as an unknown tool, without running it', async () => {
    const url = await start();
    const client = await connect(url);
    await expect(client.callTool({ name: 'notes.add', arguments: { text: 'x' } })).rejects.toThrow(/No capability named "notes.add"/);
    expect(calls['notes.add']).toBeUndefined();
  });

  it('calls a tool and forwards its progress as notifications', async () => {
    const url = await start();
    const client = await connect(url);
    const progress: { progress: number; total?: number; message?: string }[] = [];
    const result = await client.callTool({ name: 'corpus.search', arguments: { q: 'ada', limit: 2 } }, { onprogress: (p) => progress.push(p) });
    expect(result).toMatchObject({ content: [{ type: 'text', text: 'Found 2 passages about ada.' }], structuredContent: { hits: ['ada #1', 'ada #2'] } });
    expect(result.isError).toBeFalsy();
    expect(progress).toEqual([
      { progress: 1, total: 2, message: 'Scanning' },
      { progress: 2, total: 2, message: 'Ranking' },
    ]);
  });

  it('reports invalid arguments as a tool error naming the field (SEP-1303), without running the tool', async () => {
    const url = await start();
    const client = await connect(url);
    const result = await client.callTool({ name: 'corpus.search', arguments: { q: 'a' } });
    expect(result.isError).toBe(true);
    expect((result.content as { text: string }[])[0]!.text).toMatch(/^Search the corpus was not run: q: /);
    expect(calls['corpus.search']).toBeUndefined();
  });

  it('answers 401 without a valid key before any JSON-RPC is read', async () => {
    const url = await start();
    await expect(connect(url, null)).rejects.toThrow();
    await expect(connect(url, 'wrong-key-0123456789')).rejects.toThrow();
    const raw = await fetch(`${url}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: '{}' });
    expect(raw.status).toBe(401);
    expect(await raw.json()).toEqual({ error: { code: 'unauthorized', message: 'Send an API key as "Authorization: Bearer <key>".' } });
  });

  it('meters MCP calls like REST ones: over budget is refused before the handler runs', async () => {
    const meter = createMemoryMeter({ budget: 1 });
    const url = await start({ meter });
    const client = await connect(url);
    expect((await client.callTool({ name: 'corpus.search', arguments: { q: 'one' } })).isError).toBeFalsy();
    const refused = await client.callTool({ name: 'corpus.search', arguments: { q: 'two' } });
    expect(refused.isError).toBe(true);
    expect((refused.content as { text: string }[])[0]!.text).toContain('budget');
    expect(calls['corpus.search']).toBe(1);
    expect(meter.charged('agent')).toBe(1);
  });

  it('answers a slow call from a client without task support with a tool error naming the job, which strict clients accept in both eras; the same key follows it over REST', async () => {
    const url = await start({ mcp: { waitMs: 50 } });
    for (const era of ['legacy', 'modern'] as const) {
      const client = await connect(url, KEY, era);
      // site.crawl declares an output schema: a success without structuredContent would be refused by the SDK client.
      expect((await client.listTools()).tools.find((t) => t.name === 'site.crawl')!.outputSchema).toMatchObject({ properties: { pages: {} } });
      const result = await client.callTool({ name: 'site.crawl', arguments: {} });
      expect(result.isError).toBe(true);
      const text = (result.content as { text: string }[])[0]!.text;
      const jobId = /job (inv_\w+)/.exec(text)![1]!;
      expect(text).toBe(
        `Still running: job ${jobId}. It has not failed; it did not finish within this call's wait and runs on, so do not call the tool again. ` +
          `Follow it with GET /v1/jobs/${jobId} (same key) or read the resource chatsurface://jobs/${jobId}; the result appears there when the job is done.`,
      );
      expect(result._meta?.['chatsurface/job']).toEqual({ id: jobId, status: expect.stringMatching(/^(queued|running)$/), follow: `/v1/jobs/${jobId}`, resource: `chatsurface://jobs/${jobId}` });
      const job = async () => (await fetch(`${url}/v1/jobs/${jobId}`, { headers: { authorization: `Bearer ${KEY}` } })).json();
      await expect.poll(async () => (await job()).status, { timeout: 3_000, interval: 50 }).toBe('done');
      expect((await job()).result).toEqual({ content: [{ type: 'text', text: 'Crawled 3 pages.' }], structuredContent: { pages: 3 } });
    }
  });

  it('bounds outputs: a long text is cut with a note saying where the whole result is', async () => {
    const url = await start({ mcp: { outputLimit: 2_000 } });
    const client = await connect(url);
    const result = await client.callTool({ name: 'logs.dump', arguments: { chars: 50_000 } });
    const text = (result.content as { text: string }[])[0]!.text;
    expect(JSON.stringify(result.content).length).toBeLessThanOrEqual(2_000);
    expect(text).toMatch(/characters cut to stay within 2000\. The whole result is at GET \/v1\/jobs\/inv_/);
    const small = await client.callTool({ name: 'logs.dump', arguments: { chars: 10 } });
    expect((small.content as { text: string }[])[0]!.text).toBe('x'.repeat(10));
  });
});

/** One JSON-RPC exchange over plain HTTP, as any client on the wire would send it. */
async function rpc(url: string, body: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(`${url}/mcp`, {
    method: 'POST',
    headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await response.text();
  const data = response.headers.get('content-type')?.includes('text/event-stream')
    ? text.split('\n').filter((line) => line.startsWith('data: ')).map((line) => JSON.parse(line.slice(6)) as Record<string, unknown>).at(-1)
    : (JSON.parse(text) as Record<string, unknown>);
  return { status: response.status, data: data as { id?: unknown; result?: Record<string, unknown>; error?: { code: number; message: string } } };
}

const MODERN_META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'wire-test', version: '1.0.0' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

describe('MCP door: both protocol eras on one URL', () => {
  it('answers server/discover with 2026-07-28 and serves a 2025-11-25 client through the initialize handshake', async () => {
    const url = await start();
    const modern = await connect(url, KEY, 'modern');
    const legacy = await connect(url, KEY, 'legacy');
    for (const client of [modern, legacy]) {
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['corpus.search', 'logs.dump', 'site.crawl']);
      const result = await client.callTool({ name: 'corpus.search', arguments: { q: 'ada', limit: 1 } });
      expect(result).toMatchObject({ content: [{ type: 'text', text: 'Found 1 passages about ada.' }], structuredContent: { hits: ['ada #1'] } });
      await expect(client.callTool({ name: 'nope.nothing', arguments: {} })).rejects.toThrow(/No capability named "nope.nothing"/);
    }
    const discover = await rpc(url, { jsonrpc: '2.0', id: 1, method: 'server/discover', params: { _meta: MODERN_META } }, { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'server/discover' });
    expect(discover.data.result).toMatchObject({ supportedVersions: ['2026-07-28'], capabilities: { tools: {}, extensions: { 'io.modelcontextprotocol/tasks': {} } } });
    // Stateless: no session id is handed out, in either era.
    const init = await fetch(`${url}/mcp`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'x', version: '1' } } }),
    });
    expect(init.status).toBe(200);
    expect(init.headers.get('mcp-session-id')).toBeNull();
    const get = await fetch(`${url}/mcp`, { headers: { authorization: `Bearer ${KEY}`, accept: 'text/event-stream' } });
    expect(get.status).toBe(405);
  });

  it('answers an invalid request object with -32600, a body that is not JSON with -32700, and refuses a batch', async () => {
    const url = await start();
    const noMethod = await rpc(url, { jsonrpc: '2.0', id: 7 });
    expect(noMethod.status).toBe(400);
    expect(noMethod.data.error).toMatchObject({ code: -32600, message: expect.stringContaining('"method" must be a non-empty string') });
    const wrongVersion = await rpc(url, { jsonrpc: '1.0', id: 7, method: 'tools/list' });
    expect(wrongVersion.data.error?.code).toBe(-32600);
    const notJson = await rpc(url, '{"jsonrpc": "2.0",');
    expect(notJson.data.error?.code).toBe(-32700);
    const list = { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} };
    for (const batch of [[list, { ...list, id: 2 }], [{ ...list, params: { _meta: MODERN_META } }]]) {
      const refused = await rpc(url, batch);
      expect(refused.status).toBe(400);
      expect(refused.data.error).toMatchObject({ code: -32600, message: expect.stringContaining('batches are not supported') });
    }
    expect(calls).toEqual({});
  });

  it('pages tools/list with nextCursor in both eras; the SDK client follows the cursor; a forged cursor is -32602', async () => {
    const url = await start({ mcp: { pageSize: 2, mutates: ['notes.add'] } });
    const all = ['corpus.search', 'logs.dump', 'notes.add', 'site.crawl'];
    for (const era of ['modern', 'legacy'] as const) {
      const client = await connect(url, KEY, era);
      const first = await client.listTools({}, { cache: 'bypass' } as never);
      const names = first.tools.map((t) => t.name);
      let cursor = first.nextCursor;
      while (cursor) {
        const page = await client.listTools({ cursor });
        names.push(...page.tools.map((t) => t.name));
        cursor = page.nextCursor;
      }
      expect(names).toEqual(all);
    }
    const page1 = await rpc(url, { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} });
    expect((page1.data.result!.tools as { name: string }[]).map((t) => t.name)).toEqual(all.slice(0, 2));
    const page2 = await rpc(url, { jsonrpc: '2.0', id: 2, method: 'tools/list', params: { cursor: page1.data.result!.nextCursor } });
    expect((page2.data.result!.tools as { name: string }[]).map((t) => t.name)).toEqual(all.slice(2));
    expect(page2.data.result!.nextCursor).toBeUndefined();
    const forged = await rpc(url, { jsonrpc: '2.0', id: 3, method: 'tools/list', params: { cursor: 'not-ours' } });
    expect(forged.data.error).toMatchObject({ code: -32602, message: expect.stringContaining('is not one this server gave out') });
  });
});

describe('MCP door: slow calls as tasks (io.modelcontextprotocol/tasks)', () => {
  /** A 2026-07-28 client that declares the Tasks extension, through the official ext-tasks requester session. */
  async function taskSession(url: string) {
    const clientCapabilities = { extensions: { 'io.modelcontextprotocol/tasks': {} } };
    let sent = 0;
    const client = new Client({ name: 'task-agent', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } }, capabilities: clientCapabilities as never });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${KEY}` } } }));
    clients.push(client);
    const session = createTaskSessionFromClient(client, {
      endpointId: 'chatsurface-test',
      rawDispatch: async (request) => {
        // The HTTP binding mirrors the method and the tool name or task id in headers (SEP-2243).
        const { method, params } = request as { method: string; params: { name?: string; taskId?: string } };
        const name = params.name ?? params.taskId;
        const { data } = await rpc(url, { jsonrpc: '2.0', id: ++sent, ...(request as object) }, { 'mcp-protocol-version': '2026-07-28', 'mcp-method': method, ...(name ? { 'mcp-name': name } : {}) });
        return data as never;
      },
      v2RequestFraming: { protocolVersion: '2026-07-28', clientInfo: { name: 'task-agent', version: '1.0.0' }, clientCapabilities },
    });
    return session;
  }

  it('a slow call becomes a task: tasks/get follows the same job as GET /v1/jobs/{id} and returns its result', async () => {
    const url = await start({ mcp: { taskAfterMs: 50 } });
    const session = await taskSession(url);
    const execution = await session.callTool('site.crawl', {});
    expect(execution.kind).toBe('task');
    const taskId = execution.handle!.taskId;
    const job = await (await fetch(`${url}/v1/jobs/${taskId}`, { headers: { authorization: `Bearer ${KEY}` } })).json();
    expect(job).toMatchObject({ id: taskId, capability: 'site.crawl' });
    expect(['queued', 'running']).toContain(job.status);
    const { outcome } = await execution.settle();
    expect(outcome.status).toBe('completed');
    expect(resultFromTaskOutcome(outcome)).toMatchObject({ content: [{ type: 'text', text: 'Crawled 3 pages.' }], structuredContent: { pages: 3 } });
    expect((await (await fetch(`${url}/v1/jobs/${taskId}`, { headers: { authorization: `Bearer ${KEY}` } })).json()).status).toBe('done');
    await session.close();
  });

  it('tasks/cancel stops the job; an unknown task id is a JSON-RPC error', async () => {
    const url = await start({ mcp: { taskAfterMs: 50 } });
    const session = await taskSession(url);
    const execution = await session.callTool('site.crawl', {});
    const taskId = execution.handle!.taskId;
    await execution.cancel();
    await expect.poll(async () => (await (await fetch(`${url}/v1/jobs/${taskId}`, { headers: { authorization: `Bearer ${KEY}` } })).json()).status, { timeout: 3_000, interval: 50 }).toBe('cancelled');
    const snapshot = await session.task(taskId).snapshot();
    expect(snapshot.status).toBe('cancelled');
    const unknown = await rpc(url, { jsonrpc: '2.0', id: 9, method: 'tasks/get', params: { taskId: 'inv_nope', _meta: MODERN_META } }, { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tasks/get', 'mcp-name': 'inv_nope' });
    expect(unknown.data.error).toMatchObject({ code: -32602, message: 'No task "inv_nope" for this key.' });
    await session.close();
  });

  it('a fast call from a task client answers inline, and a client without the extension never gets a task', async () => {
    const url = await start({ mcp: { taskAfterMs: 50, waitMs: 2_000 } });
    const session = await taskSession(url);
    const quick = await session.callTool('corpus.search', { q: 'ada', limit: 1 });
    expect(quick.kind).toBe('immediate');
    expect(resultFromTaskOutcome((await quick.settle()).outcome)).toMatchObject({ structuredContent: { hits: ['ada #1'] } });
    const plain = await connect(url);
    const slow = await plain.callTool({ name: 'site.crawl', arguments: {} });
    expect(slow).toMatchObject({ content: [{ type: 'text', text: 'Crawled 3 pages.' }], structuredContent: { pages: 3 } });
    await session.close();
  });
});
