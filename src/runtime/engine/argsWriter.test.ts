import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ThreadEventInput } from '../events';
import { createArgsWriter } from './argsWriter';

let events: ThreadEventInput[];
const emit = (event: ThreadEventInput) => void events.push(event);
const titles: Record<string, string> = { 'records.list': 'List records', 'records.count': 'Count records' };
const writer = () => createArgsWriter(emit as never, 't1', (name) => titles[name], 16);
const deltas = () => events.map((e) => (e.type === 'invocation.args.delta' ? [e.call_id, e.delta, e.dropped ?? null] : e.type));

beforeEach(() => {
  events = [];
  vi.useFakeTimers();
});
afterEach(() => vi.useRealTimers());

describe('createArgsWriter', () => {
  it("sends a call's first piece at once and the pieces that come faster than a frame together, one event a frame", () => {
    const w = writer();
    w.push('c1', 'records.list', '{"st');
    w.push('c1', 'records.list', 'age": ');
    w.push('c1', 'records.list', '"lead"');
    expect(deltas()).toEqual([['c1', '{"st', null]]);
    vi.advanceTimersByTime(16);
    expect(deltas()).toEqual([['c1', '{"st', null], ['c1', 'age": "lead"', null]]);
    w.push('c1', 'records.list', '}');
    w.flush();
    expect(deltas().at(-1)).toEqual(['c1', '}', null]);
    expect(events[0]).toMatchObject({ capability: 'records.list', title: 'List records', turn_id: 't1' });
  });

  it("gives the call's card id to the run once, and keeps the cards of calls that ran out of dropRest", () => {
    const w = writer();
    w.push('c1', 'records.list', '{}');
    w.push('c2', 'records.count', '{"a"');
    const id = w.take('c1');
    expect(id).toBe((events[0] as { invocation_id: string }).invocation_id);
    expect(w.take('c1')).toBeUndefined();
    expect(w.take('nope')).toBeUndefined();
    w.dropRest('Not run: the reply stopped before this call was complete.');
    expect(deltas()).toEqual([
      ['c1', '{}', null],
      ['c2', '{"a"', null],
      ['c2', '', 'Not run: the reply stopped before this call was complete.'],
    ]);
    w.dropRest('again');
    expect(events).toHaveLength(3);
  });

  it('makes no card for a call the turn would not run at once (a proposal, an approval, a control tool)', () => {
    const w = writer();
    w.push('c1', 'records.delete', '{"id": 1}');
    w.push('c2', 'chatsurface_propose', '{}');
    w.dropRest('x');
    expect(events).toEqual([]);
    expect(w.take('c1')).toBeUndefined();
  });

  it("sends what waits of one call before the next call's first piece, so cards show in the order written", () => {
    const w = writer();
    w.push('c1', 'records.list', '{');
    w.push('c1', 'records.list', '}');
    w.push('c2', 'records.count', '{');
    expect(deltas()).toEqual([['c1', '{', null], ['c1', '}', null], ['c2', '{', null]]);
  });
});
