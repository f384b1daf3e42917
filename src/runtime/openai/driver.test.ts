import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { defineCapability } from '../capability';
import { textResult } from '../results';
import { createEventLog } from '../eventLog';
import { foldAll, initialThreadState, type AssistantRow, type ErrorRow } from '../fold';
import { invoke } from '../invoke';
import type { ModelMessage } from '../model';
import { startFakeOpenAI, type FakeOpenAI, type FakeOpenAIOptions, type RecordedOpenAIRequest } from '../node/fakeOpenAI';
import { createRegistry } from '../registry';
import { resumeTurn, takeTurn } from '../turn';
import { createOpenAIDriver, type OpenAIDriverOptions } from './driver';
import { OPENAI_NOTES } from './request';

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

let fake: FakeOpenAI | null = null;
afterEach(async () => {
  // Whatever a test did, the driver never sent what the API refuses.
  if (fake) expect(fake.rejections().map((r) => r.error?.message)).toEqual([]);
  await fake?.close();
  fake = null;
});

const NEXT = 'And now, something simple?';
const NEXT_ANSWER = 'Back on track.';

function lastUserText(request: RecordedOpenAIRequest): string {
  const last = [...(request.body?.messages ?? [])].reverse().find((m: { role: string }) => m.role === 'user');
  return typeof last?.content === 'string' ? last.content : '';
}

async function setup(reply: FakeOpenAIOptions['reply'], driverOptions: Partial<OpenAIDriverOptions> = {}, fakeOptions: FakeOpenAIOptions = {}) {
  const script = reply ?? (() => ({ text: 'ok' }));
  fake = await startFakeOpenAI({
    ...fakeOptions,
    reply: (request, index) => (lastUserText(request).endsWith(NEXT) ? { text: NEXT_ANSWER } : script(request, index)),
  });
  const driver = createOpenAIDriver({ apiKey: fake.apiKey ?? undefined, baseURL: fake.url, model: 'gpt-fake', retryDelayMs: 1, ...driverOptions });
  const log = createEventLog({ now: () => 1 });
  const base = {
    driver,
    capabilities: registry.describe(),
    emit: log.emit,
    alignment: 'loose' as const,
    invoke: (capability: string, args: unknown, turnId: string) => invoke(capability, args, { registry, emit: log.emit, threadKey: 't1', turnId }),
  };
  const rows = () => foldAll(initialThreadState, log.since()).rows;
  /** The thread takes its next turn: the fake accepts the request and the user sees the answer. */
  const nextTurnWorks = async (history: readonly ModelMessage[]) => {
    const before = fake!.requests.length;
    const result = await takeTurn({ ...base, history, text: NEXT });
    expect(fake!.requests.slice(before).map((r) => r.error?.message ?? r.status)).toEqual([200]);
    expect(result.outcome).toBe('answered');
    expect(rows().at(-1)).toMatchObject({ kind: 'assistant', text: NEXT_ANSWER, status: 'done' });
    return fake!.requests.at(-1)!;
  };
  return { fake, driver, log, base, rows, nextTurnWorks };
}

const errorRow = (rows: readonly unknown[]) => rows.find((r) => (r as ErrorRow).kind === 'error') as ErrorRow | undefined;
const assistantRows = (rows: readonly unknown[]) => rows.filter((r): r is AssistantRow => (r as AssistantRow).kind === 'assistant');

