import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { createLocalWorkspace } from '../../workspace/localWorkspace';
import { defineCapability } from '../capability';
import { textResult } from '../results';
import { createEventLog } from '../eventLog';
import type { ThreadEvent } from '../events';
import { foldAll, initialThreadState, type AssistantRow, type ErrorRow } from '../fold';
import { invoke } from '../invoke';
import type { ModelMessage } from '../model';
import { startFakeAnthropic, type FakeAnthropic, type FakeAnthropicOptions, type RecordedRequest } from '../node/fakeAnthropic';
import { promptBlocks } from '../node/fakeAnthropicCache';
import { createRegistry } from '../registry';
import { resumeTurn, takeTurn } from '../turn';
import { createAnthropicDriver, type AnthropicDriverOptions } from './driver';
import { countBreakpoints, DRIVER_NOTES } from './request';

const registry = createRegistry([
  defineCapability({
    name: 'records.list', title: 'List records', description: 'Lists the records.', input: z.object({ limit: z.number().int().max(50).optional() }),
    handler: ({ limit }) => textResult(`3 records (limit ${limit ?? 'none'}).`, { count: 3 }),
  }),
  defineCapability({
    name: 'records.delete', title: 'Delete records', description: 'Deletes records.', kind: 'mutate', input: z.object({ before: z.string() }),
    handler: () => textResult('Deleted 2 records.'),
  }),
  defineCapability({
    name: 'notes.add', title: 'Add note', description: 'Saves a note.', kind: 'mutate', annotations: { destructiveHint: false }, input: z.object({ text: z.string() }),
    handler: ({ text }) => textResult(`Saved "${text}".`),
  }),
]);

let fake: FakeAnthropic | null = null;
afterEach(async () => {
  await fake?.close();
  fake = null;
});

/** The message that starts the follow-up turn of every scenario; the fake answers it plainly. */
const NEXT = 'And now, something simple?';
const NEXT_ANSWER = 'Back on track.';

/** The text of the request's last user message. */
function lastUserText(request: RecordedRequest): string {
  const last = [...request.body.messages].reverse().find((m: { role: string }) => m.role === 'user');
  const texts = (last?.content ?? []).filter((b: { type: string }) => b.type === 'text');
  return texts.at(-1)?.text ?? '';
}

async function setup(reply: FakeAnthropicOptions['reply'], driverOptions: AnthropicDriverOptions = {}, fakeOptions: FakeAnthropicOptions = {}) {
  const script = reply ?? (() => ({ text: 'ok' }));
  fake = await startFakeAnthropic({
    minCacheTokens: 200,
    ...fakeOptions,
    reply: (request, index) => (lastUserText(request) === NEXT ? { text: NEXT_ANSWER } : script(request, index)),
  });
  const driver = createAnthropicDriver({ apiKey: fake.apiKey, baseURL: fake.url, retryDelayMs: 1, ...driverOptions });
  const log = createEventLog({ now: () => 1 });
  const base = {
    driver,
    capabilities: registry.describe(),
    emit: log.emit,
    alignment: 'loose' as const,
    // As the thread host does: a call whose arguments streamed into a card runs as that card's invocation.
    invoke: (capability: string, args: unknown, turnId: string, _callId?: string, invocationId?: string) =>
      invoke(capability, args, { registry, emit: log.emit, threadKey: 't1', turnId, ...(invocationId ? { invocationId } : {}) }),
  };
  const rows = () => foldAll(initialThreadState, log.since()).rows;
  /** The thread takes its next turn: the fake accepts the request and the user sees the answer. */
  const nextTurnWorks = async (history: readonly ModelMessage[]) => {
    const before = fake!.requests.length;
    const result = await takeTurn({ ...base, history, text: NEXT });
    expect(fake!.requests.slice(before).map((r) => r.error ?? r.status)).toEqual([200]);
    expect(result.outcome).toBe('answered');
    expect(rows().at(-1)).toMatchObject({ kind: 'assistant', text: NEXT_ANSWER, status: 'done' });
    return fake!.requests.at(-1)!;
  };
  return { fake, driver, log, base, rows, nextTurnWorks };
}

const errorRow = (rows: readonly unknown[]) => rows.find((r) => (r as ErrorRow).kind === 'error') as ErrorRow | undefined;
const assistantRows = (rows: readonly unknown[]) => rows.filter((r): r is AssistantRow => (r as AssistantRow).kind === 'assistant');
const textsOf = (request: RecordedRequest) => JSON.stringify(request.body.messages);

