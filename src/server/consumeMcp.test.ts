import { toNodeHandler } from '@modelcontextprotocol/node';
import { createMcpHandler, McpServer } from '@modelcontextprotocol/server';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { resultText } from '../runtime/results';
import { foldAll, initialThreadState, type InvocationRow, type ThreadState } from '../runtime/fold';
import type { ModelDriver } from '../runtime/model';
import type { McpClientRequestContext, McpElicitation } from '../runtime/sources/mcpClientRequests';
import { startEverythingServer, type EverythingServer } from '../test/everythingServer';
import { createRemoteWorkspace } from '../workspace/remoteWorkspace';
import type { McpServerConfig } from './consumeMcp';
import { createWorkspaceServer, type WorkspaceServer } from './createWorkspaceServer';

const TOKEN = 'corpus-token-123456';
const KEY = 'consume-key-0123456789';
let corpus: Server | null = null;
let server: WorkspaceServer | null = null;
const searches: { q: string; collection: string }[] = [];
const closers: (() => void)[] = [];

afterEach(async () => {
  for (const close of closers.splice(0)) close();
  await server?.close();
  server = null;
  corpus?.closeAllConnections();
  await new Promise<void>((resolve) => (corpus ? corpus.close(() => resolve()) : resolve()));
  corpus = null;
  searches.length = 0;
});