describe('the OpenAI-compatible driver on the real SDK, against the contract fake', () => {
  it('streams text as message.delta events; the row names the model and carries the usage', async () => {
    const { fake, base, rows, log } = await setup(() => ({ text: 'Hello there, how can I help?' }), {}, { delayMs: 20 });
    const result = await takeTurn({ ...base, history: [], text: 'hi' });
    expect(result.outcome).toBe('answered');
    expect(log.since().filter((e) => e.type === 'message.delta').length).toBeGreaterThan(3);
    const reply = rows()[1] as AssistantRow;
    expect(reply).toMatchObject({ text: 'Hello there, how can I help?', status: 'done', driver: { id: 'openai', label: 'gpt-fake' } });
    const usage = fake.requests[0]!.usage!;
    expect(reply.usage).toEqual({ input_tokens: usage.prompt_tokens, output_tokens: usage.completion_tokens, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 });
    const sent = fake.requests[0]!;
    expect(sent.headers.authorization).toBe(`Bearer ${fake.apiKey}`);
    expect(sent.body).toMatchObject({ model: 'gpt-fake', stream: true, stream_options: { include_usage: true } });
    expect(sent.body.messages[0].role).toBe('system');
    expect(sent.body.tools.map((t: { function: { name: string } }) => t.function.name)).toEqual(['propose_capability', 'ask_user', 'hand_off_standing_request', 'notes_add', 'records_delete', 'records_list']);
  });

  it('a local server with no key: no Authorization header is sent', async () => {
    const { fake, base, rows } = await setup(() => ({ text: 'Local answer.' }), { apiKey: undefined }, { apiKey: null });
    vi.stubEnv('OPENAI_API_KEY', '');
    await takeTurn({ ...base, history: [], text: 'hi' });
    vi.unstubAllEnvs();
    expect(fake.requests[0]!.headers.authorization).toBeUndefined();
    expect(assistantRows(rows()).at(-1)!.text).toBe('Local answer.');
  });

  it('a tool call whose arguments arrive in pieces runs; its result goes back as a tool message and the model answers', async () => {
    const { fake, base, rows } = await setup((_r, i) =>
      i === 0 ? { toolCalls: [{ id: 'call_list', name: 'records_list', arguments: { limit: 5 } }], argumentPieces: 4 } : { text: 'You have 3 records.' },
    );
    const result = await takeTurn({ ...base, history: [], text: 'how many records?' });
    expect(result.outcome).toBe('invoked');
    expect(rows().map((r) => r.kind)).toEqual(['user', 'invocation', 'assistant']);
    expect(rows()[1]).toMatchObject({ capability: 'records.list', args: { limit: 5 }, state: 'done' });
    const second = fake.requests[1]!.body.messages;
    expect(second.at(-2)).toEqual({ role: 'assistant', content: null, tool_calls: [{ id: 'call_list', type: 'function', function: { name: 'records_list', arguments: '{"limit":5}' } }] });
    expect(second.at(-1)).toEqual({ role: 'tool', tool_call_id: 'call_list', content: '3 records (limit 5).\nstructuredContent: {"count":3}' });
  });

  it('parallel calls in one reply: each runs, and every call is answered in order in the next request', async () => {
    const { fake, base, rows } = await setup((_r, i) =>
      i === 0
        ? { text: 'Checking two things.', toolCalls: [{ id: 'call_a', name: 'records_list', arguments: { limit: 1 } }, { id: 'call_b', name: 'records_list', arguments: { limit: 2 } }] }
        : { text: 'Both done.' },
    );
    await takeTurn({ ...base, history: [], text: 'list twice' });
    const invocations = rows().filter((r) => r.kind === 'invocation');
    expect(invocations).toHaveLength(2);
    expect(invocations.map((r) => (r as { args: unknown }).args)).toEqual([{ limit: 1 }, { limit: 2 }]);
    const messages = fake.requests.at(-1)!.body.messages;
    const at = messages.findIndex((m: { tool_calls?: unknown }) => m.tool_calls);
    expect(messages[at].content).toBe('Checking two things.');
    expect(messages.slice(at + 1, at + 3).map((m: { tool_call_id: string }) => m.tool_call_id)).toEqual(['call_a', 'call_b']);
    expect(assistantRows(rows()).at(-1)!.text).toBe('Both done.');
  });

  it('an approval: a destructive call waits; approving runs it and the next request answers the call', async () => {
    const { fake, base, rows, nextTurnWorks } = await setup((_r, i) =>
      i === 0 ? { toolCalls: [{ id: 'call_del', name: 'records_delete', arguments: { before: '2020' } }] } : { text: 'Deleted them.' },
    );
    const first = await takeTurn({ ...base, history: [], text: 'delete records before 2020' });
    expect(first.outcome).toBe('waiting');
    expect(rows().map((r) => r.kind)).toEqual(['user', 'approval']);
    const resumed = await resumeTurn({ ...base, history: first.messages, waiting: first.waiting!, decision: 'approve' });
    expect(fake.requests[1]!.body.messages.at(-1)).toEqual({ role: 'tool', tool_call_id: 'call_del', content: 'Deleted 2 records.' });
    expect(rows().map((r) => r.kind)).toEqual(['user', 'approval', 'invocation', 'assistant']);
    await nextTurnWorks(resumed.messages);
  });

  it('maps the engine verbs: a proposal, a question and a standing request become their rows', async () => {
    const { base, rows } = await setup((_r, i) => {
      if (i === 0) return { toolCalls: [{ name: 'propose_capability', arguments: { capability: 'records_list', arguments: { limit: 2 }, reason: 'To see them.' } }] };
      if (i === 1) return { toolCalls: [{ name: 'ask_user', arguments: { question: 'Once or keep watching?', options: [{ label: 'Once', value: 'once' }, 'Keep watching'] } }] };
      if (i === 2) return { toolCalls: [{ name: 'hand_off_standing_request', arguments: { request: 'watch new records', cadence: 'daily' } }] };
      return { text: 'Handed over.' };
    });
    const one = await takeTurn({ ...base, history: [], text: 'records?' });
    expect(rows().at(-1)).toMatchObject({ kind: 'proposal', capability: 'records.list', args: { limit: 2 }, reason: 'To see them.' });
    const two = await takeTurn({ ...base, history: one.messages, text: 'watch them' });
    expect(rows().at(-1)).toMatchObject({ kind: 'question', question: 'Once or keep watching?' });
    await resumeTurn({ ...base, history: two.messages, waiting: two.waiting!, decision: 'answer', answer: 'Keep watching' });
    expect(rows().slice(-2)).toMatchObject([{ kind: 'standing', text: 'watch new records', cadence: 'daily' }, { kind: 'assistant', text: 'Handed over.' }]);
  });

  it('cached prompt tokens land on the row as the cache read, the rest as input', async () => {
    const { fake, base, rows } = await setup(() => ({ text: 'Sure.' }));
    const long = 'Here is some background the user pasted. '.repeat(200);
    const one = await takeTurn({ ...base, history: [], text: long });
    await takeTurn({ ...base, history: one.messages, text: 'and again' });
    const second = fake.requests[1]!.usage!;
    expect(second.cached_tokens).toBeGreaterThanOrEqual(1024);
    expect(assistantRows(rows()).at(-1)!.usage).toEqual({
      input_tokens: second.prompt_tokens - second.cached_tokens,
      output_tokens: second.completion_tokens,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: second.cached_tokens,
    });
  });

  it('asks for the model the composer selected', async () => {
    const { fake, base } = await setup(() => ({ text: 'ok' }), { models: ['gpt-fake-mini'] }, { models: ['gpt-fake', 'gpt-fake-mini'] });
    await takeTurn({ ...base, model: 'gpt-fake-mini', history: [], text: 'hi' } as never);
    expect(fake.requests[0]!.body.model).toBe('gpt-fake-mini');
  });

  it('Stop mid-reply aborts the stream, closes the connection, and the next turn works', async () => {
    const { fake, base, log, rows, nextTurnWorks } = await setup(() => ({ text: 'Thinking about it slowly', hang: true }));
    const controller = new AbortController();
    const turn = takeTurn({ ...base, history: [], text: 'think', signal: controller.signal });
    await vi.waitFor(() => expect(log.since().some((e) => e.type === 'message.delta')).toBe(true));
    controller.abort();
    const result = await turn;
    await fake.settled(0);
    expect(fake.requests[0]!.closedEarly).toBe(true);
    expect(result.outcome).toBe('cancelled');
    expect(rows().map((r) => r.kind)).toEqual(['user', 'assistant', 'error']);
    expect(rows()[2]).toMatchObject({ code: 'cancelled' });
    await nextTurnWorks(result.messages);
  });

  it('Stop while a tool call streams: the half call is never sent back, and the next turn works', async () => {
    const { fake, base, log, nextTurnWorks } = await setup(() => ({ text: 'Saving it.', toolCalls: [{ id: 'call_half', name: 'notes_add', arguments: { text: 'half' } }], hang: true }));
    const controller = new AbortController();
    const turn = takeTurn({ ...base, history: [], text: 'note half', signal: controller.signal });
    await vi.waitFor(() => expect(log.since().some((e) => e.type === 'message.delta')).toBe(true));
    await new Promise((resolve) => setTimeout(resolve, 30));
    controller.abort();
    const result = await turn;
    await fake.settled(0);
    const sent = await nextTurnWorks(result.messages);
    expect(JSON.stringify(sent.body.messages)).not.toContain('call_half');
  });
});

