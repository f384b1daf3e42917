import { describe, expect, it } from 'vitest';
import { createThreadStore } from './threadStore';

const created = (seq: number) => ({ type: 'message.created', seq, ts: seq, message_id: 'a1', role: 'assistant', text: '' });
const delta = (seq: number, text: string) => ({ type: 'message.delta', seq, ts: seq, message_id: 'a1', delta: text });

describe('createThreadStore', () => {
  it('folds a burst of events into one store update at the next flush', () => {
    let pending: (() => void) | null = null;
    const store = createThreadStore((flush) => {
      pending = flush;
    });
    let updates = 0;
    store.subscribe(() => updates++);
    store.receive(created(1));
    for (let i = 2; i <= 101; i++) store.receive(delta(i, 'x'));
    expect(store.getState().thread.rows).toHaveLength(0);
    pending!();
    expect(updates).toBe(1);
    const row = store.getState().thread.rows[0];
    expect(row?.kind === 'assistant' && row.text).toBe('x'.repeat(100));
  });

  it('schedules one flush per batch, and another for events after it', () => {
    const flushes: (() => void)[] = [];
    const store = createThreadStore((flush) => flushes.push(flush));
    store.receive(created(1));
    store.receive(delta(2, 'a'));
    expect(flushes).toHaveLength(1);
    flushes[0]!();
    store.receive(delta(3, 'b'));
    expect(flushes).toHaveLength(2);
    flushes[1]!();
    const row = store.getState().thread.rows[0];
    expect(row?.kind === 'assistant' && row.text).toBe('ab');
  });

  it('does not notify subscribers when a batch holds only replays', () => {
    const store = createThreadStore((flush) => flush());
    store.receive(created(1));
    let updates = 0;
    store.subscribe(() => updates++);
    store.receive(created(1));
    expect(updates).toBe(0);
  });
});
