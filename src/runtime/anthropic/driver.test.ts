import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { createLocalWorkspace } from '../../workspace/localWorkspace';
import { defineCapability } from '../capability';
import { textResult } from '../envelope';
import { createEventLog } from '../eventLog';
import type { ThreadEvent } from '../events';
import { foldAll, initialThreadState, type AssistantRow, type ErrorRow } from '../fold';
import { invoke } from '../invoke';
import { startFakeAnthropic, type FakeAnthropic, type FakeAnthropicOptions } from '../node/fakeAnthropic';
import { promptBlocks } from '../node/fakeAnthropicCache';
import { createRegistry } from '../registry';
import { resumeTurn, takeTurn } from '../turn';
import { createAnthropicDriver, type AnthropicDriverOptions } from './driver';
import { countBreakpoints } from './request';

const registry = createRegistry([
  defineCapability({
    name: 'records.list', title: 'List records', description: 'Lists the records.', input: z.object({ limit: z.number().int().max(50).optional() }),
    handler: ({ limit }) => textResult(`3 records (limit ${limit ?? 'none'}).`, { count: 3 }),
  }),
  defineCapability({
    name: 'records.delete', title: 'Delete records', description: 'Deletes records.', kind: 'mutate', input: z.object({ before: z.string() }),
    handler: () => textResult('Deleted 2 records.'),
  }),
]);

let fake: FakeAnthropic | null = null;
afterEach(async () => {
  await fake?.close();
  fake = null;
});

async function setup(reply: FakeAnthropicOptions['reply'], driverOptions: AnthropicDriverOptions = {}, fakeOptions: FakeAnthropicOptions = {}) {
  fake = await startFakeAnthropic({ reply, minCacheTokens: 200, ...fakeOptions });
  const driver = createAnthropicDriver({ apiKey: fake.apiKey, baseURL: fake.url, ...driverOptions });
  const log = createEventLog({ now: () => 1 });
  const base = {
    driver,
    capabilities: registry.describe(),
    emit: log.emit,
    alignment: 'loose' as const,
    invoke: (capability: string, args: unknown, turnId: string) => invoke(capability, args, { registry, emit: log.emit, threadId: 't1', turnId }),
  };
  const rows = () => foldAll(initialThreadState, log.since()).rows;
  return { fake, driver, log, base, rows };
}

