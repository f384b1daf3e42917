import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineCapability } from '../runtime/capability';
import { textResult } from '../runtime/envelope';
import type { ThreadEvent } from '../runtime/events';
import { foldAll, initialThreadState } from '../runtime/fold';
import { createOfflineDriver } from '../runtime/offlineDriver';
import { createLocalWorkspace } from './localWorkspace';

const add = defineCapability({
  name: 'math.add',
  title: 'Add numbers',
  description: 'Adds a and b.',
  input: z.object({ a: z.number(), b: z.number() }),
  handler: ({ a, b }) => textResult(`The sum is ${a + b}.`, { sum: a + b }),
});

const hang = defineCapability({
  name: 'wait.forever',
  title: 'Wait',
  description: 'Waits until cancelled.',
  input: z.object({}),
  handler: (_args, ctx) => new Promise((resolve) => ctx.signal.addEventListener('abort', () => resolve(textResult('late')))),
});

function workspace() {
  return createLocalWorkspace({ capabilities: [add, hang], driver: createOfflineDriver({ delayMs: 0 }) });
}

describe('createLocalWorkspace', () => {
  it('describes its capabilities and driver in the manifest', () => {
    const ws = workspace();
    expect(ws.manifest.driver).toEqual({ id: 'offline', label: 'Offline model' });
    expect(ws.manifest.capabilities.map((c) => c.name)).toEqual(['math.add', 'wait.forever']);
    expect(ws.manifest.capabilities[0]!.inputSchema).toMatchObject({ type: 'object', required: ['a', 'b'] });
  });

  it('runs a turn that invokes the named capability and answers with its result', async () => {
    const ws = workspace();
    const events: ThreadEvent[] = [];
    ws.subscribe('t1', (e) => events.push(e));
    await ws.send({ threadId: 't1', text: 'add numbers a=2 b=3' });
    const state = foldAll(initialThreadState, events);
    expect(state.rows.map((r) => r.kind)).toEqual(['user', 'invocation', 'assistant']);
    const card = state.rows[1]!;
    expect(card.kind === 'invocation' && card.state).toBe('done');
    const reply = state.rows[2]!;
    expect(reply.kind === 'assistant' && reply.text).toBe('Add numbers is done. The sum is 5.');
    expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
  });

  it('replays a thread from `since` to a late subscriber, and keeps threads apart', async () => {
    const ws = workspace();
    await ws.send({ threadId: 't1', text: 'hello' });
    await ws.invoke({ threadId: 't2', capability: 'math.add', args: { a: 1, b: 1 } });
    const all: ThreadEvent[] = [];
    ws.subscribe('t1', (e) => all.push(e), { since: 0 });
    const tail: ThreadEvent[] = [];
    ws.subscribe('t1', (e) => tail.push(e), { since: 2 });
    expect(all[0]).toMatchObject({ type: 'message.created', role: 'user', text: 'hello' });
    expect(tail.map((e) => e.seq)).toEqual(all.slice(2).map((e) => e.seq));
    expect(all.some((e) => e.type === 'capability.started')).toBe(false);
  });

  it('cancels a running invocation by id', async () => {
    const ws = workspace();
    const events: ThreadEvent[] = [];
    ws.subscribe('t1', (e) => events.push(e));
    const pending = ws.invoke({ threadId: 't1', capability: 'wait.forever', args: {} });
    const started = events.find((e) => e.type === 'capability.started');
    expect(started?.type).toBe('capability.started');
    ws.cancel({ threadId: 't1', id: (started as Extract<ThreadEvent, { type: 'capability.started' }>).invocation_id });
    const result = await pending;
    expect(result.isError).toBe(true);
    expect(events.at(-1)).toMatchObject({ type: 'capability.error', error: { code: 'cancelled' } });
  });

  it('serialises turns of one thread so their rows never interleave', async () => {
    const ws = workspace();
    const events: ThreadEvent[] = [];
    ws.subscribe('t1', (e) => events.push(e));
    await Promise.all([ws.send({ threadId: 't1', text: 'first' }), ws.send({ threadId: 't1', text: 'second' })]);
    const rows = foldAll(initialThreadState, events).rows;
    expect(rows.map((r) => (r.kind === 'user' ? r.text : r.kind))).toEqual(['first', 'assistant', 'second', 'assistant']);
  });

  it('stopping a turn also cancels the invocation it started', async () => {
    const ws = workspace();
    const events: ThreadEvent[] = [];
    ws.subscribe('t1', (e) => events.push(e));
    const turn = ws.send({ threadId: 't1', text: 'wait' });
    await new Promise((resolve) => setTimeout(resolve, 0));
    const started = events.find((e) => e.type === 'turn.started') as Extract<ThreadEvent, { type: 'turn.started' }>;
    expect(events.some((e) => e.type === 'capability.started')).toBe(true);
    ws.cancel({ threadId: 't1', id: started.turn_id });
    await turn;
    const state = foldAll(initialThreadState, events);
    expect(state.rows.find((r) => r.kind === 'invocation')).toMatchObject({ state: 'cancelled' });
    expect(events.at(-1)).toMatchObject({ type: 'turn.done', outcome: 'stopped' });
    expect(state.activeTurn).toBeNull();
  });

  it('setView records what the user looks at, and the manifest carries the alignment and suggestions', () => {
    const ws = createLocalWorkspace({
      capabilities: [add],
      alignment: 'loose',
      anticipation: { 'sums::none': [{ capability: 'math.add', hint: 'Add two numbers', prefill: { a: 1, b: 2 } }] },
    });
    const events: ThreadEvent[] = [];
    ws.subscribe('t1', (e) => events.push(e));
    ws.setView({ threadId: 't1', view: { kind: 'sums' } });
    expect(foldAll(initialThreadState, events).activeView).toEqual({ kind: 'sums' });
    expect(ws.manifest.alignment).toBe('loose');
    expect(ws.manifest.anticipation['sums::none']?.[0]?.hint).toBe('Add two numbers');
  });

  it('refuses a decision nothing is waiting for, saying which id', async () => {
    await expect(workspace().decide({ threadId: 't1', id: 'prop_x', decision: 'accept' })).rejects.toThrow('"prop_x"');
  });
});

