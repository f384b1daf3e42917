import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { specTypeSchemas } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { defineCapability } from '../runtime/capability';
import { textResult } from '../runtime/results';
import { createWorkspaceServer, type WorkspaceServer } from './createWorkspaceServer';
import { commonResult } from './mcpFastCall';

// The differential test: every request of the corpus is sent to the same door twice, once with
// the fast path and once with it off (every request through the SDK); the answers must not differ.
const fast = vi.hoisted(() => ({ on: true, taken: 0 }));
vi.mock('./mcpFastCall', async (original) => {
  const actual = await original<typeof import('./mcpFastCall')>();
  return {
    ...actual,
    plainCall: (request: Request, body: unknown) => {
      if (!fast.on) return null;
      const call = actual.plainCall(request, body);
      if (call) fast.taken++;
      return call;
    },
  };
});

const KEY = 'fast-call-key-0123456789';
const echo = defineCapability({
  name: 'bench.echo',
  title: 'Echo',
  description: 'Returns its input.',
  input: z.object({ id: z.number().int() }),
  handler: ({ id }) => textResult(`#${id}`, { id }),
});
const search = defineCapability({
  name: 'corpus.search',
  title: 'Search',
  description: 'Finds passages.',
  input: z.object({ q: z.string().min(2) }),
  output: z.object({ hits: z.array(z.string()) }),
  handler: async ({ q }, ctx) => {
    ctx.progress(1, 2, 'Scanning');
    return textResult(`Found ${q}.`, { hits: [`${q} #1`, `${q} #2`] });
  },
});
const broken = defineCapability({
  name: 'tool.broken',
  title: 'Broken',
  description: 'Always fails.',
  input: z.object({}),
  handler: () => {
    throw new Error('The upstream service is down.');
  },
});
const big = defineCapability({
  name: 'logs.dump',
  title: 'Dump',
  description: 'A long result.',
  input: z.object({ chars: z.number().int() }),
  handler: ({ chars }) => textResult('x'.repeat(chars)),
});
const addNote = defineCapability({
  name: 'notes.add',
  title: 'Add note',
  description: 'Saves a note.',
  kind: 'mutate',
  input: z.object({ text: z.string().min(1) }),
  handler: ({ text }) => textResult(`Saved “${text}”.`, { saved: true }),
});

let server: WorkspaceServer;
let url: string;
beforeAll(async () => {
  server = await createWorkspaceServer({
    capabilities: [echo, search, broken, big, addNote],
    database: ':memory:',
    apiKeys: [{ id: 'agent', key: KEY }],
    mcp: { outputLimit: 2_000, mutates: ['notes.add'] },
  });
  url = (await server.listen()).url;
});
afterAll(async () => {
  await server.close();
});

const MODERN = '2026-07-28';
const envelope = (extra: Record<string, unknown> = {}) => ({
  'io.modelcontextprotocol/protocolVersion': MODERN,
  'io.modelcontextprotocol/clientInfo': { name: 'diff', version: '1.0.0' },
  'io.modelcontextprotocol/clientCapabilities': {},
  ...extra,
});
const BOTH = 'application/json, text/event-stream';
const modernHeaders = (name: string, extra: Record<string, string> = {}) => ({ accept: BOTH, 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/call', 'mcp-name': name, ...extra });
const call = (id: unknown, name: string, args?: unknown, meta: Record<string, unknown> = envelope()) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name, ...(args !== undefined ? { arguments: args } : {}), _meta: meta },
});

interface Case {
  name: string;
  body: unknown;
  headers: Record<string, string>;
  /** Whether the fast path answers it (else the SDK does, with the fast path on as well). */
  fast: boolean;
}