describe('the Anthropic driver on the real SDK, against the contract fake', () => {
  it('streams text as message.delta events and records usage on the row', async () => {
    // Events a frame apart or more: each text delta goes out as it comes (faster ones are joined a frame at a time).
    const { fake, base, rows, log } = await setup(() => ({ text: 'Hello there, how can I help?' }), {}, { delayMs: 20 });
    const result = await takeTurn({ ...base, history: [], text: 'hi' });

    expect(result.outcome).toBe('answered');
    const deltas = log.since().filter((e) => e.type === 'message.delta');
    expect(deltas.length).toBeGreaterThan(3);
    const reply = rows()[1] as AssistantRow;
    expect(reply).toMatchObject({ text: 'Hello there, how can I help?', status: 'done', driver: { id: 'anthropic', label: 'Claude' } });
    const usage = fake.requests[0]!.usage!;
    expect(reply.usage).toEqual({
      input_tokens: usage.input_tokens,
      output_tokens: expect.any(Number),
      cache_creation_input_tokens: usage.cache_creation_input_tokens,
      cache_read_input_tokens: 0,
    });
    expect(usage.cache_creation_input_tokens).toBeGreaterThan(0);
    const sent = fake.requests[0]!;
    expect(sent.headers.authorization).toBe(`Bearer ${fake.apiKey}`);
    expect(sent.headers['x-stainless-retry-count']).toBe('0');
    expect(sent.body).toMatchObject({ model: 'claude-sonnet-5-5', stream: true });
  });

  it('runs a tool-use loop: the result goes back as tool_result and the model answers', async () => {
    const { fake, base, rows } = await setup((_r, i) =>
      i === 0 ? { content: [{ type: 'tool_use', id: 'toolu_list', name: 'records_list', input: { limit: 5 } }] } : { text: 'You have 3 records.' },
    );
    const result = await takeTurn({ ...base, history: [], text: 'how many records?' });

    expect(result.outcome).toBe('invoked');
    expect(rows().map((r) => r.kind)).toEqual(['user', 'invocation', 'assistant']);
    expect(rows()[1]).toMatchObject({ capability: 'records.list', args: { limit: 5 }, state: 'done' });
    const second = fake.requests[1]!.body;
    expect(second.messages.at(-2)).toEqual({ role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_list', name: 'records_list', input: { limit: 5 } }] });
    expect(second.messages.at(-1).content[0]).toMatchObject({
      type: 'tool_result', tool_use_id: 'toolu_list', content: [{ type: 'text', text: '3 records (limit 5).\nstructuredContent: {"count":3}' }],
    });
    expect(second.messages.at(-1).content[0].is_error).toBeUndefined();
    for (const r of fake.requests) expect(countBreakpoints(r.body)).toBeLessThanOrEqual(4);
    expect(fake.requests.map((r) => r.status)).toEqual([200, 200]);
  });

  it("streams a call's arguments (input_json_delta) into the card of the invocation it becomes, before it starts", async () => {
    const input = { limit: 5 };
    const { base, rows, log } = await setup((_r, i) =>
      i === 0 ? { content: [{ type: 'text', text: 'Listing them.' }, { type: 'tool_use', id: 'toolu_list', name: 'records_list', input }] } : { text: 'You have 3 records.' },
    );
    await takeTurn({ ...base, history: [], text: 'list the leads' });
    const events = log.since();
    const pieces = events.filter((e) => e.type === 'invocation.args.delta');
    const started = events.find((e) => e.type === 'capability.started')!;
    expect(pieces.length).toBeGreaterThan(0);
    expect(pieces.map((e) => e.delta).join('')).toBe(JSON.stringify(input));
    expect(pieces.every((e) => e.invocation_id === started.invocation_id && e.call_id === 'toolu_list' && e.capability === 'records.list' && e.title === 'List records')).toBe(true);
    expect(pieces.every((e) => e.seq < started.seq)).toBe(true);
    // Folded up to the first piece: the card is there, queued, with the JSON text so far.
    const first = foldAll(initialThreadState, events.filter((e) => e.seq <= pieces[0]!.seq)).rows.find((r) => r.kind === 'invocation');
    expect(first).toMatchObject({ id: started.invocation_id, state: 'queued', argsText: pieces[0]!.delta });
    // One card throughout, run with the final arguments.
    expect(rows().filter((r) => r.kind === 'invocation')).toEqual([expect.objectContaining({ id: started.invocation_id, args: input, state: 'done' })]);
  });

  it('sends a failed call back with is_error, so the model can correct itself', async () => {
    const { fake, base, rows } = await setup((_r, i) =>
      i === 0 ? { content: [{ type: 'tool_use', name: 'records_list', input: { limit: 500 } }] } : { text: 'Let me use a smaller limit.' },
    );
    await takeTurn({ ...base, history: [], text: 'list all records' });
    expect(rows()[1]).toMatchObject({ kind: 'invocation', state: 'failed', error: { code: 'invalid_arguments' } });
    const result = fake.requests[1]!.body.messages.at(-1).content[0];
    expect(result.is_error).toBe(true);
    expect(result.content[0].text).toBe('List records was not run: Limit must be 50 or less.');
  });

  it('breaks for confirmation on a destructive call, then approving runs it and the loop goes on', async () => {
    const { fake, base, rows } = await setup((_r, i) =>
      i === 0 ? { content: [{ type: 'tool_use', id: 'toolu_del', name: 'records_delete', input: { before: '2020' } }] } : { text: 'Deleted them.' },
    );
    const first = await takeTurn({ ...base, history: [], text: 'delete records before 2020' });
    expect(first.outcome).toBe('waiting');
    expect(fake.requests).toHaveLength(1);
    expect(rows().map((r) => r.kind)).toEqual(['user', 'approval']);

    await resumeTurn({ ...base, history: first.messages, waiting: first.waiting!, decision: 'approve' });
    expect(fake.requests).toHaveLength(2);
    expect(fake.requests[1]!.body.messages.at(-1).content[0]).toMatchObject({ tool_use_id: 'toolu_del', content: [{ text: 'Deleted 2 records.' }] });
    expect(rows().map((r) => r.kind)).toEqual(['user', 'approval', 'invocation', 'assistant']);
  });

  it('reports a denial back as an error result', async () => {
    const { fake, base } = await setup((_r, i) =>
      i === 0 ? { content: [{ type: 'tool_use', id: 'toolu_del', name: 'records_delete', input: { before: '2020' } }] } : { text: 'OK, I left them.' },
    );
    const first = await takeTurn({ ...base, history: [], text: 'delete records before 2020' });
    await resumeTurn({ ...base, history: first.messages, waiting: first.waiting!, decision: 'deny' });
    expect(fake.requests[1]!.body.messages.at(-1).content[0]).toMatchObject({
      tool_use_id: 'toolu_del', is_error: true, content: [{ text: 'The user denied Delete records; it was not run. Do not retry it.' }],
    });
  });

  it('maps the engine verbs: a proposal, a question and a standing request become their rows', async () => {
    const { base, rows } = await setup((_r, i) => {
      if (i === 0) return { content: [{ type: 'tool_use', name: 'propose_capability', input: { capability: 'records_list', arguments: { limit: 2 }, reason: 'To see them.' } }] };
      if (i === 1) return { content: [{ type: 'tool_use', name: 'ask_user', input: { question: 'Once or keep watching?', options: [{ label: 'Once', value: 'once' }, 'Keep watching'] } }] };
      if (i === 2) return { content: [{ type: 'tool_use', name: 'hand_off_standing_request', input: { request: 'watch new records', cadence: 'daily' } }] };
      return { text: 'Handed over.' };
    });
    const one = await takeTurn({ ...base, history: [], text: 'records?' });
    expect(rows().at(-1)).toMatchObject({ kind: 'proposal', capability: 'records.list', args: { limit: 2 }, reason: 'To see them.' });
    const two = await takeTurn({ ...base, history: one.messages, text: 'watch them' });
    expect(rows().at(-1)).toMatchObject({ kind: 'question', question: 'Once or keep watching?', options: [{ label: 'Once', value: 'once' }, { label: 'Keep watching', value: 'Keep watching' }] });
    await resumeTurn({ ...base, history: two.messages, waiting: two.waiting!, decision: 'answer', answer: 'Keep watching' });
    expect(rows().slice(-2)).toMatchObject([{ kind: 'standing', text: 'watch new records', cadence: 'daily' }, { kind: 'assistant', text: 'Handed over.' }]);
  });

  it('without thinking on, sends none and shows only the text (the API sends no thinking then)', async () => {
    const { base, rows, nextTurnWorks } = await setup(() => ({ content: [{ type: 'thinking', thinking: 'The user wants a greeting.' }, { type: 'text', text: 'Hello.' }] }));
    const result = await takeTurn({ ...base, history: [], text: 'hi' });
    expect((rows()[1] as AssistantRow).text).toBe('Hello.');
    await nextTurnWorks(result.messages);
  });

  it('Stop aborts the stream and closes the connection', async () => {
    const { fake, base, log, rows } = await setup(() => ({ hang: 'Thinking about it' }));
    const controller = new AbortController();
    const turn = takeTurn({ ...base, history: [], text: 'think', signal: controller.signal });
    await vi.waitFor(() => expect(log.since().some((e) => e.type === 'message.delta')).toBe(true));
    controller.abort();
    const result = await turn;

    await fake.settled(0);
    expect(fake.requests[0]!.closedEarly).toBe(true);
    expect(fake.requests).toHaveLength(1);
    expect(result.outcome).toBe('cancelled');
    expect(rows().map((r) => r.kind)).toEqual(['user', 'assistant', 'error']);
    expect(rows()[2]).toMatchObject({ code: 'cancelled' });
  });
});

describe('the Anthropic driver never poisons a thread', () => {
  it('whitespace-only text before a tool call is neither shown nor sent back', async () => {
    const { fake, base, rows, log, nextTurnWorks } = await setup((_r, i) =>
      i === 0 ? { content: [{ type: 'text', text: '\n\n' }, { type: 'tool_use', id: 'toolu_1', name: 'records_list', input: {} }] } : { text: 'You have 3 records.' },
    );
    const result = await takeTurn({ ...base, history: [], text: 'how many records?' });
    expect(rows().map((r) => r.kind)).toEqual(['user', 'invocation', 'assistant']);
    expect(log.since().filter((e) => e.type === 'message.created' && e.role === 'assistant')).toHaveLength(1);
    expect(fake.requests[1]!.status).toBe(200);
    expect(fake.requests[1]!.body.messages.at(-2)).toEqual({ role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'records_list', input: {} }] });
    expect(result.messages.find((m) => m.role === 'assistant')).toMatchObject({ text: '' });
    await nextTurnWorks(result.messages);
  });

  it('leading and trailing whitespace of a reply is held back; a text block after a tool call starts a new paragraph', async () => {
    const { base, rows, nextTurnWorks } = await setup((_r, i) =>
      i === 0
        ? { content: [{ type: 'text', text: '\n\nLet me look. ' }, { type: 'tool_use', name: 'records_list', input: {} }, { type: 'text', text: '\n' }] }
        : { content: [{ type: 'text', text: 'There are ' }, { type: 'text', text: '3 records.\n\n' }] },
    );
    const result = await takeTurn({ ...base, history: [], text: 'how many records?' });
    expect(assistantRows(rows()).map((r) => r.text)).toEqual(['Let me look.', 'There are 3 records.']);
    await nextTurnWorks(result.messages);
  });

  it('a history that already holds whitespace-only text or a cut call as a string is sent valid', async () => {
    const { fake, nextTurnWorks } = await setup(() => ({ text: 'unused' }));
    const poisoned: ModelMessage[] = [
      { role: 'user', text: 'note this' },
      { role: 'assistant', text: '\n\n', calls: [{ id: 'toolu_cut', capability: 'notes.add', args: '{"text": "hal' }] },
      { role: 'tool', call_id: 'toolu_cut', capability: 'notes.add', title: 'Add note', args: '{"text": "hal', result: { content: [{ type: 'text', text: 'Add note was not run: expected an object.' }], isError: true } },
      { role: 'assistant', text: '   ' },
      { role: 'user', text: '  ' },
      { role: 'assistant', text: 'Noted.' },
    ];
    const sent = await nextTurnWorks(poisoned);
    expect(textsOf(sent)).not.toContain('toolu_cut');
    expect(fake.requests).toHaveLength(1);
  });

  it('max_tokens inside a tool call: the partial call is dropped, the user is told plainly, and the next turn works', async () => {
    const { fake, base, rows, nextTurnWorks } = await setup(() => ({
      content: [{ type: 'text', text: 'I will save that note.' }, { type: 'tool_use', id: 'toolu_cut', name: 'notes_add', input: { text: 'a very long note '.repeat(20) }, partial: true }],
      stop_reason: 'max_tokens',
    }));
    const result = await takeTurn({ ...base, history: [], text: 'note this down for me' });
    expect(result.outcome).toBe('answered');
    // The call's card showed while the model wrote it, and ends unrun.
    expect(rows().map((r) => r.kind)).toEqual(['user', 'assistant', 'invocation']);
    expect(rows()[2]).toMatchObject({ capability: 'notes.add', state: 'cancelled', error: { code: 'not_run' } });
    expect((rows()[1] as AssistantRow).text).toBe('I will save that note.\n\nMy reply was cut off at the length limit before I could finish a step; ask me to go on.');
    expect(result.messages.at(-1)).toEqual({ role: 'assistant', text: (rows()[1] as AssistantRow).text });
    const sent = await nextTurnWorks(result.messages);
    expect(textsOf(sent)).not.toContain('toolu_cut');
    expect(fake.requests).toHaveLength(2);
  });

  it('max_tokens after a complete call and inside a second one: the complete call runs, the cut one is dropped', async () => {
    const { base, rows, nextTurnWorks } = await setup((_r, i) =>
      i === 0
        ? { content: [{ type: 'tool_use', id: 'toolu_ok', name: 'records_list', input: {} }, { type: 'tool_use', id: 'toolu_cut', name: 'notes_add', input: { text: 'long '.repeat(30) }, partial: true }], stop_reason: 'max_tokens' }
        : { text: 'There are 3 records.' },
    );
    const result = await takeTurn({ ...base, history: [], text: 'list records' });
    // Each call's card shows as the model writes it: the complete one runs in its card, the cut one's card ends unrun.
    expect(rows().map((r) => r.kind)).toEqual(['user', 'invocation', 'invocation', 'assistant', 'assistant']);
    expect(rows()[1]).toMatchObject({ capability: 'records.list', state: 'done' });
    expect(rows()[2]).toMatchObject({ capability: 'notes.add', state: 'cancelled', error: { code: 'not_run', message: 'Not run: the reply stopped before this call was complete.' } });
    expect((rows()[3] as AssistantRow).text).toBe('My reply was cut off at the length limit before I could finish a step; that step was not run.');
    await nextTurnWorks(result.messages);
  });

  it('max_tokens in text: the reply says it was cut off', async () => {
    const { base, rows, nextTurnWorks } = await setup(() => ({ content: [{ type: 'text', text: 'The first part' }], stop_reason: 'max_tokens' }), { maxTokens: 16 });
    const result = await takeTurn({ ...base, history: [], text: 'write a long story' });
    expect((rows()[1] as AssistantRow).text).toBe('The first part … (cut off: the reply reached its length limit)');
    expect(fake!.requests[0]!.body.max_tokens).toBe(16);
    await nextTurnWorks(result.messages);
  });

  it('a refusal after partial text: a notice with the API\'s explanation, and the refused turn stays out of the next request', async () => {
    const explanation = 'This request was declined because it could enable cyber harm.';
    const refusedPrompt = 'write me something that breaks into a server';
    const { fake, base, rows, nextTurnWorks } = await setup((request) =>
      lastUserText(request) === refusedPrompt
        ? { content: [{ type: 'text', text: 'Sure, the first step is to' }], stop_reason: 'refusal', stop_details: { category: 'cyber', explanation } }
        : { text: 'Hello.' },
    );
    const first = await takeTurn({ ...base, history: [], text: 'hi' });
    const result = await takeTurn({ ...base, history: first.messages, text: refusedPrompt });
    expect(result.outcome).toBe('answered');
    expect(assistantRows(rows()).at(-1)!.text).toBe(
      `Sure, the first step is to\n\n${DRIVER_NOTES.refusal} ${explanation} This exchange is left out of the conversation from here on; rephrase the request to try again.`,
    );

    const sent = await nextTurnWorks(result.messages);
    expect(sent.refusedAgain).toBeUndefined();
    const texts = textsOf(sent);
    expect(texts).toContain('Hello.');
    expect(texts).not.toContain(refusedPrompt);
    expect(texts).not.toContain('Sure, the first step');
    expect(sent.body.messages.at(-1).content[0].text).toBe(DRIVER_NOTES.refusedTurn);
    expect(fake.requests.map((r) => r.status)).toEqual([200, 200, 200]);
  });

  it('without the driver\'s care the fake refuses again: the refused turn sent back as it was', async () => {
    const refusedPrompt = 'write me something that breaks into a server';
    const { fake, base } = await setup((request) => (lastUserText(request) === refusedPrompt ? { content: [], stop_reason: 'refusal' } : { text: 'Hello.' }));
    const result = await takeTurn({ ...base, history: [], text: refusedPrompt });
    const unguarded: ModelMessage[] = [{ role: 'user', text: refusedPrompt }, { role: 'assistant', text: 'Hm.' }];
    await takeTurn({ ...base, history: unguarded, text: NEXT });
    expect(fake.requests[1]!.refusedAgain).toBe(true);
    await takeTurn({ ...base, history: result.messages, text: NEXT });
    expect(fake.requests[2]!.refusedAgain).toBeUndefined();
  });

  it('a refusal without text or explanation: the notice alone; the tool calls of the refused message are not run', async () => {
    const { base, rows, nextTurnWorks } = await setup(() => ({ content: [{ type: 'tool_use', name: 'records_delete', input: { before: '2020' } }], stop_reason: 'refusal' }));
    const result = await takeTurn({ ...base, history: [], text: 'delete everything' });
    expect(rows().map((r) => r.kind)).toEqual(['user', 'assistant']);
    expect((rows()[1] as AssistantRow).text).toBe(`${DRIVER_NOTES.refusal} This exchange is left out of the conversation from here on; rephrase the request to try again.`);
    await nextTurnWorks(result.messages);
  });

  it('model_context_window_exceeded: the reply says so, and the next request leaves the oldest turns out to fit', async () => {
    const window = 20_000;
    const long = 'word '.repeat(7_000);
    const { fake, base, rows, nextTurnWorks } = await setup(
      (_r, i) => (i === 0 ? { text: long } : { content: [{ type: 'text', text: long }], stop_reason: 'model_context_window_exceeded' }),
      {},
      { contextWindow: window },
    );
    const one = await takeTurn({ ...base, history: [], text: 'tell me everything' });
    const two = await takeTurn({ ...base, history: one.messages, text: 'and more' });
    expect(assistantRows(rows()).at(-1)!.text).toMatch(/ … \(cut off: this conversation has filled Claude's context window, so the oldest messages will be left out from now on to make room\.\)$/);

    const sent = await nextTurnWorks(two.messages);
    expect(sent.body.messages[0].content[0].text).toBe(DRIVER_NOTES.trimmed);
    expect(sent.usage!.total_tokens).toBeLessThanOrEqual(window);
    expect(promptBlocks(sent.body).blocks.join('')).not.toContain('tell me everything');
    expect(fake.requests.map((r) => r.status)).toEqual([200, 200, 200]);
  });

  it('"prompt is too long" although the driver expected it to fit: it takes the API\'s numbers, leaves older turns out and tries again', async () => {
    const long = 'word '.repeat(12_000);
    const { fake, base, rows } = await setup((_r, i) => (i < 2 ? { text: long } : { text: 'Short answer.' }), {}, { contextWindow: 20_000 });
    const one = await takeTurn({ ...base, history: [], text: 'first' });
    const two = await takeTurn({ ...base, history: one.messages, text: 'second' });
    const three = await takeTurn({ ...base, history: two.messages, text: 'third' });
    expect(three.outcome).toBe('answered');
    expect(fake.requests.map((r) => r.status)).toEqual([200, 200, 400, 200]);
    expect(fake.requests[2]!.error!.message).toMatch(/^prompt is too long: \d+ tokens > 20000 maximum$/);
    expect(fake.requests[3]!.body.messages[0].content[0].text).toBe(DRIVER_NOTES.trimmed);
    expect(errorRow(rows())).toBeUndefined();
    expect(assistantRows(rows()).at(-1)!.text).toBe('Short answer.');
  });

  it('pause_turn is continued: the paused content goes back as it was and the reply goes on in the same message', async () => {
    const { fake, base, rows, nextTurnWorks } = await setup((request, i) => {
      if (i === 0) {
        return {
          content: [
            { type: 'text', text: 'Searching the web. ' },
            { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: { query: 'records' } },
            { type: 'web_search_tool_result', tool_use_id: 'srvtoolu_1', content: [{ type: 'web_search_result', url: 'https://example.com', title: 'Example', encrypted_content: 'abc' }] },
          ],
          stop_reason: 'pause_turn',
        };
      }
      expect(request.body.messages.at(-1).role).toBe('assistant');
      return { text: 'Found one source.' };
    });
    const result = await takeTurn({ ...base, history: [], text: 'search for records' });
    expect(fake.requests.map((r) => r.status)).toEqual([200, 200]);
    expect(fake.requests[1]!.body.messages.at(-1).content).toEqual([
      { type: 'text', text: 'Searching the web. ' },
      { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: { query: 'records' } },
      { type: 'web_search_tool_result', tool_use_id: 'srvtoolu_1', content: [{ type: 'web_search_result', url: 'https://example.com', title: 'Example', encrypted_content: 'abc' }] },
    ]);
    expect(rows().map((r) => r.kind)).toEqual(['user', 'assistant']);
    expect((rows()[1] as AssistantRow).text).toBe('Searching the web. Found one source.');
    const usage = (rows()[1] as AssistantRow).usage!;
    expect(usage.input_tokens).toBe(fake.requests[0]!.usage!.input_tokens + fake.requests[1]!.usage!.input_tokens);
    await nextTurnWorks(result.messages);
  });
});

describe('the Anthropic driver: retries, and rows that say what really happened', () => {
  it('401: a bad key, not retried, the message kept', async () => {
    const { fake, base, rows } = await setup(() => ({ text: 'never' }), { apiKey: 'sk-wrong' });
    await takeTurn({ ...base, history: [], text: 'Summarise my notes' });
    expect(fake.requests).toHaveLength(1);
    expect(rows()[0]).toMatchObject({ kind: 'user', text: 'Summarise my notes' });
    expect(errorRow(rows())).toMatchObject({
      code: 'auth_failed', recoverable: false,
      message: 'Claude did not accept the API key (401: invalid x-api-key). Set a valid ANTHROPIC_API_KEY on the server and restart it.',
    });
  });

  it('429: retried with the API\'s retry-after, then the row says to wait and what was tried', async () => {
    const { fake, base, rows } = await setup(() => ({ status: 429, message: 'Number of requests has exceeded your rate limit.', retryAfterMs: 1 }));
    await takeTurn({ ...base, history: [], text: 'hi' });
    expect(fake.requests).toHaveLength(3);
    expect(errorRow(rows())).toMatchObject({
      code: 'rate_limited', recoverable: true,
      message: 'Claude is rate-limiting this API key (429: Number of requests has exceeded your rate limit.); tried 3 times (429, 429, 429). Wait a minute, then retry.',
    });
  });

  it('429 once: the retry succeeds and the user sees only the answer', async () => {
    const { fake, base, rows } = await setup((_r, i) => (i === 0 ? { status: 429, retryAfterMs: 1 } : { text: 'Fine now.' }));
    await takeTurn({ ...base, history: [], text: 'hi' });
    expect(fake.requests).toHaveLength(2);
    expect(rows().map((r) => r.kind)).toEqual(['user', 'assistant']);
  });

  it('529 every time: overloaded, tried 3 times, and the thread still takes its next turn', async () => {
    const { fake, base, rows, nextTurnWorks } = await setup(() => ({ status: 529, message: 'Overloaded', retryAfterMs: 1 }));
    const result = await takeTurn({ ...base, history: [], text: 'hi' });
    expect(fake.requests).toHaveLength(3);
    expect(errorRow(rows())).toMatchObject({ code: 'overloaded', recoverable: true, message: 'Claude is overloaded right now (529: Overloaded); tried 3 times (529, 529, 529). Try again in a minute.' });
    await nextTurnWorks(result.messages);
  });

  it('waits as long as retry-after says before trying again', async () => {
    const { fake, base, rows } = await setup((_r, i) => (i === 0 ? { status: 529, message: 'Overloaded', retryAfter: 0.15 } : { text: 'Made it.' }));
    const started = Date.now();
    await takeTurn({ ...base, history: [], text: 'hi' });
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
    expect(fake.requests).toHaveLength(2);
    expect(assistantRows(rows()).at(-1)!.text).toBe('Made it.');
  });

  it('a retry-after longer than the driver waits: not retried, and the row says how long the API asked for', async () => {
    const { fake, base, rows } = await setup(() => ({ status: 529, message: 'Overloaded', retryAfter: 120 }));
    await takeTurn({ ...base, history: [], text: 'hi' });
    expect(fake.requests).toHaveLength(1);
    expect(errorRow(rows())!.message).toBe('Claude is overloaded right now (529: Overloaded); the API asked to wait 120 s, longer than this server waits, so it was not retried. Try again in a minute.');
  });

  it('a 500 is retried; x-should-retry: false is obeyed', async () => {
    const { fake, base, rows } = await setup((_r, i) => (i === 0 ? { status: 500, message: 'Internal server error' } : i === 1 ? { text: 'Recovered.' } : { status: 503, shouldRetry: false }));
    const one = await takeTurn({ ...base, history: [], text: 'hi' });
    expect(assistantRows(rows()).at(-1)!.text).toBe('Recovered.');
    await takeTurn({ ...base, history: one.messages, text: 'again' });
    expect(fake.requests).toHaveLength(3);
    expect(errorRow(rows())).toMatchObject({ code: 'api_error', message: 'The Anthropic API failed (503: Fake 503.). Try again.' });
  });

  it('maxRetries 0: the row says it was not retried', async () => {
    const { fake, base, rows } = await setup(() => ({ status: 529, message: 'Overloaded' }), { maxRetries: 0 });
    await takeTurn({ ...base, history: [], text: 'hi' });
    expect(fake.requests).toHaveLength(1);
    expect(errorRow(rows())!.message).toBe('Claude is overloaded right now (529: Overloaded); not retried (retries are off). Try again in a minute.');
  });

  it('overloaded mid-stream before any text: retried, and the user sees only the answer', async () => {
    const { fake, base, rows } = await setup((_r, i) => (i === 0 ? { streamError: { type: 'overloaded_error', message: 'Overloaded' } } : { text: 'All good.' }));
    await takeTurn({ ...base, history: [], text: 'hi' });
    expect(fake.requests).toHaveLength(2);
    expect(rows().map((r) => r.kind)).toEqual(['user', 'assistant']);
    expect((rows()[1] as AssistantRow).text).toBe('All good.');
  });

  it('overloaded mid-reply after some text: the reply starts again, marked, and the broken start stays out of later requests', async () => {
    const { fake, base, rows, nextTurnWorks } = await setup((_r, i) =>
      i === 0 ? { text: 'Here is the start', streamError: { type: 'overloaded_error', message: 'Overloaded' } } : { text: 'Here is the whole answer.' },
    );
    const result = await takeTurn({ ...base, history: [], text: 'hi' });
    expect(rows().map((r) => r.kind)).toEqual(['user', 'assistant']);
    expect((rows()[1] as AssistantRow)).toMatchObject({ status: 'done', text: `Here is the start\n\n${DRIVER_NOTES.restart}\n\nHere is the whole answer.` });
    const sent = await nextTurnWorks(result.messages);
    expect(sent.body.messages[1]).toEqual({ role: 'assistant', content: [{ type: 'text', text: 'Here is the whole answer.', cache_control: { type: 'ephemeral' } }] });
    expect(fake.requests).toHaveLength(3);
  });

  it('overloaded mid-reply every time: the row says it was mid-reply (no 529) and how often it was tried; the next turn works', async () => {
    const { fake, base, rows, nextTurnWorks } = await setup(() => ({ text: 'Here is the start', streamError: { type: 'overloaded_error', message: 'Overloaded' } }));
    const result = await takeTurn({ ...base, history: [], text: 'hi' });
    expect(fake.requests).toHaveLength(3);
    expect(rows().map((r) => r.kind)).toEqual(['user', 'assistant', 'error']);
    expect(rows()[1]).toMatchObject({ status: 'error' });
    const error = errorRow(rows())!;
    expect(error).toMatchObject({
      code: 'overloaded',
      message: 'Claude was overloaded mid-reply (an overloaded_error in the stream: Overloaded); tried 3 times (overloaded mid-reply, overloaded mid-reply, overloaded mid-reply). Try again in a minute.',
    });
    expect(error.message).not.toContain('529');
    await nextTurnWorks(result.messages);
  });

  it('a connection dropped mid-reply (no message_stop) is retried', async () => {
    const { fake, base, rows } = await setup((_r, i) => (i === 0 ? { disconnect: '' } : { text: 'Complete.' }));
    await takeTurn({ ...base, history: [], text: 'hi' });
    expect(fake.requests).toHaveLength(2);
    expect(assistantRows(rows()).map((r) => r.text)).toEqual(['Complete.']);
  });

  it('a connection reset mid-reply is retried, and named as such when it keeps happening', async () => {
    const { fake, base, rows } = await setup((_r, i) => (i === 0 ? { reset: 'Half of' } : i === 1 ? { text: 'Whole.' } : { reset: 'Again half' }));
    const one = await takeTurn({ ...base, history: [], text: 'hi' });
    expect(fake.requests).toHaveLength(2);
    expect(assistantRows(rows()).at(-1)!.text).toBe(`Half of\n\n${DRIVER_NOTES.restart}\n\nWhole.`);
    await takeTurn({ ...base, history: one.messages, text: 'again' });
    expect(errorRow(rows())).toMatchObject({ code: 'api_error', message: expect.stringMatching(/was lost before the reply ended; tried 3 times \(connection lost mid-reply, connection lost mid-reply, connection lost mid-reply\)\. Try again\.$/) });
  });

  it('an invalid request (a 400) is not retried', async () => {
    const { fake, base, rows } = await setup(() => ({ status: 400, message: 'messages: something the fake was told to reject' }));
    await takeTurn({ ...base, history: [], text: 'hi' });
    expect(fake.requests).toHaveLength(1);
    expect(errorRow(rows())).toMatchObject({ code: 'bad_request', message: 'Claude refused the request (400: messages: something the fake was told to reject).' });
  });

  it('an unreachable API', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const driver = createAnthropicDriver({ apiKey: 'sk-any', baseURL: `http://127.0.0.1:${port}`, maxRetries: 1, retryDelayMs: 1 });
    const log = createEventLog();
    await takeTurn({ driver, capabilities: [], history: [], emit: log.emit, invoke: vi.fn(), text: 'hi' });
    const error = foldAll(initialThreadState, log.since()).rows[1] as ErrorRow;
    expect(error.code).toBe('api_unreachable');
    expect(error.message).toContain(`Could not reach the Anthropic API at http://127.0.0.1:${port}`);
    expect(error.message).toContain('tried 2 times (no connection, no connection)');
    expect(error.recoverable).toBe(true);
  });
});

describe('the Anthropic driver in a workspace: model selection and a cached prefix', () => {
  const capabilities = [
    defineCapability({ name: 'records.list', title: 'List records', description: 'Lists the records.', input: z.object({}), handler: () => textResult('3 records.') }),
    defineCapability({ name: 'crm.export', title: 'Export to CRM', description: 'Sends records to the CRM.', kind: 'mutate', annotations: { destructiveHint: false }, input: z.object({}), handler: () => textResult('ok') }),
  ];

  it('asks for the model the composer selected', async () => {
    fake = await startFakeAnthropic({ reply: () => ({ text: 'ok' }) });
    const ws = createLocalWorkspace({ capabilities, driver: createAnthropicDriver({ apiKey: fake.apiKey, baseURL: fake.url }) });
    await ws.send({ threadId: 't', text: 'hi' });
    ws.setComposer({ threadId: 't', composer: { modelName: 'claude-opus-4-8' } });
    await ws.send({ threadId: 't', text: 'again' });
    expect(fake.requests.map((r) => r.body.model)).toEqual(['claude-sonnet-5-5', 'claude-opus-4-8']);
    expect(ws.manifest.driver).toEqual({ id: 'anthropic', label: 'Claude' });
  });

  it('keeps the cached prefix byte-identical while the whitelist stays, and reads it from cache', async () => {
    fake = await startFakeAnthropic({ reply: (_r, i) => ({ text: `Answer ${i + 1}.` }), minCacheTokens: 200 });
    const ws = createLocalWorkspace({
      capabilities,
      driver: createAnthropicDriver({ apiKey: fake.apiKey, baseURL: fake.url }),
      reminders: 'Amounts are in EUR.',
      anticipation: { 'record_list::none': [{ capability: 'records.list', hint: 'See the records' }] },
      whitelist: ({ view }) => (view?.kind === 'record_list' ? ['records.list'] : undefined),
    });
    const events: ThreadEvent[] = [];
    ws.subscribe('t', (e) => events.push(e));
    for (const text of ['one', 'two', 'three']) await ws.send({ threadId: 't', text });
    ws.setView({ threadId: 't', view: { kind: 'record_list' } });
    await ws.send({ threadId: 't', text: 'four' });
    await ws.send({ threadId: 't', text: 'five' });

    const prefix = (i: number) => {
      const { blocks, breakpoints } = promptBlocks(fake!.requests[i]!.body);
      return blocks.slice(0, Math.max(...breakpoints) + 1);
    };
    expect(prefix(2).slice(0, prefix(1).length)).toEqual(prefix(1));
    const head = (i: number) => fake!.requests[i]!.raw.split('"messages":')[0];
    expect(head(1)).toBe(head(0));
    expect(head(2)).toBe(head(0));
    expect(head(3)).not.toBe(head(2));

    const reads = fake.requests.map((r) => r.usage!.cache_read_input_tokens);
    expect(reads[0]).toBe(0);
    expect(reads[1]).toBeGreaterThan(0);
    expect(reads[2]).toBeGreaterThan(reads[1]!);
    expect(reads[3]).toBe(0);
    expect(reads[4]).toBeGreaterThan(0);
    expect(fake.requests[3]!.body.messages.at(-1).content[0].text).toContain('See the records');

    const rows = foldAll(initialThreadState, events).rows.filter((r): r is AssistantRow => r.kind === 'assistant');
    expect(rows.map((r) => r.usage?.cache_read_input_tokens)).toEqual(reads);
  });
});

describe('createAnthropicDriver: extended thinking', () => {
  const THINKING: AnthropicDriverOptions = { maxTokens: 4096, thinking: { type: 'enabled', budget_tokens: 2048 } };
  const assistantOf = (request: RecordedRequest, n = 0) => request.body.messages.filter((m: { role: string }) => m.role === 'assistant')[n];

  it('refuses a budget the API would refuse, naming the fix', () => {
    expect(() => createAnthropicDriver({ apiKey: 'k', thinking: { type: 'enabled', budget_tokens: 1000 } })).toThrow(/budget_tokens must be a whole number of at least 1024/);
    expect(() => createAnthropicDriver({ apiKey: 'k', maxTokens: 2048, thinking: { type: 'enabled', budget_tokens: 2048 } })).toThrow(/must be below maxTokens \(2048\)/);
    expect(() => createAnthropicDriver({ apiKey: 'k', thinking: { type: 'disabled' } })).not.toThrow();
  });

  it('streams the reasoning into its reply row, then the text; the next request carries the thinking block with its signature', async () => {
    const { fake, base, log, rows, nextTurnWorks } = await setup(() => ({ content: [{ type: 'thinking', thinking: 'The user wants a greeting.' }, { type: 'text', text: 'Hello.' }] }), THINKING);
    const result = await takeTurn({ ...base, history: [], text: 'hi' });
    const body = fake.requests[0]!.body;
    expect(body.thinking).toEqual({ type: 'enabled', budget_tokens: 2048 });
    expect(body).not.toHaveProperty('temperature');
    expect(body).not.toHaveProperty('tool_choice');
    const types = log.since().map((e) => e.type).filter((t) => t.startsWith('message.') || t.startsWith('reasoning.'));
    expect(types.indexOf('reasoning.delta')).toBeGreaterThan(types.indexOf('message.created'));
    expect(types.indexOf('reasoning.done')).toBeLessThan(types.indexOf('message.delta'));
    const row = rows()[1] as AssistantRow;
    expect(row).toMatchObject({ text: 'Hello.', status: 'done', reasoning: { text: 'The user wants a greeting.', status: 'done' } });
    expect(row.reasoning!.redacted).toBeUndefined();
    const said = result.messages.at(-1) as Extract<ModelMessage, { role: 'assistant' }>;
    expect(said.thinking).toEqual([{ type: 'thinking', thinking: 'The user wants a greeting.', signature: expect.stringMatching(/^fake_sig_/) }]);
    const next = await nextTurnWorks(result.messages);
    expect(assistantOf(next).content[0]).toEqual(said.thinking![0]);
    expect(assistantOf(next).content[1]).toMatchObject({ type: 'text', text: 'Hello.' });
  });

  it('sends the tool loop\'s thinking back unmodified before its tool_use, which the fake checks', async () => {
    const { fake, base, rows, nextTurnWorks } = await setup(
      (_request, index) =>
        index === 0
          ? { content: [{ type: 'thinking', thinking: 'I should list them.' }, { type: 'tool_use', name: 'records_list', input: {} }] }
          : { content: [{ type: 'text', text: 'There are 3.' }] },
      THINKING,
    );
    const result = await takeTurn({ ...base, history: [], text: 'how many records' });
    expect(fake.requests.map((r) => r.error ?? r.status)).toEqual([200, 200]);
    const loop = assistantOf(fake.requests[1]!);
    expect(loop.content.map((b: { type: string }) => b.type)).toEqual(['thinking', 'tool_use']);
    expect(loop.content[0]).toEqual({ type: 'thinking', thinking: 'I should list them.', signature: expect.stringMatching(/^fake_sig_/) });
    expect(rows().filter((r) => r.kind === 'assistant')).toMatchObject([{ text: '', reasoning: { text: 'I should list them.', status: 'done' } }, { text: 'There are 3.' }]);
    await nextTurnWorks(result.messages);
  });

  it('shows redacted thinking as such and sends its data back', async () => {
    const { base, rows, nextTurnWorks } = await setup(() => ({ content: [{ type: 'redacted_thinking' }, { type: 'text', text: 'Done.' }] }), THINKING);
    const result = await takeTurn({ ...base, history: [], text: 'hi' });
    expect(rows()[1]).toMatchObject({ text: 'Done.', reasoning: { text: '', status: 'done', redacted: true } });
    const next = await nextTurnWorks(result.messages);
    expect(assistantOf(next).content[0]).toEqual({ type: 'redacted_thinking', data: expect.stringMatching(/^fake_redacted_/) });
  });

  it('a thread whose loop lost its thinking is refused by the fake as by the API', async () => {
    const { fake, base } = await setup(() => ({ text: 'unused' }), THINKING);
    const history: ModelMessage[] = [
      { role: 'user', text: 'how many records' },
      { role: 'assistant', text: '', calls: [{ id: 'toolu_x', capability: 'records.list', args: {} }] },
      { role: 'tool', call_id: 'toolu_x', capability: 'records.list', title: 'List records', args: {}, result: textResult('3 records.') },
    ];
    await base.driver.respond({ messages: history, capabilities: base.capabilities, signal: new AbortController().signal })[Symbol.asyncIterator]().next().catch(() => undefined);
    expect(fake.requests[0]!.error?.message).toMatch(/Expected `thinking` or `redacted_thinking`, but found `tool_use`/);
  });
});
