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
});
