import { HttpAgent } from '@ag-ui/client';
import type { BaseEvent } from '@ag-ui/core';
import { EventSchemas } from '@ag-ui/core/schemas';
import { AGUI_MEDIA_TYPE, decode } from '@ag-ui/proto';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineCapability } from '../runtime/capability';
import { resultText, textResult } from '../runtime/results';
import type { ThreadEvent } from '../runtime/events';
import { foldAll, initialThreadState } from '../runtime/fold';
import { createAgUiWorkspace } from '../workspace/agUiWorkspace';
import type { ModelDriver } from '../runtime/model';
import { createWorkspaceServer, type WorkspaceServer } from './createWorkspaceServer';

let server: WorkspaceServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

const search = defineCapability({
  name: 'notes.search',
  title: 'Search notes',
  description: 'Finds notes by a word.',
  input: z.object({ q: z.string() }),
  handler: async ({ q }, ctx) => {
    ctx.progress(1, 1, 'Searched');
    return textResult(`2 notes mention ${q}.`);
  },
});
const exportCrm = defineCapability({
  name: 'crm.export',
  title: 'Export to CRM',
  description: 'Sends the records to the CRM.',
  kind: 'mutate',
  requires_user_confirmation: true,
  input: z.object({}),
  handler: () => textResult('Exported 4 records.'),
});

/** Searches or exports by the words, then repeats the tool's result. */
const driver: ModelDriver = {
  info: { id: 'scripted', label: 'Scripted model' },
  async *respond({ messages }) {
    const last = messages.at(-1)!;
    if (last.role === 'tool') {
      yield { type: 'text', text: `Done: ${resultText(last.result)}` };
      return;
    }
    const text = last.role === 'user' ? last.text : '';
    if (text.includes('export')) yield { type: 'invoke', capability: 'crm.export', args: {} };
    else yield { type: 'invoke', capability: 'notes.search', args: { q: 'whales' } };
  },
};

async function start(alignment: 'strict' | 'loose' = 'loose') {
  server = await createWorkspaceServer({ capabilities: [search, exportCrm], driver, database: ':memory:', alignment });
  return (await server.listen()).url;
}

/** Runs the official AG-UI client against the kit's endpoint and checks every event against @ag-ui/core's schemas. */
async function runWith(agent: HttpAgent, parameters: Parameters<HttpAgent['runAgent']>[0] = {}) {
  const events: BaseEvent[] = [];
  await agent.runAgent(parameters, {
    onEvent: ({ event }) => {
      events.push(event);
    },
  });
  for (const event of events) expect(EventSchemas.safeParse(event).success, JSON.stringify(event)).toBe(true);
  return events;
}