const CORPUS: Case[] = [
  { name: 'a valid call', body: call(1, 'bench.echo', { id: 7 }), headers: modernHeaders('bench.echo'), fast: true },
  { name: 'a string id', body: call('call-1', 'bench.echo', { id: 8 }), headers: modernHeaders('bench.echo'), fast: true },
  { name: 'JSON accepted only', body: call(2, 'bench.echo', { id: 9 }), headers: modernHeaders('bench.echo', { accept: 'application/json' }), fast: true },
  { name: 'SSE accepted only', body: call(3, 'bench.echo', { id: 10 }), headers: modernHeaders('bench.echo', { accept: 'text/event-stream' }), fast: true },
  { name: 'no Accept header', body: call(40, 'bench.echo', { id: 11 }), headers: { 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/call', 'mcp-name': 'bench.echo' }, fast: true },
  { name: 'invalid arguments', body: call(4, 'bench.echo', { id: 'seven' }), headers: modernHeaders('bench.echo'), fast: true },
  { name: 'no arguments', body: call(5, 'bench.echo'), headers: modernHeaders('bench.echo'), fast: true },
  { name: 'an unknown tool', body: call(6, 'no.such', {}), headers: modernHeaders('no.such'), fast: true },
  { name: 'a tool that throws', body: call(7, 'tool.broken', {}), headers: modernHeaders('tool.broken'), fast: true },
  { name: 'a structured result with an output schema', body: call(8, 'corpus.search', { q: 'owls' }), headers: modernHeaders('corpus.search'), fast: true },
  { name: 'a result cut to the output limit', body: call(9, 'logs.dump', { chars: 50_000 }), headers: modernHeaders('logs.dump'), fast: true },
  { name: 'a mutate the host opted in', body: call(10, 'notes.add', { text: 'hi' }), headers: modernHeaders('notes.add'), fast: true },
  {
    name: 'roots and sampling declared',
    body: call(11, 'bench.echo', { id: 1 }, envelope({ 'io.modelcontextprotocol/clientCapabilities': { roots: { listChanged: true }, sampling: {} } })),
    headers: modernHeaders('bench.echo'),
    fast: true,
  },
  { name: 'no client info', body: call(12, 'bench.echo', { id: 1 }, { 'io.modelcontextprotocol/protocolVersion': MODERN, 'io.modelcontextprotocol/clientCapabilities': {} }), headers: modernHeaders('bench.echo'), fast: true },
  // Through the SDK either way:
  { name: 'arguments as an array', body: call(20, 'bench.echo', [1]), headers: modernHeaders('bench.echo'), fast: false },
  { name: 'a name that is not a string', body: call(21, 5 as never, {}), headers: modernHeaders('5'), fast: false },
  { name: 'params missing', body: { jsonrpc: '2.0', id: 22, method: 'tools/call' }, headers: modernHeaders('bench.echo'), fast: false },
  { name: 'a fractional id', body: call(23.5, 'bench.echo', { id: 1 }), headers: modernHeaders('bench.echo'), fast: false },
  { name: 'Mcp-Name unlike the body', body: call(24, 'bench.echo', { id: 1 }), headers: modernHeaders('corpus.search'), fast: false },
  { name: 'Mcp-Name missing', body: call(25, 'bench.echo', { id: 1 }), headers: { accept: BOTH, 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/call' }, fast: false },
  { name: 'no envelope', body: { jsonrpc: '2.0', id: 26, method: 'tools/call', params: { name: 'bench.echo', arguments: { id: 1 } } }, headers: modernHeaders('bench.echo'), fast: false },
  { name: 'an envelope with a bad client', body: call(27, 'bench.echo', { id: 1 }, envelope({ 'io.modelcontextprotocol/clientInfo': { name: 5 } })), headers: modernHeaders('bench.echo'), fast: false },
  { name: 'an unserved revision', body: call(28, 'bench.echo', { id: 1 }, envelope({ 'io.modelcontextprotocol/protocolVersion': '2027-01-01' })), headers: modernHeaders('bench.echo', { 'mcp-protocol-version': '2027-01-01' }), fast: false },
  { name: 'a progress token', body: call(29, 'corpus.search', { q: 'owls' }, envelope({ progressToken: 'p1' })), headers: modernHeaders('corpus.search'), fast: false },
  { name: 'a log level', body: call(30, 'corpus.search', { q: 'owls' }, envelope({ 'io.modelcontextprotocol/logLevel': 'debug' })), headers: modernHeaders('corpus.search'), fast: false },
  {
    name: 'task support declared',
    body: call(31, 'bench.echo', { id: 1 }, envelope({ 'io.modelcontextprotocol/clientCapabilities': { extensions: { 'io.modelcontextprotocol/tasks': {} } } })),
    headers: modernHeaders('bench.echo'),
    fast: false,
  },
  {
    name: 'elicitation declared',
    body: call(32, 'bench.echo', { id: 1 }, envelope({ 'io.modelcontextprotocol/clientCapabilities': { elicitation: {} } })),
    headers: modernHeaders('bench.echo'),
    fast: false,
  },
  { name: 'a task-augmented call', body: { ...call(33, 'bench.echo', { id: 1 }), params: { ...call(33, 'bench.echo', { id: 1 }).params, task: { ttl: 1000 } } }, headers: modernHeaders('bench.echo'), fast: false },
  { name: 'tools/list', body: { jsonrpc: '2.0', id: 34, method: 'tools/list', params: { _meta: envelope() } }, headers: { accept: BOTH, 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/list' }, fast: false },
  { name: 'a batch', body: [call(35, 'bench.echo', { id: 1 }), call(36, 'bench.echo', { id: 2 })], headers: modernHeaders('bench.echo'), fast: false },
  { name: 'a 2025-11-25 call', body: { jsonrpc: '2.0', id: 37, method: 'tools/call', params: { name: 'bench.echo', arguments: { id: 1 } } }, headers: { accept: BOTH, 'mcp-protocol-version': '2025-11-25' }, fast: false },
  { name: 'a 2025-06-18 call', body: { jsonrpc: '2.0', id: 38, method: 'tools/call', params: { name: 'bench.echo', arguments: { id: 1 } } }, headers: { accept: BOTH, 'mcp-protocol-version': '2025-06-18' }, fast: false },
  {
    name: 'a 2025-era call carrying a 2026 envelope',
    body: call(39, 'bench.echo', { id: 1 }),
    headers: { accept: BOTH, 'mcp-protocol-version': '2025-11-25', 'mcp-method': 'tools/call', 'mcp-name': 'bench.echo' },
    fast: false,
  },
];

interface Answer {
  status: number;
  headers: Record<string, string | null>;
  body: unknown;
}

/** What matters of an answer: status, the headers a client reads, and the body byte for byte (SSE: its events, the priming event's id set aside). */
async function send(c: Case): Promise<Answer> {
  const response = await fetch(`${url}/mcp`, {
    method: 'POST',
    headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json', ...c.headers },
    body: JSON.stringify(c.body),
  });
  const type = response.headers.get('content-type');
  const text = await response.text();
  const body = type?.includes('text/event-stream')
    ? text
        .split('\n\n')
        .filter((block) => block.trim() !== '')
        .map((block) => block.replace(/^id: .*$/m, 'id: <priming>'))
    : text;
  const headers = Object.fromEntries(['content-type', 'mcp-session-id', 'cache-control', 'www-authenticate', 'content-encoding'].map((name) => [name, response.headers.get(name)]));
  return { status: response.status, headers, body: jobIdsMasked(body) };
}

/** Job ids differ from one call to the next; where they appear is compared, not their value. */
function jobIdsMasked(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value).replace(/\binv_[a-z0-9]+/g, '<job>'));
}

describe('the MCP fast path answers exactly as the SDK', () => {
  for (const c of CORPUS) {
    it(c.name, async () => {
      fast.on = false;
      const viaSdk = await send(c);
      fast.on = true;
      fast.taken = 0;
      const viaFast = await send(c);
      expect(fast.taken).toBe(c.fast ? 1 : 0);
      expect(viaFast).toEqual(viaSdk);
      expect(viaFast.headers['mcp-session-id']).toBeNull();
    });
  }
});

describe("the common result made by hand is the schema's parse of it", () => {
  const parse = (value: unknown) => (specTypeSchemas.CallToolResult as unknown as { parse(v: unknown): unknown }).parse(value);
  const samples: Record<string, unknown>[] = [
    { content: [{ type: 'text', text: '#1' }], structuredContent: { id: 1 } },
    { structuredContent: { b: [1, { c: null }], a: 'x' }, isError: false, content: [{ text: 'two', type: 'text' }, { type: 'text', text: '' }] },
    { content: [], isError: true },
    { content: [{ type: 'text', text: 'a \u2028 "quoted" \\ line' }] },
  ];
  for (const sample of samples) {
    it(JSON.stringify(sample), () => {
      const made = commonResult(sample);
      expect(made).not.toBeNull();
      expect(JSON.stringify(made)).toBe(JSON.stringify(parse(sample)));
    });
  }
  it('leaves every other result to the parse', () => {
    for (const other of [
      { content: [{ type: 'text', text: 'x', annotations: { audience: ['user'] } }] },
      { content: [{ type: 'text', text: 'x', _meta: { a: 1 } }] },
      { content: [{ type: 'image', data: 'AA==', mimeType: 'image/png' }] },
      { content: [{ type: 'text', text: 'x' }], _meta: { 'chatsurface/error': { code: 'x' } } },
      { content: [{ type: 'text', text: 'x' }], structuredContent: [1, 2] },
      { content: [{ type: 'text', text: 'x' }], isError: 'yes' },
      { content: [{ type: 'text', text: 'x' }], extra: 1 },
      { content: 'x' },
    ]) {
      expect(commonResult(other)).toBeNull();
    }
  });
});