describe('the OpenAI-compatible driver never sends what the API refuses', () => {
  it('a history that holds a cut call, a result with no call, an unanswered call and blank text is sent valid', async () => {
    const { fake, nextTurnWorks } = await setup(() => ({ text: 'unused' }));
    const poisoned: ModelMessage[] = [
      { role: 'user', text: 'note this' },
      { role: 'assistant', text: '\n\n', calls: [{ id: 'call_cut', capability: 'notes.add', args: '{"text": "hal' }] },
      { role: 'tool', call_id: 'call_cut', capability: 'notes.add', title: 'Add note', args: '{"text": "hal', result: { content: [{ type: 'text', text: 'not run' }], isError: true } },
      { role: 'tool', call_id: 'call_stray', capability: 'records.list', title: 'List records', args: {}, result: { content: [{ type: 'text', text: '3 records.' }] } },
      { role: 'assistant', text: '', calls: [{ id: 'call_open', capability: 'records.list', args: {} }] },
      { role: 'user', text: 'hello?' },
      { role: 'assistant', text: 'The first half of a reply', calls: [{ id: 'call_again', capability: 'records.list', args: {} }] },
      { role: 'tool', call_id: 'call_open', capability: 'records.list', title: 'List records', args: {}, result: { content: [{ type: 'text', text: 'late' }] } },
      { role: 'assistant', text: '   ' },
      { role: 'user', text: '  ' },
    ];
    const sent = await nextTurnWorks(poisoned);
    const messages = JSON.stringify(sent.body.messages);
    expect(messages).not.toContain('call_cut');
    expect(messages).not.toContain('call_stray');
    expect(sent.body.messages.find((m: { tool_call_id?: string }) => m.tool_call_id === 'call_open')).toEqual({ role: 'tool', tool_call_id: 'call_open', content: 'Not run.' });
    expect(fake.requests).toHaveLength(1);
  });

  it('a history rebuilt after a restart mid-turn (a cut reply, a call never run) is sent valid', async () => {
    const { nextTurnWorks } = await setup(() => ({ text: 'unused' }));
    const rebuilt: ModelMessage[] = [
      { role: 'user', text: 'delete old records' },
      { role: 'assistant', text: '', calls: [{ id: 'call_wait', capability: 'records.delete', args: { before: '2020' } }] },
      { role: 'user', text: 'talk to me' },
      { role: 'assistant', text: 'word0 word1 word2' },
    ];
    const sent = await nextTurnWorks(rebuilt);
    expect(sent.body.messages.map((m: { role: string }) => m.role)).toEqual(['system', 'user', 'assistant', 'tool', 'user', 'assistant', 'user']);
  });

  it('a length limit inside a tool call: the cut call is dropped, the user is told plainly, and the next turn works', async () => {
    const { base, rows, nextTurnWorks } = await setup(() => ({ text: 'I will save that note.', toolCalls: [{ name: 'notes_add', arguments: '{"text": "a very long no' }], finish: 'length' }));
    const result = await takeTurn({ ...base, history: [], text: 'note this down' });
    expect(rows().filter((r) => r.kind === 'invocation')).toHaveLength(0);
    expect(assistantRows(rows()).at(-1)!.text).toBe('I will save that note.\n\nMy reply was cut off at the length limit before I could finish a step; ask me to go on.');
    await nextTurnWorks(result.messages);
  });

  it('a length limit in text: the reply says it was cut off', async () => {
    const { base, rows } = await setup(() => ({ text: 'The answer is', finish: 'length' }));
    await takeTurn({ ...base, history: [], text: 'tell me' });
    expect(assistantRows(rows()).at(-1)!.text).toBe('The answer is … (cut off: the reply reached its length limit)');
  });
});