describe('the Anthropic driver on the real SDK, against a fake Messages API', () => {
  it('streams text as message.delta events and records usage on the row', async () => {
    const { fake, base, rows, log } = await setup(() => ({ text: 'Hello there, how can I help?' }));
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
    expect(sent.body).toMatchObject({ model: 'claude-sonnet-5-5', stream: true });
  });

  it('runs a tool-use loop: the result goes back as tool_result and the model answers', async () => {
    const { fake, base, rows } = await setup((request, i) =>
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
  });

  it('sends a failed call back with is_error, so the model can correct itself', async () => {
    const { fake, base, rows } = await setup((_r, i) =>
      i === 0 ? { content: [{ type: 'tool_use', name: 'records_list', input: { limit: 500 } }] } : { text: 'Let me use a smaller limit.' },
    );
    await takeTurn({ ...base, history: [], text: 'list all records' });
    expect(rows()[1]).toMatchObject({ kind: 'invocation', state: 'error', error: { code: 'invalid_arguments' } });
    const result = fake.requests[1]!.body.messages.at(-1).content[0];
    expect(result.is_error).toBe(true);
    expect(result.content[0].text).toMatch(/^List records was not run: limit:/);
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

  it('says when a reply was cut off at its length limit', async () => {
    const { base, rows } = await setup(() => ({ content: [{ type: 'text', text: 'The first part' }], stop_reason: 'max_tokens' }), { maxTokens: 16 });
    await takeTurn({ ...base, history: [], text: 'write a long story' });
    expect((rows()[1] as AssistantRow).text).toBe('The first part … (cut off: the reply reached its length limit)');
    expect(fake!.requests[0]!.body.max_tokens).toBe(16);
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
    expect(result.outcome).toBe('stopped');
    expect(rows().map((r) => r.kind)).toEqual(['user', 'assistant', 'error']);
    expect(rows()[2]).toMatchObject({ code: 'stopped' });
  });
});

describe('the Anthropic driver: clear rows for API failures', () => {
  const failure = async (rowsOf: () => readonly unknown[]) => rowsOf().find((r) => (r as ErrorRow).kind === 'error') as ErrorRow;

  it('401: a bad key, not retried, the message kept', async () => {
    const { fake, base, rows } = await setup(() => ({ text: 'never' }), { apiKey: 'sk-wrong' });
    await takeTurn({ ...base, history: [], text: 'Summarise my notes' });
    expect(fake.requests).toHaveLength(1);
    expect(rows()[0]).toMatchObject({ kind: 'user', text: 'Summarise my notes' });
    expect(await failure(rows)).toMatchObject({
      code: 'auth_failed', recoverable: false,
      message: 'Claude did not accept the API key (401: invalid x-api-key). Set a valid ANTHROPIC_API_KEY on the server and restart it.',
    });
  });

  it('429: the SDK retries, then the row says to wait', async () => {
    const { fake, base, rows } = await setup(() => ({ status: 429, message: 'Number of requests has exceeded your rate limit.', retryAfterMs: 1 }));
    await takeTurn({ ...base, history: [], text: 'hi' });
    expect(fake.requests).toHaveLength(3);
    expect(await failure(rows)).toMatchObject({
      code: 'rate_limited', recoverable: true,
      message: 'Claude is rate-limiting this API key (429: Number of requests has exceeded your rate limit.) and the retries ran out. Wait a minute, then retry.',
    });
  });

  it('429 once: the retry succeeds and the user sees only the answer', async () => {
    const { fake, base, rows } = await setup((_r, i) => (i === 0 ? { status: 429, retryAfterMs: 1 } : { text: 'Fine now.' }));
    await takeTurn({ ...base, history: [], text: 'hi' });
    expect(fake.requests).toHaveLength(2);
    expect(rows().map((r) => r.kind)).toEqual(['user', 'assistant']);
  });

  it('529: overloaded after the retries', async () => {
    const { fake, base, rows } = await setup(() => ({ status: 529, message: 'Overloaded', retryAfterMs: 1 }));
    await takeTurn({ ...base, history: [], text: 'hi' });
    expect(fake.requests).toHaveLength(3);
    expect(await failure(rows)).toMatchObject({ code: 'overloaded', recoverable: true, message: 'Claude is overloaded right now (529: Overloaded) and the retries ran out. Try again in a minute.' });
  });

  it('overloaded in the middle of a reply: the partial reply is marked failed and the row says why', async () => {
    const { base, rows } = await setup(() => ({ text: 'Here is the start', streamError: { type: 'overloaded_error', message: 'Overloaded' } }));
    await takeTurn({ ...base, history: [], text: 'hi' });
    expect(rows().map((r) => r.kind)).toEqual(['user', 'assistant', 'error']);
    expect(rows()[1]).toMatchObject({ text: 'Here is the start', status: 'error' });
    expect(rows()[2]).toMatchObject({ code: 'overloaded' });
  });

  it('an unreachable API', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const driver = createAnthropicDriver({ apiKey: 'sk-any', baseURL: `http://127.0.0.1:${port}`, maxRetries: 0 });
    const log = createEventLog();
    await takeTurn({ driver, capabilities: [], history: [], emit: log.emit, invoke: vi.fn(), text: 'hi' });
    const error = foldAll(initialThreadState, log.since()).rows[1] as ErrorRow;
    expect(error.code).toBe('api_unreachable');
    expect(error.message).toContain(`Could not reach the Anthropic API at http://127.0.0.1:${port}`);
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
