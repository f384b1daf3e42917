import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAnthropicDriver } from '../runtime/anthropic/driver';
import { defineCapability } from '../runtime/capability';
import { textResult } from '../runtime/results';
import { foldAll, initialThreadState, type InvocationRow, type ThreadState } from '../runtime/fold';
import { createRemoteWorkspace, type RemoteWorkspace } from '../workspace/remoteWorkspace';
import { createWorkspaceServer, type WorkspaceServer } from './createWorkspaceServer';

const KEY = 'parity-key-0123456789';
let server: WorkspaceServer | null = null;
let fake: Server | null = null;
const closers: (() => Promise<void> | void)[] = [];

afterEach(async () => {
  for (const close of closers.splice(0)) await close();
  await server?.close();
  server = null;
  fake?.closeAllConnections();
  await new Promise<void>((resolve) => (fake ? fake.close(() => resolve()) : resolve()));
  fake = null;
});

/** The capability the host adds to its registry; nothing door-specific is written for it. */
const lookup = defineCapability({
  name: 'parity.lookup',
  title: 'Look up a customer',
  description: 'Finds a customer by name and returns their tier.',
  input: z.object({
    name: z.string().min(2).describe('Part of the customer name'),
    tiers: z.array(z.enum(['gold', 'silver', 'bronze'])).default(['gold']),
    options: z.object({ exact: z.boolean().optional(), limit: z.number().int().min(1).max(5).default(1) }).optional(),
  }),
  output: z.object({ customer: z.string(), tier: z.enum(['gold', 'silver', 'bronze']) }),
  annotations: { idempotentHint: true, openWorldHint: false },
  handler: ({ name, tiers }) => ({
    content: [{ type: 'text', text: `${name} Ltd is a ${tiers[0]} customer.` }],
    structuredContent: { customer: `${name} Ltd`, tier: tiers[0]! },
    display_hint: { kind: 'table', summary: `${name} Ltd: ${tiers[0]}` },
  }),
});

const note = defineCapability({
  name: 'notes.add',
  title: 'Add note',
  description: 'Saves a note.',
  kind: 'mutate',
  input: z.object({ text: z.string() }),
  handler: ({ text }) => textResult(`Saved ${text}.`),
});

const ARGS = { name: 'Ada', tiers: ['silver'], options: { limit: 2 } };

interface Recorded {
  tools: { name: string; description: string; input_schema: Record<string, unknown> }[];
  messages: { role: string; content: { type: string; tool_use_id?: string; content?: unknown }[] | string }[];
}

