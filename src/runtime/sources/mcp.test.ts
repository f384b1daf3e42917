import { InMemoryTransport } from '@modelcontextprotocol/client';
import { NodeStreamableHTTPServerTransport } from '@modelcontextprotocol/node';
import { McpServer } from '@modelcontextprotocol/server';
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { CapabilityDefinitionError, CapabilityFailure } from '../capability';
import { createEventLog } from '../eventLog';
import type { EventOf, ThreadEvent } from '../events';
import { foldAll, initialThreadState } from '../fold';
import { invoke } from '../invoke';
import { createRegistry } from '../registry';
import { defineMcpCapability } from './mcp';
import { createMcpConnection, type McpConnection } from './mcpConnection';

/** What the test server saw: every call's arguments, and every handler that was aborted. */
interface Seen {
  calls: { tool: string; args: Record<string, unknown> }[];
  aborted: string[];
}

/** A real MCP server built with the SDK: a corpus with a search, a slow reindex, a failing tool. */
function corpusServer(seen: Seen): McpServer {
  const server = new McpServer({ name: 'corpus', version: '1.0.0' });
  const record = (tool: string, args: Record<string, unknown>) => seen.calls.push({ tool, args });
  server.registerTool(
    'search',
    {
      title: 'Search corpus',
      description: 'Finds documents in a collection by text.',
      inputSchema: z.object({ collection: z.string(), query: z.string().min(1), limit: z.number().int().min(1).max(20).optional() }),
      outputSchema: z.object({ hits: z.array(z.object({ id: z.string(), title: z.string() })) }),
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async (args) => {
      record('search', args);
      const hits = [{ id: `${args.collection}-1`, title: `About ${args.query}` }];
      return { content: [{ type: 'text', text: `1 hit for ${args.query}` }], structuredContent: { hits } };
    },
  );
  server.registerTool(
    'reindex',
    { description: 'Rebuilds the index.', inputSchema: z.object({ steps: z.number().int(), hold: z.boolean().optional() }) },
    async (args, ctx) => {
      record('reindex', args);
      for (let i = 1; i <= args.steps; i++) {
        const progressToken = ctx.mcpReq._meta?.progressToken;
        if (progressToken !== undefined) {
          await ctx.mcpReq.notify({
            method: 'notifications/progress',
            params: { progressToken, progress: i, total: args.steps, message: `step ${i} of ${args.steps}` },
          });
        }
      }
      if (args.hold) {
        await new Promise<void>((resolve) => ctx.mcpReq.signal.addEventListener('abort', () => resolve(), { once: true }));
        seen.aborted.push('reindex');
        return { content: [{ type: 'text', text: 'stopped' }] };
      }
      return { content: [{ type: 'text', text: `reindexed in ${args.steps} steps` }] };
    },
  );
  server.registerTool('fail', { description: 'Always fails.', inputSchema: z.object({}) }, async () => {
    record('fail', {});
    return { content: [{ type: 'text', text: 'the index is locked' }], isError: true };
  });
  server.registerTool('nodesc', { inputSchema: z.object({}) }, async () => ({ content: [] }));
  return server;
}

function inMemory(seen: Seen): McpConnection {
  return createMcpConnection({
    name: 'corpus',
    transport: async () => {
      const [client, server] = InMemoryTransport.createLinkedPair();
      await corpusServer(seen).connect(server);
      return client;
    },
  });
}

async function run(registry: ReturnType<typeof createRegistry>, name: string, args: unknown, signal?: AbortSignal) {
  const log = createEventLog();
  const result = await invoke(name, args, { registry, emit: log.emit, threadKey: 't1', ...(signal ? { signal } : {}) });
  return { result, events: log.since() as ThreadEvent[] };
}

const only = <T extends ThreadEvent['type']>(events: readonly ThreadEvent[], type: T) => events.filter((e) => e.type === type) as EventOf<T>[];

describe('MCP source, in memory', () => {
  const seen: Seen = { calls: [], aborted: [] };
  const corpus = inMemory(seen);
  afterEach(() => {
    seen.calls.length = 0;
    seen.aborted.length = 0;
  });
  afterAll(() => corpus.close());

  it('takes title, description, schemas and annotations from the tool listing, and hides pinned arguments', async () => {
    const search = await defineMcpCapability(corpus, { tool: 'search', pinned: { collection: 'acme' } });
    expect(search).toMatchObject({
      name: 'corpus.search',
      title: 'Search corpus',
      description: 'Finds documents in a collection by text.',
      kind: 'read',
      annotations: { readOnlyHint: true, openWorldHint: false },
      pinned: { collection: 'acme' },
      source: { type: 'mcp', server: 'corpus', tool: 'search' },
    });
    const [info] = createRegistry([search]).describe();
    expect(Object.keys(info!.inputSchema.properties as object).sort()).toEqual(['limit', 'query']);
    expect(info!.inputSchema.required).toEqual(['query']);
    expect(info!.outputSchema).toMatchObject({ properties: { hits: { type: 'array' } } });
  });

  it('fills in MCP defaults for a tool without annotations: a destructive, open-world mutate', async () => {
    const reindex = await defineMcpCapability(corpus, { tool: 'reindex' });
    expect(reindex.kind).toBe('mutate');
    expect(reindex.annotations).toEqual({ readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true });
    expect(reindex.title).toBe('reindex');
  });

  it('calls the tool with the pinned arguments merged in and returns its result', async () => {
    const registry = createRegistry([await defineMcpCapability(corpus, { tool: 'search', pinned: { collection: 'acme' } })]);
    const { result, events } = await run(registry, 'corpus.search', { query: 'caching' });
    expect(seen.calls).toEqual([{ tool: 'search', args: { collection: 'acme', query: 'caching' } }]);
    expect(result).toMatchObject({ content: [{ type: 'text', text: '1 hit for caching' }], structuredContent: { hits: [{ id: 'acme-1' }] } });
    expect(events.map((e) => e.type)).toEqual(['capability.started', 'capability.done']);
    expect((events[0] as EventOf<'capability.started'>).args).toEqual({ query: 'caching' });
  });

  it('refuses a caller that tries to change a pinned argument, and the server never sees the call', async () => {
    const registry = createRegistry([await defineMcpCapability(corpus, { tool: 'search', pinned: { collection: 'acme' } })]);
    const { events } = await run(registry, 'corpus.search', { query: 'x', collection: 'other-tenant' });
    expect(events).toEqual([
      expect.objectContaining({
        type: 'capability.error',
        error: expect.objectContaining({ code: 'invalid_arguments', issues: [{ path: 'collection', message: 'is fixed by the host and cannot be changed; leave it out' }] }),
      }),
    ]);
    expect(seen.calls).toEqual([]);
    const same = await run(registry, 'corpus.search', { query: 'x', collection: 'acme' });
    expect(same.result.isError).toBeFalsy();
  });

  it("validates arguments against the tool's JSON Schema before calling", async () => {
    const registry = createRegistry([await defineMcpCapability(corpus, { tool: 'search', pinned: { collection: 'acme' } })]);
    const { events } = await run(registry, 'corpus.search', { query: '', limit: 99 });
    const error = events[0] as EventOf<'capability.error'>;
    expect(error.error.code).toBe('invalid_arguments');
    expect(error.error.issues?.map((i) => i.path).sort()).toEqual(['limit', 'query']);
    expect(seen.calls).toEqual([]);
  });

  it('turns MCP progress notifications into capability.progress events', async () => {
    const registry = createRegistry([await defineMcpCapability(corpus, { tool: 'reindex' })]);
    const { result, events } = await run(registry, 'corpus.reindex', { steps: 3 });
    expect(result.content[0]).toMatchObject({ text: 'reindexed in 3 steps' });
    expect(only(events, 'capability.progress').map(({ progress, total, message }) => ({ progress, total, message }))).toEqual([
      { progress: 1, total: 3, message: 'step 1 of 3' },
      { progress: 2, total: 3, message: 'step 2 of 3' },
      { progress: 3, total: 3, message: 'step 3 of 3' },
    ]);
    expect(events.at(-1)?.type).toBe('capability.done');
  });

  it('makes an isError result an error card that keeps the tool’s result', async () => {
    const registry = createRegistry([await defineMcpCapability(corpus, { tool: 'fail' })]);
    const { result, events } = await run(registry, 'corpus.fail', {});
    expect(result).toEqual({ content: [{ type: 'text', text: 'the index is locked' }], isError: true });
    expect(events.at(-1)).toMatchObject({ type: 'capability.error', recoverable: true, error: { code: 'tool_error', message: 'the index is locked' } });
    expect(foldAll(initialThreadState, events).rows[0]).toMatchObject({ state: 'failed' });
  });

  it('cancelling sends MCP cancellation: the server’s handler is aborted', async () => {
    const registry = createRegistry([await defineMcpCapability(corpus, { tool: 'reindex' })]);
    const controller = new AbortController();
    const running = run(registry, 'corpus.reindex', { steps: 1, hold: true }, controller.signal);
    await expect.poll(() => seen.calls.length).toBe(1);
    controller.abort(new Error('Cancelled by the user.'));
    const { events } = await running;
    expect(foldAll(initialThreadState, events).rows[0]).toMatchObject({ state: 'cancelled' });
    await expect.poll(() => seen.aborted).toEqual(['reindex']);
  });

  it('a server that does not answer in time gives a recoverable timeout, and the server is told to stop', async () => {
    const registry = createRegistry([await defineMcpCapability(corpus, { tool: 'reindex', timeoutMs: 100 })]);
    const { events } = await run(registry, 'corpus.reindex', { steps: 0, hold: true });
    expect(events.at(-1)).toMatchObject({
      type: 'capability.error',
      recoverable: true,
      error: { code: 'timeout', message: 'The MCP server "corpus" did not answer in time to run reindex.' },
    });
    await expect.poll(() => seen.aborted).toEqual(['reindex']);
  });

  it('refuses definitions it cannot serve, naming the fix', async () => {
    await expect(defineMcpCapability(corpus, { tool: 'missing' })).rejects.toThrow(
      'Capability "corpus.missing": the MCP server "corpus" has no tool "missing" (it offers: search, reindex, fail, nodesc).',
    );
    await expect(defineMcpCapability(corpus, { tool: 'nodesc' })).rejects.toThrow(/has no description; pass one/);
    await expect(defineMcpCapability(corpus, { tool: 'nodesc', description: 'Does nothing.' })).resolves.toMatchObject({ name: 'corpus.nodesc' });
    await expect(defineMcpCapability(corpus, { tool: 'search', pinned: { tenant: 'acme' } })).rejects.toThrow(
      'Capability "corpus.search" pins "tenant", which the tool does not take (it takes: collection, query, limit).',
    );
    await expect(defineMcpCapability(corpus, { tool: 'search', pinned: { collection: 42 } })).rejects.toThrow(CapabilityDefinitionError);
  });
});

describe('MCP source over Streamable HTTP on 127.0.0.1', () => {
  const seen: Seen = { calls: [], aborted: [] };
  let http: Server;
  let port = 0;
  let corpus: McpConnection;

  /** A stateful Streamable HTTP MCP server: one SDK server and transport per session. */
  async function start(): Promise<void> {
    const sessions = new Map<string, NodeStreamableHTTPServerTransport>();
    http = createServer(async (req, res) => {
      const id = req.headers['mcp-session-id'];
      let transport = typeof id === 'string' ? sessions.get(id) : undefined;
      if (typeof id === 'string' && !transport) {
        res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32001, message: 'Session not found' }, id: null }));
        return;
      }
      if (!transport) {
        const fresh = new NodeStreamableHTTPServerTransport({ sessionIdGenerator: randomUUID, onsessioninitialized: (sid) => void sessions.set(sid, fresh) });
        await corpusServer(seen).connect(fresh);
        transport = fresh;
      }
      await transport.handleRequest(req, res);
    });
    await new Promise<void>((resolve) => http.listen(port, '127.0.0.1', resolve));
    port = (http.address() as AddressInfo).port;
  }
  async function stop(): Promise<void> {
    http.closeAllConnections();
    await new Promise<void>((resolve) => http.close(() => resolve()));
  }

  beforeAll(async () => {
    await start();
    corpus = createMcpConnection({ name: 'corpus', url: `http://127.0.0.1:${port}/mcp` });
  });
  afterAll(async () => {
    await corpus.close();
    await stop();
  });

  it('lists, calls and reports progress over HTTP', async () => {
    const registry = createRegistry([
      await defineMcpCapability(corpus, { tool: 'search', pinned: { collection: 'acme' } }),
      await defineMcpCapability(corpus, { tool: 'reindex' }),
    ]);
    // A 2025-era (sessionful) server: the server/discover probe falls back to the initialize handshake.
    expect(corpus.era).toBe('legacy');
    const search = await run(registry, 'corpus.search', { query: 'sse' });
    expect(search.result.structuredContent).toEqual({ hits: [{ id: 'acme-1', title: 'About sse' }] });
    const reindex = await run(registry, 'corpus.reindex', { steps: 2 });
    expect(only(reindex.events, 'capability.progress').map((e) => e.progress)).toEqual([1, 2]);
    expect(reindex.events.at(-1)?.type).toBe('capability.done');
  });

  it('a server that is down gives a recoverable error; when it is back the next call reconnects', async () => {
    const registry = createRegistry([await defineMcpCapability(corpus, { tool: 'search', pinned: { collection: 'acme' } })]);
    await stop();
    const down = await run(registry, 'corpus.search', { query: 'x' });
    const error = down.events.at(-1) as EventOf<'capability.error'>;
    expect(error).toMatchObject({ type: 'capability.error', recoverable: true, error: { code: 'unavailable' } });
    expect(error.error.message).toMatch(/^The MCP server "corpus" is unavailable, so it could not run search: .*Try again when it is back\.$/s);
    expect(foldAll(initialThreadState, down.events).rows[0]).toMatchObject({ state: 'failed', recoverable: true });

    await start();
    const back = await run(registry, 'corpus.search', { query: 'y' });
    expect(back.result.content[0]).toMatchObject({ text: '1 hit for y' });
  });

  it('a server restarted behind an open session (404) is retried once on a fresh session', async () => {
    const registry = createRegistry([await defineMcpCapability(corpus, { tool: 'search', pinned: { collection: 'acme' } })]);
    expect((await run(registry, 'corpus.search', { query: 'a' })).result.isError).toBeFalsy();
    await stop();
    await start();
    const after = await run(registry, 'corpus.search', { query: 'b' });
    expect(after.result.content[0]).toMatchObject({ text: '1 hit for b' });
  });

  it('defining a capability against a server that is down rejects with a clear, recoverable failure', async () => {
    const nowhere = createMcpConnection({ name: 'gone', url: 'http://127.0.0.1:9/mcp', timeoutMs: 2000 });
    const failure = await defineMcpCapability(nowhere, { tool: 'search' }).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(CapabilityFailure);
    expect(failure).toMatchObject({ code: 'unavailable', recoverable: true });
    expect((failure as Error).message).toMatch(/^The MCP server "gone" is unavailable, so it could not list its tools/);
  });
});
