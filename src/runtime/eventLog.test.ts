import { afterEach, describe, expect, it, vi } from 'vitest';
import { createEventLog } from './eventLog';
import type { ThreadEvent } from './events';

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('createEventLog', () => {
  it('stamps seq from 1 upward and ts from the injected clock', () => {
    const times = [1000, 1005, 1010];
    const log = createEventLog({ now: () => times.shift()! });
    expect(log.lastSeq).toBe(0);
    const first = log.emit({ type: 'message.created', message_id: 'm1', role: 'user', text: 'Hi' });
    const second = log.emit({ type: 'message.created', message_id: 'a1', role: 'assistant', text: '' });
    const third = log.emit({ type: 'message.delta', message_id: 'a1', delta: 'Hello' });
    expect([first.seq, second.seq, third.seq]).toEqual([1, 2, 3]);
    expect([first.ts, second.ts, third.ts]).toEqual([1000, 1005, 1010]);
    expect(first).toEqual({ type: 'message.created', message_id: 'm1', role: 'user', text: 'Hi', seq: 1, ts: 1000 });
    expect(log.lastSeq).toBe(3);
  });

  it('uses Date.now when no clock is given', () => {
    vi.spyOn(Date, 'now').mockReturnValue(42);
    try {
      const log = createEventLog();
      expect(log.emit({ type: 'message.done', message_id: 'a1' }).ts).toBe(42);
    } finally {
      vi.restoreAllMocks();
    }
  });

  it('does not keep a reference to the input it was given', () => {
    const log = createEventLog({ now: () => 1 });
    const input = { type: 'message.delta' as const, message_id: 'a1', delta: 'x' };
    log.emit(input);
    input.delta = 'changed';
    expect(log.since()[0]).toMatchObject({ delta: 'x' });
    expect(input).not.toHaveProperty('seq');
  });

  it('since() returns the events after a seq, in order', () => {
    const log = createEventLog({ now: () => 1 });
    log.emit({ type: 'message.created', message_id: 'm1', role: 'user', text: 'one' });
    log.emit({ type: 'message.created', message_id: 'm2', role: 'user', text: 'two' });
    log.emit({ type: 'message.created', message_id: 'm3', role: 'user', text: 'three' });
    expect(log.since().map((e) => e.seq)).toEqual([1, 2, 3]);
    expect(log.since(0).map((e) => e.seq)).toEqual([1, 2, 3]);
    expect(log.since(-5).map((e) => e.seq)).toEqual([1, 2, 3]);
    expect(log.since(1).map((e) => e.seq)).toEqual([2, 3]);
    expect(log.since(2).map((e) => e.seq)).toEqual([3]);
    expect(log.since(3)).toEqual([]);
    expect(log.since(10)).toEqual([]);
  });

  it('since() returns a copy that callers cannot use to change the log', () => {
    const log = createEventLog({ now: () => 1 });
    log.emit({ type: 'message.created', message_id: 'm1', role: 'user', text: 'one' });
    const events = log.since() as ThreadEvent[];
    events.push(events[0]!);
    expect(log.since()).toHaveLength(1);
  });

  it('subscribe without since delivers only new events', () => {
    const log = createEventLog({ now: () => 1 });
    log.emit({ type: 'message.created', message_id: 'm1', role: 'user', text: 'old' });
    const seen: number[] = [];
    log.subscribe((e) => seen.push(e.seq));
    log.emit({ type: 'message.created', message_id: 'm2', role: 'user', text: 'new' });
    expect(seen).toEqual([2]);
  });

  it('subscribe with since replays the missed events, then delivers live ones', () => {
    const log = createEventLog({ now: () => 1 });
    log.emit({ type: 'message.created', message_id: 'm1', role: 'user', text: 'one' });
    log.emit({ type: 'message.created', message_id: 'm2', role: 'user', text: 'two' });
    log.emit({ type: 'message.created', message_id: 'm3', role: 'user', text: 'three' });
    const fromOne: number[] = [];
    const fromStart: number[] = [];
    log.subscribe((e) => fromOne.push(e.seq), 1);
    log.subscribe((e) => fromStart.push(e.seq), 0);
    expect(fromOne).toEqual([2, 3]);
    expect(fromStart).toEqual([1, 2, 3]);
    log.emit({ type: 'message.created', message_id: 'm4', role: 'user', text: 'four' });
    expect(fromOne).toEqual([2, 3, 4]);
    expect(fromStart).toEqual([1, 2, 3, 4]);
  });

  it('unsubscribe stops delivery to that listener only', () => {
    const log = createEventLog({ now: () => 1 });
    const a: number[] = [];
    const b: number[] = [];
    const stopA = log.subscribe((e) => a.push(e.seq));
    log.subscribe((e) => b.push(e.seq));
    log.emit({ type: 'message.done', message_id: 'x' });
    stopA();
    log.emit({ type: 'message.done', message_id: 'y' });
    stopA();
    log.emit({ type: 'message.done', message_id: 'z' });
    expect(a).toEqual([1]);
    expect(b).toEqual([1, 2, 3]);
  });

  it('a listener that unsubscribes during delivery does not make others miss the event', () => {
    const log = createEventLog({ now: () => 1 });
    const seen: string[] = [];
    const stop = log.subscribe(() => {
      seen.push('first');
      stop();
    });
    log.subscribe(() => seen.push('second'));
    log.emit({ type: 'message.done', message_id: 'x' });
    log.emit({ type: 'message.done', message_id: 'y' });
    expect(seen).toEqual(['first', 'second', 'second']);
  });

  it('a throwing listener does not stop other listeners or the emitter, and its error is still reported', () => {
    const reported: (() => void)[] = [];
    vi.stubGlobal('queueMicrotask', (callback: () => void) => {
      reported.push(callback);
    });
    const log = createEventLog({ now: () => 1 });
    const before: number[] = [];
    const after: number[] = [];
    log.subscribe((e) => before.push(e.seq));
    log.subscribe(() => {
      throw new Error('listener broke');
    });
    log.subscribe((e) => after.push(e.seq));

    const first = log.emit({ type: 'message.done', message_id: 'x' });
    const second = log.emit({ type: 'message.done', message_id: 'y' });
    vi.unstubAllGlobals();

    expect(first.seq).toBe(1);
    expect(second.seq).toBe(2);
    expect(before).toEqual([1, 2]);
    expect(after).toEqual([1, 2]);
    expect(log.lastSeq).toBe(2);
    // The error is rethrown later, outside emit, so it is not swallowed.
    expect(reported).toHaveLength(2);
    expect(() => reported[0]!()).toThrow('listener broke');
  });
});