describe('the OpenAI-compatible driver: errors in plain words', () => {
  it('401: a bad key, not retried', async () => {
    const { fake, base, rows } = await setup(() => ({ text: 'never' }), { apiKey: 'sk-wrong-key-1234' });
    await takeTurn({ ...base, history: [], text: 'hi' });
    expect(fake.requests).toHaveLength(1);
    expect(errorRow(rows())).toMatchObject({
      code: 'auth_failed', recoverable: false,
      message: `The model server at ${fake.url} did not accept the API key (401: Incorrect API key provided: sk-***1234. You can find your API key at https://platform.openai.com/account/api-keys.). Set a valid OPENAI_API_KEY on the server and restart it.`,
    });
  });

  it('404: an unknown model, named', async () => {
    const { fake, base, rows } = await setup(() => ({ text: 'never' }), { model: 'gpt-nope' });
    await takeTurn({ ...base, history: [], text: 'hi' });
    expect(fake.requests).toHaveLength(1);
    expect(errorRow(rows())).toMatchObject({
      code: 'model_not_found',
      message: `The model server at ${fake.url} does not know the model "gpt-nope" (404: The model \`gpt-nope\` does not exist or you do not have access to it.). Choose another model, or set OPENAI_MODEL to one it serves.`,
    });
  });

  it('429: retried after retry-after, then the row says to wait and what was tried', async () => {
    const { fake, base, rows } = await setup(() => ({ status: 429, message: 'Rate limit reached for gpt-fake.', retryAfter: 0.01 }));
    await takeTurn({ ...base, history: [], text: 'hi' });
    expect(fake.requests).toHaveLength(3);
    expect(errorRow(rows())).toMatchObject({
      code: 'rate_limited', recoverable: true,
      message: `The model server at ${fake.url} is rate-limiting this API key (429: Rate limit reached for gpt-fake.); tried 3 times (429, 429, 429). Wait a minute, then retry.`,
    });
  });

  it('waits as long as retry-after says; a longer wait than the driver allows is not retried', async () => {
    const { fake, base, rows } = await setup((_r, i) => (i === 0 ? { status: 429, retryAfter: 0.15 } : i === 1 ? { text: 'Made it.' } : { status: 429, retryAfter: 120 }));
    const started = Date.now();
    const one = await takeTurn({ ...base, history: [], text: 'hi' });
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
    expect(assistantRows(rows()).at(-1)!.text).toBe('Made it.');
    await takeTurn({ ...base, history: one.messages, text: 'again' });
    expect(fake.requests).toHaveLength(3);
    expect(errorRow(rows())!.message).toContain('the server asked to wait 120 s, longer than this server waits, so it was not retried');
  });

  it('5xx: retried; every time, the row says so and the next turn works', async () => {
    const { fake, base, rows, nextTurnWorks } = await setup(() => ({ status: 503 }));
    const result = await takeTurn({ ...base, history: [], text: 'hi' });
    expect(fake.requests).toHaveLength(3);
    expect(errorRow(rows())).toMatchObject({
      code: 'overloaded',
      message: `The model server at ${fake.url} failed (503: The server had an error while processing your request. Sorry about that!); tried 3 times (503, 503, 503). Try again in a minute.`,
    });
    await nextTurnWorks(result.messages);
  });

  it('an error in the stream after some text: the reply starts again, marked, and the broken start stays out of later requests', async () => {
    const { fake, base, rows, nextTurnWorks } = await setup((_r, i) =>
      i === 0 ? { text: 'Here is the start', errorAfter: { chunks: 3, message: 'The server had an error.' } } : { text: 'Here is the whole answer.' },
    );
    const result = await takeTurn({ ...base, history: [], text: 'hi' });
    expect((rows()[1] as AssistantRow)).toMatchObject({ status: 'done', text: `Here is\n\n${OPENAI_NOTES.restart}\n\nHere is the whole answer.` });
    const sent = await nextTurnWorks(result.messages);
    expect(sent.body.messages[2]).toEqual({ role: 'assistant', content: 'Here is the whole answer.' });
    expect(fake.requests).toHaveLength(3);
  });

  it('a connection cut mid-reply is retried', async () => {
    const { fake, base, rows } = await setup((_r, i) => (i === 0 ? { text: 'Half of it', cutAfter: 2 } : { text: 'Complete.' }));
    await takeTurn({ ...base, history: [], text: 'hi' });
    expect(fake.requests).toHaveLength(2);
    expect(assistantRows(rows()).at(-1)!.text).toMatch(/Complete\.$/);
  });

  it('context length exceeded: the older turns are left out and it is tried again; a message that alone is too long is said plainly', async () => {
    const { fake, base, rows } = await setup(() => ({ text: 'Fits now.' }), { contextWindow: 1_000_000 }, { contextWindow: 3_000 });
    const history: ModelMessage[] = Array.from({ length: 12 }, (_, i): ModelMessage[] => [
      { role: 'user', text: `question ${i} ${'filler '.repeat(200)}` },
      { role: 'assistant', text: `answer ${i}` },
    ]).flat();
    await takeTurn({ ...base, history, text: 'short question' });
    expect(fake.requests.map((r) => r.status)).toEqual([400, 200]);
    expect(fake.requests[0]!.error!.code).toBe('context_length_exceeded');
    expect(fake.requests[1]!.body.messages[1].content).toContain(OPENAI_NOTES.trimmed);
    expect(assistantRows(rows()).at(-1)!.text).toBe('Fits now.');

    await takeTurn({ ...base, history: [], text: 'x'.repeat(20_000) });
    expect(errorRow(rows())).toMatchObject({ code: 'context_window_exceeded', message: expect.stringMatching(/^The conversation does not fit gpt-fake's context window \(400: This model's maximum context length is 3000 tokens\./) });
  });

  it('llama.cpp\'s context refusal, which names no numbers: older turns are left out and it is tried again', async () => {
    const { fake, base, rows } = await setup((_r, i) =>
      i === 0 ? { status: 400, type: 'exceed_context_size_error', message: 'the request exceeds the available context size, try increasing it' } : { text: 'Fits now.' },
      { contextWindow: 20_000 },
    );
    const history: ModelMessage[] = Array.from({ length: 8 }, (_, i): ModelMessage[] => [
      { role: 'user', text: `question ${i} ${'filler '.repeat(400)}` },
      { role: 'assistant', text: `answer ${i}` },
    ]).flat();
    await takeTurn({ ...base, history, text: 'short question' });
    expect(fake.requests.map((r) => r.status)).toEqual([400, 200]);
    expect(fake.requests[1]!.body.messages[1].content).toContain(OPENAI_NOTES.trimmed);
    expect(assistantRows(rows()).at(-1)!.text).toBe('Fits now.');
  });

  it('an unreachable server', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const driver = createOpenAIDriver({ apiKey: 'sk-any', baseURL: `http://127.0.0.1:${port}/v1`, model: 'm', maxRetries: 1, retryDelayMs: 1 });
    const log = createEventLog();
    await takeTurn({ driver, capabilities: [], history: [], emit: log.emit, invoke: vi.fn(), text: 'hi' });
    const error = foldAll(initialThreadState, log.since()).rows[1] as ErrorRow;
    expect(error.code).toBe('api_unreachable');
    expect(error.message).toContain(`Could not reach the model server at http://127.0.0.1:${port}/v1`);
    expect(error.message).toContain('tried 2 times (no connection, no connection)');
  });
});