/** A fake Anthropic Messages API: asks for the lookup tool once, then answers; records every request body. */
async function startFakeAnthropic(recorded: Recorded[]): Promise<string> {
  fake = createServer((req: IncomingMessage, res: ServerResponse) => {
    let raw = '';
    req.on('data', (chunk) => (raw += chunk));
    req.on('end', () => {
      const body = JSON.parse(raw) as Recorded & { model: string };
      recorded.push(body);
      const last = body.messages.at(-1)!;
      const answered = Array.isArray(last.content) && last.content.some((b) => b.type === 'tool_result');
      const tool = body.tools.find((t) => t.description.startsWith('Look up a customer'));
      const usage = { input_tokens: 10, output_tokens: 3, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
      const events: object[] = [{ type: 'message_start', message: { id: 'msg_fake', type: 'message', role: 'assistant', model: body.model, content: [], stop_reason: null, stop_sequence: null, usage } }];
      if (answered || !tool) {
        events.push(
          { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
          { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Ada Ltd is silver.' } },
          { type: 'content_block_stop', index: 0 },
          { type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 5 } },
        );
      } else {
        events.push(
          { type: 'content_block_start', index: 0, content_block: { type: 'tool_use', id: 'toolu_parity', name: tool.name, input: {} } },
          { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: JSON.stringify(ARGS) } },
          { type: 'content_block_stop', index: 0 },
          { type: 'message_delta', delta: { stop_reason: 'tool_use', stop_sequence: null }, usage: { output_tokens: 5 } },
        );
      }
      events.push({ type: 'message_stop' });
      res.writeHead(200, { 'content-type': 'text/event-stream', 'request-id': 'req_fake' });
      for (const event of events) res.write(`event: ${(event as { type: string }).type}\ndata: ${JSON.stringify(event)}\n\n`);
      res.end();
    });
  });
  await new Promise<void>((resolve) => fake!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(fake.address() as AddressInfo).port}`;
}

describe('door parity: one registry, three doors', () => {
  it('a capability added to the registry appears on chat, REST and MCP with identical schemas and gives the same envelope', async () => {
    const recorded: Recorded[] = [];
    const anthropic = await startFakeAnthropic(recorded);
    server = await createWorkspaceServer({
      capabilities: [lookup, note],
      database: ':memory:',
      apiKeys: [KEY],
      alignment: 'loose',
      driver: createAnthropicDriver({ apiKey: 'sk-ant-fake', baseURL: anthropic, maxRetries: 0 }),
      mcp: { mutates: ['notes.add'] },
    });
    const { url } = await server.listen();

    // Chat: a real turn through the Anthropic driver; the model asks for the tool.
    const remote: RemoteWorkspace = await createRemoteWorkspace({ url });
    closers.push(() => remote.close());
    let state: ThreadState = initialThreadState;
    remote.subscribe('parity', (event) => (state = foldAll(state, [event])));
    await remote.send({ threadId: 'parity', text: 'look up a customer called Ada' });
    const card = state.rows.find((r): r is InvocationRow => r.kind === 'invocation')!;
    expect(card).toMatchObject({ capability: 'parity.lookup', state: 'done' });
    const chatTool = recorded[0]!.tools.find((t) => t.description.startsWith('Look up a customer'))!;
    const toolResult = (recorded[1]!.messages.at(-1)!.content as { type: string; content?: unknown }[]).find((b) => b.type === 'tool_result')!;
    expect(JSON.stringify(toolResult.content)).toContain('Ada Ltd is a silver customer.');
    expect(state.rows.at(-1)).toMatchObject({ kind: 'assistant', text: 'Ada Ltd is silver.' });

    // REST: the OpenAPI document and a call.
    const doc = await (await fetch(`${url}/v1/openapi.json`, { headers: { authorization: `Bearer ${KEY}` } })).json();
    const operation = doc.paths['/v1/capabilities/parity.lookup'].post;
    const rest = await fetch(`${url}/v1/capabilities/parity.lookup`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify(ARGS),
    });
    expect(rest.status).toBe(200);
    const restEnvelope = await rest.json();

    // MCP: the SDK client's listing and call.
    const client = new Client({ name: 'parity', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${KEY}` } } }));
    closers.push(() => client.close());
    const { tools } = await client.listTools();
    const mcpTool = tools.find((t) => t.name === 'parity.lookup')!;
    const mcpEnvelope = await client.callTool({ name: 'parity.lookup', arguments: ARGS });

    // Identical input schemas on the three doors (and the registry's, less its dialect marker, which
    // only the MCP door keeps, as MCP 2025-11-25 asks).
    const described = server.host.registry.describe().find((c) => c.name === 'parity.lookup')!;
    const { $schema: inputDialect, ...registryInput } = described.inputSchema;
    expect(chatTool.input_schema).toEqual(registryInput);
    expect(operation.requestBody.content['application/json'].schema).toEqual(registryInput);
    expect(mcpTool.inputSchema).toEqual({ $schema: inputDialect, ...registryInput });
    // Identical output schemas on REST and MCP (Anthropic tool definitions have none).
    const { $schema: outputDialect, ...registryOutput } = described.outputSchema!;
    expect(operation.responses['200'].content['application/json'].schema.allOf[1].properties.structuredContent).toEqual(registryOutput);
    expect(mcpTool.outputSchema).toEqual({ $schema: outputDialect, ...registryOutput });
    expect(mcpTool.annotations).toEqual({ readOnlyHint: true, idempotentHint: true, openWorldHint: false });
    expect(operation['x-annotations']).toEqual(mcpTool.annotations);

    // The same envelope through each door.
    const envelope = {
      content: [{ type: 'text', text: 'Ada Ltd is a silver customer.' }],
      structuredContent: { customer: 'Ada Ltd', tier: 'silver' },
      display_hint: { kind: 'table', summary: 'Ada Ltd: silver' },
    };
    expect(card.result).toEqual(envelope);
    expect(restEnvelope).toEqual(envelope);
    expect(mcpEnvelope).toEqual(envelope);

    // Every capability of the registry is on every door that serves its kind.
    expect(recorded[0]!.tools.filter((t) => !/^(propose_capability|ask_user|hand_off_standing_request)$/.test(t.name)).map((t) => t.input_schema)).toEqual(
      server.host.registry.describe().map(({ inputSchema: { $schema: _s, ...schema } }) => schema),
    );
    expect(Object.keys(doc.paths).filter((p) => p.startsWith('/v1/capabilities/'))).toEqual(['/v1/capabilities/notes.add', '/v1/capabilities/parity.lookup']);
    expect(tools.map((t) => t.name)).toEqual(['notes.add', 'parity.lookup']);
  });
});