describe('AG-UI endpoint on createWorkspaceServer', () => {
  it('an AG-UI client drives a turn: a tool call with its result, a streamed reply, schema-valid events', async () => {
    const url = await start();
    const agent = new HttpAgent({ url: `${url}/v1/ag-ui`, threadId: 'ag1' });
    agent.messages.push({ id: 'u1', role: 'user', content: 'search the notes for whales' });
    const events = await runWith(agent);
    const types = events.map((e) => e.type);
    expect(types[0]).toBe('RUN_STARTED');
    expect(types.at(-1)).toBe('RUN_FINISHED');
    expect(events.find((e) => e.type === 'TOOL_CALL_START')).toMatchObject({ toolCallName: 'notes.search' });
    expect(events.find((e) => e.type === 'TOOL_CALL_ARGS')).toMatchObject({ delta: '{"q":"whales"}' });
    expect(events.find((e) => e.type === 'TOOL_CALL_RESULT')).toMatchObject({ content: '2 notes mention whales.' });
    expect(events.find((e) => e.type === 'CUSTOM')).toMatchObject({ name: 'chatsurface.progress', value: { progress: 1, total: 1, message: 'Searched' } });
    const reply = events.filter((e) => e.type === 'TEXT_MESSAGE_CONTENT').map((e) => (e as unknown as { delta: string }).delta).join('');
    expect(reply).toBe('Done: 2 notes mention whales.');
    // The client folded the events into its own messages.
    expect(agent.messages.at(-1)).toMatchObject({ role: 'assistant', content: 'Done: 2 notes mention whales.' });
    // The same thread, as the thread host keeps it (the workspace protocol reads this log).
    expect(await server!.host.lastSeq({ user: 'local' }, 'ag1')).toBeGreaterThan(0);
    expect(await server!.host.lastSeq({ user: 'someone-else' }, 'ag1')).toBe(0);
  });

  it('a reply with reasoning: a reasoning span and message before the reply\'s text message, redacted reasoning flagged', async () => {
    const thinker: ModelDriver = {
      info: { id: 'scripted', label: 'Scripted model' },
      async *respond() {
        yield { type: 'reasoning', text: 'Whales, ' };
        yield { type: 'reasoning', text: 'then answer.' };
        yield { type: 'reasoning_end' };
        yield { type: 'reasoning_end', redacted: true };
        yield { type: 'text', text: 'Whales are mammals.' };
      },
    };
    server = await createWorkspaceServer({ capabilities: [search], driver: thinker, database: ':memory:' });
    const { url } = await server.listen();
    const agent = new HttpAgent({ url: `${url}/v1/ag-ui`, threadId: 'ag-think' });
    agent.messages.push({ id: 'u1', role: 'user', content: 'tell me about whales' });
    const events = (await runWith(agent)) as (BaseEvent & Record<string, unknown>)[];
    const kinds = events.map((e) => e.type).filter((t) => t.startsWith('REASONING') || t.startsWith('TEXT_MESSAGE'));
    expect(kinds).toEqual([
      'REASONING_START', 'REASONING_MESSAGE_START', 'REASONING_MESSAGE_CONTENT', 'REASONING_MESSAGE_CONTENT', 'REASONING_MESSAGE_END', 'REASONING_END',
      'REASONING_START', 'REASONING_MESSAGE_START', 'REASONING_MESSAGE_END', 'REASONING_END',
      'TEXT_MESSAGE_START', 'TEXT_MESSAGE_CONTENT', 'TEXT_MESSAGE_END',
    ]);
    const reply = events.find((e) => e.type === 'TEXT_MESSAGE_START')!.messageId;
    expect(events.find((e) => e.type === 'REASONING_START')!.messageId).toBe(`${String(reply)}.reasoning`);
    expect(events.filter((e) => e.type === 'REASONING_MESSAGE_CONTENT').map((e) => e.delta).join('')).toBe('Whales, then answer.');
    expect(events.filter((e) => e.type === 'REASONING_END').map((e) => e.metadata)).toEqual([undefined, { 'chatsurface/redacted': true }]);
    const shown = agent.messages.filter((m) => m.role === 'reasoning' || m.role === 'assistant').map((m) => m.role);
    // One reasoning message per reply (its spans share the id), listed before the reply.
    expect(shown).toEqual(['reasoning', 'assistant']);
  });

  it('a turn that needs approval ends the run on an interrupt; resuming it approves, runs and answers', async () => {
    const url = await start();
    const agent = new HttpAgent({ url: `${url}/v1/ag-ui`, threadId: 'ag2' });
    agent.messages.push({ id: 'u1', role: 'user', content: 'export to CRM' });
    const first = await runWith(agent);
    const finished = first.at(-1) as unknown as { outcome: { type: string; interrupts: { id: string; reason: string; message: string }[] } };
    expect(finished.outcome.type).toBe('interrupt');
    const interrupt = finished.outcome.interrupts[0]!;
    expect(interrupt).toMatchObject({ reason: 'approval', message: expect.stringContaining('Export to CRM') });
    expect(first.some((e) => e.type === 'TOOL_CALL_RESULT')).toBe(false);
    const second = await runWith(agent, { resume: [{ interruptId: interrupt.id, status: 'resolved', payload: { approved: true } }] });
    expect(second.find((e) => e.type === 'TOOL_CALL_RESULT')).toMatchObject({ content: 'Exported 4 records.' });
    expect(second.at(-1)).toMatchObject({ type: 'RUN_FINISHED', outcome: { type: 'success' } });
  });

  it('under strict alignment a proposal is an interrupt too; dismissing it runs nothing', async () => {
    const url = await start('strict');
    const agent = new HttpAgent({ url: `${url}/v1/ag-ui`, threadId: 'ag3' });
    agent.messages.push({ id: 'u1', role: 'user', content: 'search the notes for whales' });
    const first = await runWith(agent);
    expect(first.at(-1)).toMatchObject({ outcome: { type: 'interrupt', interrupts: [{ reason: 'proposal', message: 'Run Search notes?', metadata: { capability: 'notes.search', args: { q: 'whales' } } }] } });
    const id = (first.at(-1) as unknown as { outcome: { interrupts: { id: string }[] } }).outcome.interrupts[0]!.id;
    const second = await runWith(agent, { resume: [{ interruptId: id, status: 'cancelled' }] });
    expect(second.some((e) => e.type === 'TOOL_CALL_START')).toBe(false);
    expect(second.at(-1)).toMatchObject({ type: 'RUN_FINISHED', outcome: { type: 'success' } });
  });

  it('answers in protobuf when the Accept header asks for it: length-prefixed frames that @ag-ui/proto decodes', async () => {
    const url = await start();
    const input = { threadId: 'ag-proto', runId: 'r1', messages: [{ id: 'u1', role: 'user', content: 'search the notes for whales' }], tools: [], context: [], state: {}, forwardedProps: {} };
    const response = await fetch(`${url}/v1/ag-ui`, { method: 'POST', headers: { 'content-type': 'application/json', accept: `${AGUI_MEDIA_TYPE}, text/event-stream;q=0.5` }, body: JSON.stringify(input) });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe(AGUI_MEDIA_TYPE);
    const body = new Uint8Array(await response.arrayBuffer());
    expect(new TextDecoder().decode(body.subarray(0, 5))).not.toBe('data:');
    // Each frame: a 4-byte big-endian length, then one protobuf-encoded event.
    const events: BaseEvent[] = [];
    const view = new DataView(body.buffer, body.byteOffset, body.byteLength);
    for (let at = 0; at < body.length; ) {
      const length = view.getUint32(at, false);
      events.push(decode(body.subarray(at + 4, at + 4 + length)));
      at += 4 + length;
    }
    for (const event of events) expect(EventSchemas.safeParse(event).success, JSON.stringify(event)).toBe(true);
    expect(events[0]).toMatchObject({ type: 'RUN_STARTED', threadId: 'ag-proto', runId: 'r1' });
    expect(events.find((e) => e.type === 'TOOL_CALL_START')).toMatchObject({ toolCallName: 'notes.search' });
    expect(events.find((e) => e.type === 'CUSTOM')).toMatchObject({ name: 'chatsurface.progress', value: { progress: 1, total: 1 } });
    const reply = events.filter((e) => e.type === 'TEXT_MESSAGE_CONTENT').map((e) => (e as unknown as { delta: string }).delta).join('');
    expect(reply).toBe('Done: 2 notes mention whales.');
    expect(events.at(-1)).toMatchObject({ type: 'RUN_FINISHED', outcome: { type: 'success' } });
    // Asked for SSE (or nothing in particular), it stays SSE.
    const sse = await fetch(`${url}/v1/ag-ui`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'text/event-stream' }, body: JSON.stringify({ ...input, runId: 'r2' }) });
    expect(sse.headers.get('content-type')).toBe('text/event-stream');
    expect(await sse.text()).toMatch(/^data: \{"type":"RUN_STARTED"/);
  });

  it('the kit’s own AG-UI consumer on this endpoint: the card with its progress and result, the reply, the host hearing the CUSTOM event', async () => {
    const url = await start();
    const heard: string[] = [];
    const workspace = createAgUiWorkspace({ url: `${url}/v1/ag-ui`, onEvent: (_thread, event) => heard.push(event.type) });
    const events: ThreadEvent[] = [];
    workspace.subscribe('ag-both', (event) => events.push(event));
    await workspace.send({ threadId: 'ag-both', text: 'search the notes for whales' });
    const rows = foldAll(initialThreadState, events).rows;
    expect(rows.map((r) => r.kind)).toEqual(['user', 'invocation', 'assistant']);
    expect(rows[1]).toMatchObject({ capability: 'notes.search', state: 'done', progress: { progress: 1, total: 1, message: 'Searched' }, result: { content: [{ type: 'text', text: '2 notes mention whales.' }] } });
    expect(rows[2]).toMatchObject({ text: 'Done: 2 notes mention whales.', status: 'done' });
    expect(heard).toEqual(['CUSTOM']);
  });

  it('refuses a body that is not a RunAgentInput, saying which field', async () => {
    const url = await start();
    const response = await fetch(`${url}/v1/ag-ui`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ threadId: 'x', messages: [] }) });
    expect(response.status).toBe(400);
    expect((await response.json()).error).toMatchObject({ code: 'invalid_run_input', message: expect.stringMatching(/^The body is not an AG-UI RunAgentInput: runId: /) });
  });
});
