import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineCapability } from '../runtime/capability';
import { createMemoryMeter } from '../runtime/doors/meter';
import { textResult } from '../runtime/envelope';
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

async function connect(url: string, key: string | null = KEY) {
  const client = new Client({ name: 'test-agent', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`${url}/mcp`), {
    requestInit: key ? { headers: { authorization: `Bearer ${key}` } } : {},
  });
  await client.connect(transport);
  clients.push(client);
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
    const { $schema, ...registrySchema } = server!.host.registry.describe().find((c) => c.name === 'corpus.search')!.inputSchema;
    expect($schema).toBe('https://json-schema.org/draft/2020-12/schema');
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
    const result = await client.callTool({ name: 'corpus.search', arguments: { q: 'ada', limit: 2 } }, undefined, { onprogress: (p) => progress.push(p) });
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

  it('hands back the job id when a call outlasts the wait, and the same key can follow it over REST', async () => {
    const url = await start({ mcp: { waitMs: 50 } });
    const client = await connect(url);
    const result = await client.callTool({ name: 'site.crawl', arguments: {} });
    expect(result.isError).toBe(true);
    const text = (result.content as { text: string }[])[0]!.text;
    const jobId = /job (inv_\w+)/.exec(text)![1]!;
    expect(text).toBe(`Still running after the wait: job ${jobId}. Poll GET /v1/jobs/${jobId} with the same key for its result.`);
    const job = async () => (await fetch(`${url}/v1/jobs/${jobId}`, { headers: { authorization: `Bearer ${KEY}` } })).json();
    await expect.poll(async () => (await job()).status, { timeout: 3_000, interval: 50 }).toBe('ready');
    expect((await job()).result).toEqual({ content: [{ type: 'text', text: 'Crawled 3 pages.' }], structuredContent: { pages: 3 } });
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
