/**
 * The MCP conformance suite's server scenarios that apply to this door, checked with the official
 * client beside the suite's own run (mcpConformanceSuite.test.ts): a workspace server that
 * registers the suite's own tools (`test_simple_text`, `test_tool_with_progress`, …, from
 * src/test/mcpConformanceSuite.ts) as capabilities, checked the way each scenario checks it. Scenarios that need the suite's fixture
 * prompts and resources (`test_simple_prompt`, `test://static-text`) or a server that asks the
 * client (sampling, elicitation) do not apply: prompts are the principal's skills, resources its jobs.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorkspaceServer, type WorkspaceServer } from './createWorkspaceServer';
import { suiteTools } from '../test/mcpConformanceSuite';

const KEY = 'conformance-key-0123456789';
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';
const WAV = 'UklGRiQAAABXQVZFZm10IBAAAAABAAEAQB8AAEAfAAABAAgAZGF0YQAAAAA=';


let server: WorkspaceServer;
let url: string;
const clients: Client[] = [];

beforeAll(async () => {
  server = await createWorkspaceServer({ capabilities: suiteTools, database: ':memory:', apiKeys: [{ id: 'suite', key: KEY }] });
  url = (await server.listen()).url;
});

afterAll(async () => {
  for (const client of clients.splice(0)) await client.close();
  await server.close();
});

async function connect(era: 'modern' | 'legacy') {
  const client = new Client({ name: 'conformance-mirror', version: '1.0.0' }, era === 'modern' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {});
  await client.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${KEY}` } } }));
  clients.push(client);
  const logs: { level: string; data: unknown }[] = [];
  client.setNotificationHandler('notifications/message', (n) => void logs.push({ level: n.params.level, data: n.params.data }));
  return { client, logs };
}

const LEVELS = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'];
const below = (logs: { level: string }[], level: string) => logs.filter((l) => LEVELS.indexOf(l.level) < LEVELS.indexOf(level));

describe.each(['modern', 'legacy'] as const)('conformance scenarios (%s)', (era) => {
  it('tools-list, tools-name-format; prompts-list; resources-list; completion; logging-capability-advertisement', async () => {
    const { client } = await connect(era);
    const { tools } = await client.listTools();
    expect(tools.length).toBe(suiteTools.length);
    for (const tool of tools) {
      expect(tool.name).toMatch(/^[A-Za-z0-9_./-]{1,64}$/);
      expect(tool.description).toBeTruthy();
      expect(tool.inputSchema).toBeTruthy();
    }
    for (const prompt of (await client.listPrompts()).prompts) expect(prompt.name && prompt.description).toBeTruthy();
    await client.callTool({ name: 'test_simple_text' });
    const { resources } = await client.listResources();
    expect(resources.length).toBeGreaterThan(0);
    for (const resource of resources) expect(resource.uri && resource.name).toBeTruthy();
    const completion = await client.complete({ ref: { type: 'ref/prompt', name: 'summarize' }, argument: { name: 'task', value: '' } });
    expect(Array.isArray(completion.completion.values)).toBe(true);
    // The logging capability is advertised (an empty object, as the spec writes it).
    expect(client.getServerCapabilities()).toMatchObject({ logging: {} });
  });

  it('tools-call-simple-text, -image, -audio, -mixed-content, -error', async () => {
    const { client } = await connect(era);
    expect((await client.callTool({ name: 'test_simple_text' })).content).toEqual([{ type: 'text', text: 'This is a simple text response for testing.' }]);
    expect((await client.callTool({ name: 'test_image_content', arguments: {} })).content).toEqual([{ type: 'image', data: PNG, mimeType: 'image/png' }]);
    expect((await client.callTool({ name: 'test_audio_content', arguments: {} })).content).toEqual([{ type: 'audio', data: WAV, mimeType: 'audio/wav' }]);
    const mixed = (await client.callTool({ name: 'test_multiple_content_types', arguments: {} })).content as { type: string }[];
    expect(mixed.map((c) => c.type)).toEqual(['text', 'image', 'resource']);
    const error = await client.callTool({ name: 'test_error_handling', arguments: {} });
    expect(error.isError).toBe(true);
    expect((error.content as { text: string }[])[0]!.text).toBe('This tool intentionally returns an error for testing');
  });

  it('tools-call-with-progress: at least three, increasing', async () => {
    const { client } = await connect(era);
    const progress: number[] = [];
    await client.callTool({ name: 'test_tool_with_progress', arguments: {} }, { onprogress: (p) => progress.push(p.progress) });
    expect(progress).toEqual([0, 50, 100]);
  });
});

describe('conformance scenarios: logging (2025-06-18, 2025-11-25)', () => {
  it('tools-call-with-logging: at least three messages at debug', async () => {
    const { client, logs } = await connect('legacy');
    await client.setLoggingLevel('debug');
    await client.callTool({ name: 'test_tool_with_logging', arguments: {} });
    expect(logs.length).toBeGreaterThanOrEqual(3);
  });

  it('logging-invalid-level: -32602; logging-threshold-filtering: nothing below the level', async () => {
    const { client, logs } = await connect('legacy');
    await expect(client.request({ method: 'logging/setLevel', params: { level: 'banana' as never } })).rejects.toMatchObject({ code: -32602 });
    await client.setLoggingLevel('error');
    await client.callTool({ name: 'test_tool_with_logging', arguments: {} });
    await client.callTool({ name: 'test_error_handling', arguments: {} });
    expect(logs.map((l) => l.level)).toEqual(['error']);
    logs.length = 0;
    await client.setLoggingLevel('debug');
    await client.callTool({ name: 'test_error_handling', arguments: {} });
    expect(logs.map((l) => l.level)).toEqual(['debug', 'error']);
  });
});

describe('conformance scenarios: per-request-loglevel (2026-07-28)', () => {
  const call = (id: number, name: string, logLevel?: string) =>
    fetch(`${url}/mcp`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${KEY}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': 'tools/call',
        'mcp-name': name,
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id,
        method: 'tools/call',
        params: {
          name,
          arguments: {},
          _meta: {
            'io.modelcontextprotocol/protocolVersion': '2026-07-28',
            'io.modelcontextprotocol/clientInfo': { name: 'wire', version: '1' },
            'io.modelcontextprotocol/clientCapabilities': {},
            ...(logLevel ? { 'io.modelcontextprotocol/logLevel': logLevel } : {}),
          },
        },
      }),
    }).then(async (response) => {
      const text = await response.text();
      const lines = response.headers.get('content-type')?.includes('text/event-stream') ? text.split(/\r?\n/).filter((l) => l.startsWith('data:') && l.length > 5).map((l) => l.replace(/^data:\s*/, '')) : [text];
      const messages = lines.map((l) => JSON.parse(l) as { id?: number; method?: string; params?: { level: string }; error?: { code: number } });
      return { logs: messages.filter((m) => m.method === 'notifications/message').map((m) => m.params!), last: messages.at(-1)! };
    });

  it('positive emission, severity filtering, invalid level rejection, request-scoped delivery', async () => {
    expect((await call(1, 'test_tool_with_logging', 'debug')).logs.length).toBeGreaterThan(0);
    const filtered = await call(2, 'test_error_handling', 'error');
    expect(filtered.logs.map((l) => l.level)).toEqual(['error']);
    expect(below(filtered.logs, 'error')).toEqual([]);
    expect((await call(3, 'test_tool_with_logging', 'banana')).last.error?.code).toBe(-32602);
    const [withLevel, without] = await Promise.all([call(4, 'test_tool_with_logging', 'debug'), call(5, 'test_simple_text')]);
    expect(withLevel.logs.length).toBeGreaterThan(0);
    expect(without.logs).toEqual([]);
  });
});
