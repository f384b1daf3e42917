import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineCapability } from '../runtime/capability';
import { textResult } from '../runtime/results';
import { createWorkspaceServer, type WorkspaceServer } from './createWorkspaceServer';

const KEY = 'serving-test-key-0123456789';
const OTHER = 'serving-other-key-0123456789';
let server: WorkspaceServer | null = null;
const clients: Client[] = [];

afterEach(async () => {
  for (const client of clients.splice(0)) await client.close();
  await server?.close();
  server = null;
});

const search = defineCapability({
  name: 'corpus.search',
  title: 'Search the corpus',
  description: 'Finds passages that mention a word.',
  input: z.object({ q: z.string().min(2) }),
  output: z.object({ hits: z.array(z.string()) }),
  handler: async ({ q }, ctx) => {
    ctx.progress(1, 2, 'Scanning');
    ctx.progress(2, 2, 'Ranking');
    return textResult(`Found passages about ${q}.`, { hits: [`${q} #1`] });
  },
});

async function start() {
  server = await createWorkspaceServer({
    capabilities: [search],
    database: ':memory:',
    apiKeys: [
      { id: 'agent', key: KEY },
      { id: 'other', key: OTHER },
    ],
  });
  const { url } = await server.listen();
  return url;
}

async function connect(url: string, era: 'modern' | 'legacy', key = KEY) {
  const client = new Client({ name: 'serving-test', version: '1.0.0' }, era === 'modern' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {});
  await client.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${key}` } } }));
  clients.push(client);
  expect(client.getProtocolEra()).toBe(era);
  return client;
}

const ERAS = ['modern', 'legacy'] as const;

describe('MCP door: the principal’s slash skills as prompts', () => {
  it('lists the instruction skills (not the action skills), its own saved ones and not another key’s', async () => {
    const url = await start();
    await server!.host.skills({ user: 'agent' }).persist({ id: 'weekly', description: 'My weekly report', instructions: 'Group the week by project.' });
    for (const era of ERAS) {
      const client = await connect(url, era);
      expect(client.getServerCapabilities()).toMatchObject({ prompts: {}, resources: {}, completions: {}, logging: {} });
      const { prompts } = await client.listPrompts();
      const names = prompts.map((p) => p.name);
      expect(names).toEqual(expect.arrayContaining(['help', 'summarize', 'weekly']));
      expect(names).not.toContain('model');
      expect(names).not.toContain('clear');
      expect(prompts.find((p) => p.name === 'weekly')).toEqual({
        name: 'weekly',
        title: '/weekly',
        description: 'My weekly report',
        arguments: [{ name: 'task', description: 'What to do with /weekly, as you would type it after "/weekly " in the chat (optional).', required: false }],
      });
      const other = await connect(url, era, OTHER);
      expect((await other.listPrompts()).prompts.map((p) => p.name)).not.toContain('weekly');
      await expect(other.getPrompt({ name: 'weekly' })).rejects.toThrow(/No prompt "weekly" for this key/);
    }
  });

  it('gets a skill’s instructions as a user message, then the task; completes the task argument', async () => {
    const url = await start();
    for (const era of ERAS) {
      const client = await connect(url, era);
      const prompt = await client.getPrompt({ name: 'summarize', arguments: { task: 'the last import' } });
      expect(prompt.messages).toHaveLength(2);
      expect(prompt.messages[0]).toMatchObject({ role: 'user', content: { type: 'text', text: expect.stringContaining('answer with a summary and nothing else') } });
      expect(prompt.messages[1]).toEqual({ role: 'user', content: { type: 'text', text: 'the last import' } });
      expect((await client.getPrompt({ name: 'summarize' })).messages).toHaveLength(1);
      await expect(client.getPrompt({ name: 'nope' })).rejects.toThrow(/No prompt "nope"/);
      const completion = await client.complete({ ref: { type: 'ref/prompt', name: 'summarize' }, argument: { name: 'task', value: 'TL' } });
      expect(completion.completion.values).toEqual(['tldr']);
      // Then the description's words: "Summarise records, results or this thread in three plain bullet points".
      expect((await client.complete({ ref: { type: 'ref/prompt', name: 'summarize' }, argument: { name: 'task', value: 'th' } })).completion.values).toEqual(['this', 'thread', 'three']);
      const none = await client.complete({ ref: { type: 'ref/prompt', name: 'summarize' }, argument: { name: 'other', value: '' } });
      expect(none.completion.values).toEqual([]);
    }
  });
});

describe('MCP door: the principal’s jobs as resources', () => {
  it('lists its recent calls, reads one as GET /v1/jobs/{id} shows it, and never another key’s', async () => {
    const url = await start();
    for (const era of ERAS) {
      const client = await connect(url, era);
      const result = await client.callTool({ name: 'corpus.search', arguments: { q: 'ada' } });
      expect(result.isError).toBeFalsy();
      const { resources } = await client.listResources();
      const latest = resources[0]!;
      expect(latest).toMatchObject({ uri: expect.stringMatching(/^chatsurface:\/\/jobs\/inv_/), title: 'Search the corpus: done', mimeType: 'application/json' });
      const jobId = latest.name;
      const read = await client.readResource({ uri: latest.uri });
      const rest = await (await fetch(`${url}/v1/jobs/${jobId}`, { headers: { authorization: `Bearer ${KEY}` } })).json();
      expect(read.contents).toEqual([{ uri: latest.uri, mimeType: 'application/json', text: JSON.stringify(rest) }]);
      expect(JSON.parse((read.contents[0] as { text: string }).text)).toMatchObject({ id: jobId, status: 'done', result: { structuredContent: { hits: ['ada #1'] } } });
      const templates = await client.listResourceTemplates();
      expect(templates.resourceTemplates).toEqual([expect.objectContaining({ uriTemplate: 'chatsurface://jobs/{id}', name: 'job' })]);
      const completion = await client.complete({ ref: { type: 'ref/resource', uri: 'chatsurface://jobs/{id}' }, argument: { name: 'id', value: jobId.slice(0, 6) } });
      expect(completion.completion.values).toContain(jobId);

      const other = await connect(url, era, OTHER);
      expect((await other.listResources()).resources).toEqual([]);
      await expect(other.readResource({ uri: latest.uri })).rejects.toThrow(/No resource "chatsurface:\/\/jobs\/inv_\w+" for this key/);
      await expect(client.readResource({ uri: 'file:///etc/passwd' })).rejects.toThrow(/No resource/);
      expect((await other.complete({ ref: { type: 'ref/resource', uri: 'chatsurface://jobs/{id}' }, argument: { name: 'id', value: '' } })).completion.values).toEqual([]);
    }
  });
});

/** One JSON-RPC exchange over plain HTTP; every SSE `data:` message, in order. */
async function rpc(url: string, body: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(`${url}/mcp`, {
    method: 'POST',
    headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  const sse = response.headers.get('content-type')?.includes('text/event-stream') ?? false;
  const messages = (sse ? text.split('\n').filter((line) => line.startsWith('data: ') && line.length > 6).map((line) => line.slice(6)) : [text]).map(
    (line) => JSON.parse(line) as { id?: unknown; method?: string; params?: { level?: string; data?: { message?: string } }; result?: unknown; error?: { code: number; message: string } },
  );
  return { status: response.status, sse, text, messages };
}

const modernCall = (id: number, logLevel?: string) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: {
    name: 'corpus.search',
    arguments: { q: 'ada' },
    _meta: {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientInfo': { name: 'wire-test', version: '1.0.0' },
      'io.modelcontextprotocol/clientCapabilities': {},
      ...(logLevel ? { 'io.modelcontextprotocol/logLevel': logLevel } : {}),
    },
  },
});
const MODERN_HEADERS = { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'corpus.search' };

describe('MCP door: log messages at the client’s level', () => {
  it('2026-07-28: the request’s own logLevel; none without one; an unknown level is -32602', async () => {
    const url = await start();
    const debug = await rpc(url, modernCall(1, 'debug'), MODERN_HEADERS);
    const levels = debug.messages.filter((m) => m.method === 'notifications/message').map((m) => m.params!.level);
    expect(levels).toEqual(['debug', 'debug', 'debug', 'info']);
    expect(debug.messages.at(-1)).toMatchObject({ id: 1, result: { structuredContent: { hits: ['ada #1'] } } });
    const info = await rpc(url, modernCall(2, 'info'), MODERN_HEADERS);
    expect(info.messages.filter((m) => m.method === 'notifications/message').map((m) => [m.params!.level, m.params!.data!.message])).toEqual([
      ['info', expect.stringMatching(/^corpus\.search ran as job inv_\w+ \(done\)\.$/)],
    ]);
    const quiet = await rpc(url, modernCall(3), MODERN_HEADERS);
    expect(quiet.messages.filter((m) => m.method === 'notifications/message')).toEqual([]);
    const banana = await rpc(url, modernCall(4, 'banana'), MODERN_HEADERS);
    expect(banana.messages.at(-1)?.error?.code).toBe(-32602);
  });

  it('2025-11-25: logging/setLevel is kept for the caller’s next calls (served statelessly); an unknown level is -32602', async () => {
    const url = await start();
    const client = await connect(url, 'legacy');
    const logged: { level: string; data: unknown }[] = [];
    client.setNotificationHandler('notifications/message', (notification) => void logged.push({ level: notification.params.level, data: notification.params.data }));
    await client.callTool({ name: 'corpus.search', arguments: { q: 'ada' } });
    expect(logged).toEqual([]);
    await client.setLoggingLevel('warning');
    await client.callTool({ name: 'corpus.search', arguments: { q: 'a' } });
    expect(logged).toEqual([{ level: 'warning', data: expect.objectContaining({ code: 'invalid_arguments', tool: 'corpus.search' }) }]);
    logged.length = 0;
    await client.setLoggingLevel('debug');
    await client.callTool({ name: 'corpus.search', arguments: { q: 'ada' } });
    expect(logged.map((l) => l.level)).toEqual(['debug', 'debug', 'debug', 'info']);
    const other = await connect(url, 'legacy', OTHER);
    const otherLogged: unknown[] = [];
    other.setNotificationHandler('notifications/message', (notification) => void otherLogged.push(notification));
    await other.callTool({ name: 'corpus.search', arguments: { q: 'ada' } });
    expect(otherLogged).toEqual([]);
    await expect(client.request({ method: 'logging/setLevel', params: { level: 'banana' as never } })).rejects.toMatchObject({ code: -32602 });
  });
});

describe('MCP door: SSE answers open with a priming event and retry', () => {
  it('primes 2026-07-28 and 2025-11-25 streams (an id, a retry, empty data), not older revisions’ nor JSON answers; SDK clients read on', async () => {
    const url = await start();
    const modern = await rpc(url, modernCall(1, 'info'), MODERN_HEADERS);
    expect(modern.sse).toBe(true);
    expect(modern.text).toMatch(/^id: [0-9a-f-]{36}\nretry: 1000\ndata:\n\n/);
    expect(modern.messages.at(-1)).toMatchObject({ id: 1, result: { structuredContent: { hits: ['ada #1'] } } });
    const legacyCall = { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'corpus.search', arguments: { q: 'ada' } } };
    const legacy = await rpc(url, legacyCall, { 'mcp-protocol-version': '2025-11-25' });
    expect(legacy.sse).toBe(true);
    expect(legacy.text).toMatch(/^id: [0-9a-f-]{36}\nretry: 1000\ndata:\n\n(event: message\n)?data: \{/);
    const init = await rpc(url, { jsonrpc: '2.0', id: 3, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'x', version: '1' } } });
    expect(init.text.startsWith('id: ')).toBe(init.sse);
    const older = await rpc(url, legacyCall, { 'mcp-protocol-version': '2025-06-18' });
    expect(older.text).not.toMatch(/^id: /);
    // A modern answer without notifications is JSON: nothing to prime.
    const json = await rpc(url, modernCall(4), MODERN_HEADERS);
    expect(json.sse).toBe(false);
    for (const era of ERAS) {
      const client = await connect(url, era);
      expect((await client.callTool({ name: 'corpus.search', arguments: { q: 'ada' } }, { onprogress: () => undefined })).structuredContent).toEqual({ hits: ['ada #1'] });
    }
  });
});
