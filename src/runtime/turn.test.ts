import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { defineCapability } from './capability';
import { type CapabilityResult } from './envelope';
import { resultText, textResult } from './results';
import { createEventLog } from './eventLog';
import { foldAll, initialThreadState, type AssistantRow, type ErrorRow, type InvocationRow, type UserRow } from './fold';
import { invoke } from './invoke';
import type { DriverChunk, ModelDriver, ModelMessage, ModelRequest } from './model';
import { createOfflineDriver } from './offlineDriver';
import { createRegistry } from './registry';
import { runTurn } from './turn';

const add = defineCapability({
  name: 'math.add',
  title: 'Add',
  description: 'Adds two numbers.',
  input: z.object({ a: z.number(), b: z.number() }),
  handler: ({ a, b }) => textResult(String(a + b), { sum: a + b }),
});

describe('runTurn with the offline driver', () => {
  it('shows the user row, then the assistant reply streamed in pieces', async () => {
    const log = createEventLog({ now: () => 1 });
    const registry = createRegistry([add]);
    const messages = await runTurn({
      text: 'hello',
      driver: createOfflineDriver({ delayMs: 0 }),
      capabilities: registry.describe(),
      history: [],
      emit: log.emit,
      invoke: vi.fn(),
      turnId: 'turn1',
    });

    // The model's conversation is logged beside the transcript: the user's message, then the reply.
    expect(log.since().filter((e) => e.type === 'model.message').map((e) => e.type === 'model.message' && e.message)).toEqual(messages);
    const events = log.since().filter((e) => e.type !== 'model.message');
    const deltas = events.filter((e) => e.type === 'message.delta');
    expect(deltas.length).toBeGreaterThan(1);
    expect(events[0]).toMatchObject({ type: 'message.created', role: 'user', text: 'hello', turn_id: 'turn1' });
    expect(events[1]).toMatchObject({ type: 'turn.started', turn_id: 'turn1', driver: { id: 'offline' } });
    expect(events[2]).toMatchObject({ type: 'message.created', role: 'assistant', text: '', turn_id: 'turn1' });
    expect(events.at(-2)?.type).toBe('message.done');
    expect(events.at(-1)).toMatchObject({ type: 'turn.done', turn_id: 'turn1', outcome: 'answered' });

    const state = foldAll(initialThreadState, events);
    expect(state.rows).toHaveLength(2);
    expect(state.rows[0]).toMatchObject({ kind: 'user', text: 'hello' });
    const reply = state.rows[1] as AssistantRow;
    expect(reply.status).toBe('done');
    expect(reply.text).toBe('Hello! Ask “what can you do?” to see what I can run.');
    expect(reply.driver).toEqual({ id: 'offline', label: 'Offline model' });
    expect(reply.turn_id).toBe('turn1');
    expect(messages).toEqual([
      { role: 'user', text: 'hello' },
      { role: 'assistant', text: reply.text },
    ]);
  });

  it('runs a capability the user names, then answers with its result', async () => {
    const log = createEventLog({ now: () => 1 });
    const registry = createRegistry([add]);
    const messages = await runTurn({
      text: 'add a=2 b=3',
      driver: createOfflineDriver({ delayMs: 0 }),
      capabilities: registry.describe(),
      history: [],
      emit: log.emit,
      invoke: (capability, args, turnId) => invoke(capability, args, { registry, emit: log.emit, threadKey: 't1', turnId }),
      turnId: 'turn1',
    });

    const state = foldAll(initialThreadState, log.since());
    expect(state.rows.map((r) => r.kind)).toEqual(['user', 'invocation', 'assistant']);
    expect(state.rows[1]).toMatchObject({ title: 'Add', args: { a: 2, b: 3 }, state: 'done', result: textResult('5', { sum: 5 }) });
    expect(state.rows[2]).toMatchObject({ kind: 'assistant', text: 'Add: 5.', status: 'done' });
    expect(state.lastCapability).toBe('math.add');
    expect(state.open).toEqual({});
    expect(log.since().find((e) => e.type === 'capability.started')).toMatchObject({ turn_id: 'turn1' });
    const call = messages[1]!.role === 'assistant' ? messages[1]!.calls?.[0] : undefined;
    expect(call).toMatchObject({ capability: 'math.add', args: { a: 2, b: 3 } });
    expect(messages).toEqual([
      { role: 'user', text: 'add a=2 b=3' },
      { role: 'assistant', text: '', calls: [call] },
      { role: 'tool', call_id: call!.id, capability: 'math.add', title: 'Add', args: { a: 2, b: 3 }, result: textResult('5', { sum: 5 }) },
      { role: 'assistant', text: 'Add: 5.' },
    ]);
  });

  it('explains in words when the capability rejects the arguments', async () => {
    const log = createEventLog({ now: () => 1 });
    const registry = createRegistry([add]);
    await runTurn({
      text: 'add a=two b=3',
      driver: createOfflineDriver({ delayMs: 0 }),
      capabilities: registry.describe(),
      history: [],
      emit: log.emit,
      invoke: (capability, args, turnId) => invoke(capability, args, { registry, emit: log.emit, threadKey: 't1', turnId }),
    });

    const state = foldAll(initialThreadState, log.since());
    expect(state.rows.map((r) => r.kind)).toEqual(['user', 'invocation', 'assistant']);
    const card = state.rows[1] as InvocationRow;
    expect(card.state).toBe('failed');
    expect(card.error?.code).toBe('invalid_arguments');
    expect(card.error?.issues?.map((i) => i.path)).toEqual(['a']);
    const reply = state.rows[2] as AssistantRow;
    expect(reply.text).toBe('Add was not run: A must be a number.');
    expect(state.lastCapability).toBeNull();
  });
});