/** The host's own MCP server: a real SDK v2 server (2026-07-28 and 2025-11-25, stateless) that wants a bearer token. */
async function startCorpus(): Promise<string> {
  const handler = toNodeHandler(
    createMcpHandler(() => {
      const mcp = new McpServer({ name: 'corpus', version: '1.0.0' });
      mcp.registerTool(
        'search',
        {
          title: 'Search the corpus',
          description: 'Full-text search over the bundled corpus.',
          inputSchema: z.object({ q: z.string().min(1), collection: z.string() }),
          outputSchema: z.object({ hits: z.array(z.string()) }),
          annotations: { readOnlyHint: true, openWorldHint: false },
        },
        async ({ q, collection }, ctx) => {
          searches.push({ q, collection });
          const token = ctx.mcpReq._meta?.progressToken;
          if (token !== undefined) await ctx.mcpReq.notify({ method: 'notifications/progress', params: { progressToken: token, progress: 1, total: 1, message: 'Searched' } });
          const hits = [`${collection}: ${q} in chapter 1`];
          return { content: [{ type: 'text', text: hits.join('\n') }], structuredContent: { hits } };
        },
      );
      mcp.registerTool(
        'purge',
        { description: 'Deletes a collection.', inputSchema: z.object({ collection: z.string() }), annotations: { destructiveHint: true } },
        async ({ collection }) => ({ content: [{ type: 'text', text: `Purged ${collection}.` }] }),
      );
      return mcp;
    }),
  );
  corpus = createServer(async (req, res) => {
    if (req.headers.authorization !== `Bearer ${TOKEN}`) {
      res.writeHead(401, { 'content-type': 'application/json' }).end('{"error":"unauthorized"}');
      return;
    }
    await handler(req, res);
  });
  await new Promise<void>((resolve) => corpus!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(corpus.address() as AddressInfo).port}/mcp`;
}

/** Asks for `corpus.search` once, then repeats its result. */
const driver: ModelDriver = {
  info: { id: 'scripted', label: 'Scripted model' },
  async *respond({ messages }) {
    const last = messages.at(-1)!;
    if (last.role === 'tool') {
      yield { type: 'text', text: `Found: ${resultText(last.result)}` };
      return;
    }
    yield { type: 'invoke', capability: 'corpus.search', args: { q: 'whales' } };
  },
};

describe('consuming the host’s MCP servers', () => {
  it('turns each tool into a namespaced mcp capability, reachable from the chat and the other doors', async () => {
    const url = await startCorpus();
    server = await createWorkspaceServer({
      capabilities: [],
      driver,
      database: ':memory:',
      apiKeys: [KEY],
      mcpServers: [{ name: 'corpus', url, token: TOKEN, pinned: { search: { collection: 'acme' } } }],
    });
    expect(server.mcpServers).toEqual([{ name: 'corpus', url, capabilities: ['corpus.search', 'corpus.purge'], problems: [], era: 'modern' }]);
    const search = server.host.registry.get('corpus.search')!;
    expect(search).toMatchObject({ kind: 'read', title: 'Search the corpus', source: { type: 'mcp', server: 'corpus', tool: 'search' } });
    expect(server.host.registry.get('corpus.purge')).toMatchObject({ kind: 'mutate', annotations: { destructiveHint: true } });
    // The pinned collection is not part of what callers see.
    expect(Object.keys((search.input as z.ZodObject).shape)).toEqual(['q']);

    const { url: base } = await server.listen();
    const remote = await createRemoteWorkspace({ url: base });
    closers.push(() => remote.close());
    let state: ThreadState = initialThreadState;
    remote.subscribe('t', (event) => (state = foldAll(state, [event])));
    await remote.send({ threadId: 't', text: 'search the corpus for whales' });
    const card = state.rows.find((r): r is InvocationRow => r.kind === 'invocation')!;
    expect(card).toMatchObject({ capability: 'corpus.search', state: 'done', progress: { progress: 1, total: 1, message: 'Searched' } });
    expect(state.rows.at(-1)).toMatchObject({ kind: 'assistant', text: 'Found: acme: whales in chapter 1' });
    expect(searches).toEqual([{ q: 'whales', collection: 'acme' }]);

    // REST reaches it too; a caller cannot search another tenant's collection.
    const rest = await fetch(`${base}/v1/capabilities/corpus.search`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ q: 'krill' }),
    });
    expect(await rest.json()).toEqual({ content: [{ type: 'text', text: 'acme: krill in chapter 1' }], structuredContent: { hits: ['acme: krill in chapter 1'] } });
    const other = await fetch(`${base}/v1/capabilities/corpus.search`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ q: 'krill', collection: 'rival' }),
    });
    expect(other.status).toBe(400);
    expect(searches.map((s) => s.collection)).toEqual(['acme', 'acme']);
  });

  it('starts without a server it cannot use, and says why', async () => {
    const url = await startCorpus();
    server = await createWorkspaceServer({
      capabilities: [],
      database: ':memory:',
      mcpServers: [
        { name: 'corpus', url, token: 'wrong-token' },
        { name: 'offline', url: 'http://127.0.0.1:9/mcp' },
      ],
    });
    expect(server.host.registry.list()).toEqual([]);
    expect(server.mcpServers.map((s) => [s.name, s.capabilities, s.problems.length])).toEqual([
      ['corpus', [], 1],
      ['offline', [], 1],
    ]);
    expect(server.mcpServers[1]!.problems[0]).toMatch(/The MCP server "offline" is unavailable/);
  });

  it('refuses a namespace that could not prefix capability names', async () => {
    await expect(createWorkspaceServer({ capabilities: [], database: ':memory:', mcpServers: [{ name: 'my corpus', url: 'http://127.0.0.1:9/mcp' }] })).rejects.toThrow(
      'MCP server name "my corpus" must be 1–64 letters, digits, "_" or "-"',
    );
  });
});

describe('consuming server-everything: a task-only tool and an elicitation, from the chat', () => {
  let everything: EverythingServer;
  beforeAll(async () => {
    everything = await startEverythingServer();
  });
  afterAll(() => everything.stop());

  /** Asks for the research once, then repeats the report's first line. */
  const researcher: ModelDriver = {
    info: { id: 'scripted', label: 'Scripted model' },
    async *respond({ messages }) {
      const last = messages.at(-1)!;
      if (last.role === 'tool') {
        yield { type: 'text', text: resultText(last.result).split('\n')[0]! };
        return;
      }
      yield { type: 'invoke', capability: 'everything.simulate-research-query', args: { topic: 'python', ambiguous: true } };
    },
  };

  async function chat(config: Partial<McpServerConfig> = {}) {
    server = await createWorkspaceServer({
      capabilities: [],
      driver: researcher,
      database: ':memory:',
      mcpServers: [{ name: 'everything', url: everything.url, tools: ['simulate-research-query', 'echo'], annotations: { 'simulate-research-query': { readOnlyHint: true } }, ...config }],
    });
    const { url: base } = await server.listen();
    const remote = await createRemoteWorkspace({ url: base });
    closers.push(() => remote.close());
    let state: ThreadState = initialThreadState;
    remote.subscribe('t', (event) => (state = foldAll(state, [event])));
    await remote.send({ threadId: 't', text: 'simulate research query on python' });
    return () => state;
  }

  it('runs the task-only tool as a task; with elicitation turned off the server hears no question and takes its default', async () => {
    const state = await chat({ elicit: false });
    expect(server!.mcpServers[0]).toMatchObject({ capabilities: ['everything.simulate-research-query', 'everything.echo'], problems: [] });
    const card = state().rows.find((r): r is InvocationRow => r.kind === 'invocation')!;
    expect(card).toMatchObject({ capability: 'everything.simulate-research-query', state: 'done', progress: { message: 'Generating report...' } });
    // The client declared no elicitation, so the server did not ask (its `ambiguous` needs a client that can be asked).
    expect(state().rows.at(-1)).toMatchObject({ kind: 'assistant', text: '# Research Report: python' });
  }, 20_000);

  it("with the host's elicit handler the task's question reaches it, tied to the chat's invocation, and the answer shapes the report", async () => {
    const asked: { request: McpElicitation; context: McpClientRequestContext }[] = [];
    const state = await chat({
      elicit: async (request, context) => {
        asked.push({ request, context });
        return { action: 'accept', content: { interpretation: 'comedy' } };
      },
    });
    const card = state().rows.find((r): r is InvocationRow => r.kind === 'invocation')!;
    expect(card).toMatchObject({ capability: 'everything.simulate-research-query', state: 'done' });
    expect(asked).toHaveLength(1);
    expect(asked[0]!.request).toMatchObject({ mode: 'form', requestedSchema: { required: ['interpretation'] } });
    expect(asked[0]!.context.call).toMatchObject({ tool: 'simulate-research-query', invocationId: card.id, threadKey: expect.stringContaining('t') });
    expect(state().rows.at(-1)).toMatchObject({ kind: 'assistant', text: '# Research Report: python (comedy)' });
  }, 20_000);
});