describe('runTurn with scripted drivers', () => {
  it('passes the tool result back to the model on the next step', async () => {
    const requests: ModelMessage[][] = [];
    const driver: ModelDriver = {
      info: { id: 'script', label: 'Script' },
      async *respond(request: ModelRequest): AsyncIterable<DriverChunk> {
        requests.push([...request.messages]);
        if (requests.length === 1) {
          yield { type: 'invoke', capability: 'math.add', args: { a: 1, b: 1 } };
        } else {
          yield { type: 'text', text: 'Two.' };
        }
      },
    };
    const invokeSpy = vi.fn(async (): Promise<CapabilityResult> => textResult('2'));
    const log = createEventLog({ now: () => 1 });
    await runTurn({
      text: 'what is 1+1',
      driver,
      capabilities: createRegistry([add]).describe(),
      history: [{ role: 'user', text: 'hi' }, { role: 'assistant', text: 'Hello!' }],
      emit: log.emit,
      invoke: invokeSpy,
      turnId: 'turn7',
      alignment: 'loose',
    });

    expect(invokeSpy).toHaveBeenCalledTimes(1);
    expect(invokeSpy).toHaveBeenCalledWith('math.add', { a: 1, b: 1 }, 'turn7', expect.any(String));
    expect(requests).toHaveLength(2);
    expect(requests[0]).toEqual([
      { role: 'user', text: 'hi' },
      { role: 'assistant', text: 'Hello!' },
      { role: 'user', text: 'what is 1+1' },
    ]);
    expect(requests[1]?.at(-1)).toEqual({
      role: 'tool', call_id: expect.stringMatching(/^call_/), capability: 'math.add', title: 'Add', args: { a: 1, b: 1 }, result: textResult('2'),
    });
    const state = foldAll(initialThreadState, log.since());
    expect(state.rows.map((r) => r.kind)).toEqual(['user', 'assistant']);
    expect((state.rows[1] as AssistantRow).text).toBe('Two.');
  });

  it('does not change the history it is given', async () => {
    const history: ModelMessage[] = [{ role: 'user', text: 'earlier' }];
    const driver: ModelDriver = {
      info: { id: 'script', label: 'Script' },
      async *respond() {
        yield { type: 'text', text: 'ok' };
      },
    };
    const log = createEventLog();
    const messages = await runTurn({ text: 'now', driver, capabilities: [], history, emit: log.emit, invoke: vi.fn() });
    expect(history).toEqual([{ role: 'user', text: 'earlier' }]);
    expect(messages).toEqual([
      { role: 'user', text: 'earlier' },
      { role: 'user', text: 'now' },
      { role: 'assistant', text: 'ok' },
    ]);
  });

  it('runs every capability asked for in one step, in order, and tells the model about one it does not have', async () => {
    let step = 0;
    const seen: ModelMessage[][] = [];
    const driver: ModelDriver = {
      info: { id: 'script', label: 'Script' },
      async *respond({ messages }) {
        step++;
        seen.push([...messages]);
        if (step === 1) {
          yield { type: 'invoke', capability: 'math.add', args: { a: 1, b: 2 } };
          yield { type: 'invoke', capability: 'other.thing', args: {} };
          yield { type: 'invoke', capability: 'math.add', args: { a: 3, b: 4 } };
        } else {
          yield { type: 'text', text: 'Done.' };
        }
      },
    };
    const calls: unknown[] = [];
    const log = createEventLog();
    const messages = await runTurn({
      text: 'go', driver, capabilities: createRegistry([add]).describe(), history: [], emit: log.emit, alignment: 'loose',
      invoke: async (capability, args) => {
        calls.push(args);
        return textResult(capability);
      },
    });
    expect(calls).toEqual([{ a: 1, b: 2 }, { a: 3, b: 4 }]);
    expect(messages.map((m) => (m.role === 'tool' ? `tool:${m.title}${m.result.isError ? ':error' : ''}` : m.role))).toEqual([
      'user', 'assistant', 'tool:Add', 'tool:other.thing:error', 'tool:Add', 'assistant',
    ]);
    const refused = seen[1]!.find((m) => m.role === 'tool' && m.capability === 'other.thing');
    expect(refused?.role === 'tool' && resultText(refused.result)).toBe('No capability named "other.thing" is available here. Available: math.add.');
    const state = foldAll(initialThreadState, log.since());
    expect(state.rows.map((r) => (r.kind === 'assistant' ? r.text : r.kind))).toEqual(['user', 'Done.']);
  });

  it('a driver that throws becomes a model_error row, and the user message stays', async () => {
    const driver: ModelDriver = {
      info: { id: 'claude', label: 'Claude' },
      // eslint-disable-next-line require-yield
      async *respond(): AsyncIterable<DriverChunk> {
        throw new Error('401 invalid x-api-key');
      },
    };
    const log = createEventLog();
    const messages = await runTurn({
      text: 'Summarise my notes', driver, capabilities: [], history: [], emit: log.emit, invoke: vi.fn(), turnId: 'turn1',
    });

    const state = foldAll(initialThreadState, log.since());
    expect(state.rows).toHaveLength(2);
    expect(state.rows[0]).toMatchObject({ kind: 'user', text: 'Summarise my notes' } satisfies Partial<UserRow>);
    expect(state.rows[1]).toMatchObject({
      kind: 'error', code: 'model_error', message: 'Claude failed: 401 invalid x-api-key', recoverable: true,
    } satisfies Partial<ErrorRow>);
    expect(log.since().at(-2)).toMatchObject({ type: 'turn.error', turn_id: 'turn1' });
    expect(log.since().at(-1)).toMatchObject({ type: 'turn.done', turn_id: 'turn1', outcome: 'failed' });
    expect(messages).toEqual([{ role: 'user', text: 'Summarise my notes' }]);
  });

  it('a driver that throws mid-reply leaves the partial reply marked as failed', async () => {
    const driver: ModelDriver = {
      info: { id: 'claude', label: 'Claude' },
      async *respond(): AsyncIterable<DriverChunk> {
        yield { type: 'text', text: 'Here is the ' };
        throw new Error('overloaded');
      },
    };
    const log = createEventLog();
    await runTurn({ text: 'hi', driver, capabilities: [], history: [], emit: log.emit, invoke: vi.fn() });

    const state = foldAll(initialThreadState, log.since());
    expect(state.rows.map((r) => r.kind)).toEqual(['user', 'assistant', 'error']);
    expect(state.rows[1]).toMatchObject({ text: 'Here is the ', status: 'error' });
    expect(state.rows[2]).toMatchObject({ code: 'model_error', message: 'Claude failed: overloaded' });
  });

  it('stopping mid-reply keeps what was said and adds a stopped row', async () => {
    const controller = new AbortController();
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const driver: ModelDriver = {
      info: { id: 'script', label: 'Script' },
      async *respond(): AsyncIterable<DriverChunk> {
        yield { type: 'text', text: 'Once upon ' };
        await gate;
        yield { type: 'text', text: 'a time' };
        yield { type: 'invoke', capability: 'math.add', args: { a: 1, b: 2 } };
      },
    };
    const invokeSpy = vi.fn();
    const log = createEventLog();
    const turn = runTurn({
      text: 'tell a story', driver, capabilities: [], history: [], emit: log.emit, invoke: invokeSpy,
      signal: controller.signal, turnId: 'turn1',
    });
    await vi.waitFor(() => expect(log.since().some((e) => e.type === 'message.delta')).toBe(true));
    controller.abort();
    release();
    const messages = await turn;

    expect(invokeSpy).not.toHaveBeenCalled();
    const state = foldAll(initialThreadState, log.since());
    expect(state.rows.map((r) => r.kind)).toEqual(['user', 'assistant', 'error']);
    expect(state.rows[0]).toMatchObject({ text: 'tell a story' });
    expect((state.rows[1] as AssistantRow).text).toBe('Once upon ');
    expect((state.rows[1] as AssistantRow).status).not.toBe('streaming');
    expect(state.rows[2]).toMatchObject({ code: 'cancelled', recoverable: true });
    expect(messages.at(-1)).toEqual({ role: 'assistant', text: 'Once upon ' });
  });

  it('stopping a driver that throws when aborted still says stopped, not a model error', async () => {
    const controller = new AbortController();
    const driver: ModelDriver = {
      info: { id: 'claude', label: 'Claude' },
      async *respond({ signal }): AsyncIterable<DriverChunk> {
        yield { type: 'text', text: 'Thinking' };
        // Like a real HTTP client: the pending request rejects when its signal aborts.
        await new Promise((_resolve, reject) => {
          signal.addEventListener('abort', () => reject(new Error('Request was aborted.')), { once: true });
        });
      },
    };
    const log = createEventLog();
    const turn = runTurn({
      text: 'hi', driver, capabilities: [], history: [], emit: log.emit, invoke: vi.fn(), signal: controller.signal,
    });
    await vi.waitFor(() => expect(log.since().some((e) => e.type === 'message.delta')).toBe(true));
    controller.abort();
    await turn;

    const state = foldAll(initialThreadState, log.since());
    const errors = state.rows.filter((r) => r.kind === 'error') as ErrorRow[];
    expect(errors.map((r) => r.code)).toEqual(['cancelled']);
    expect(state.rows[0]).toMatchObject({ kind: 'user', text: 'hi' });
    expect(state.rows[1]).toMatchObject({ kind: 'assistant', text: 'Thinking' });
  });

  it('a turn already stopped before it starts keeps the user message and says stopped', async () => {
    const controller = new AbortController();
    controller.abort();
    const log = createEventLog();
    await runTurn({
      text: 'hello', driver: createOfflineDriver({ delayMs: 0 }), capabilities: [], history: [], emit: log.emit,
      invoke: vi.fn(), signal: controller.signal,
    });
    const state = foldAll(initialThreadState, log.since());
    expect(state.rows.map((r) => r.kind)).toEqual(['user', 'error']);
    expect(state.rows[1]).toMatchObject({ code: 'cancelled' });
  });

  it('gives up with too_many_steps when the model keeps asking for capabilities', async () => {
    const respond = vi.fn(async function* (): AsyncIterable<DriverChunk> {
      yield { type: 'invoke', capability: 'math.add', args: { a: 1, b: 1 } };
    });
    const driver: ModelDriver = { info: { id: 'loop', label: 'Loop' }, respond };
    const invokeSpy = vi.fn(async () => textResult('2'));
    const log = createEventLog();
    await runTurn({
      text: 'loop forever', driver, capabilities: createRegistry([add]).describe(), history: [], emit: log.emit, invoke: invokeSpy, maxSteps: 3, turnId: 'turn1', alignment: 'loose',
    });

    expect(respond).toHaveBeenCalledTimes(3);
    expect(invokeSpy).toHaveBeenCalledTimes(3);
    const state = foldAll(initialThreadState, log.since());
    expect(state.rows.map((r) => r.kind)).toEqual(['user', 'error']);
    expect(state.rows[1]).toMatchObject({
      code: 'too_many_steps',
      recoverable: true,
      message: 'The model asked for more than 3 steps in one turn, so the turn was ended.',
    });
  });

  it('defaults to at most 8 steps', async () => {
    const respond = vi.fn(async function* (): AsyncIterable<DriverChunk> {
      yield { type: 'invoke', capability: 'x', args: {} };
    });
    const log = createEventLog();
    await runTurn({
      text: 'go', driver: { info: { id: 'loop', label: 'Loop' }, respond }, capabilities: [], history: [], emit: log.emit,
      invoke: async () => textResult(''),
    });
    expect(respond).toHaveBeenCalledTimes(8);
    expect(log.since().at(-2)).toMatchObject({ type: 'turn.error', code: 'too_many_steps' });
    expect(log.since().at(-1)).toMatchObject({ type: 'turn.done', outcome: 'failed' });
  });

  it('makes up a turn_ id when none is given and puts it on every event of the turn', async () => {
    const driver: ModelDriver = {
      info: { id: 'script', label: 'Script' },
      async *respond() {
        yield { type: 'text', text: 'ok' };
      },
    };
    const log = createEventLog();
    await runTurn({ text: 'hi', driver, capabilities: [], history: [], emit: log.emit, invoke: vi.fn() });
    const created = log.since().filter((e) => e.type === 'message.created');
    expect(created).toHaveLength(2);
    const turnIds = created.map((e) => (e.type === 'message.created' ? e.turn_id : undefined));
    expect(turnIds[0]).toMatch(/^turn_[0-9a-z]+$/);
    expect(turnIds[1]).toBe(turnIds[0]);
  });
});
