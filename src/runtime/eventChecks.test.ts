import { afterEach, describe, expect, it, vi } from 'vitest';

// A page whose thread lives on a server starts without the event schemas: each test loads the
// modules afresh (the test setup loads them for every other test, as every other entry does).
async function fresh() {
  vi.resetModules();
  const checks = await import('./eventChecks');
  const { loadEventSchemas } = await import('./loadEventSchemas');
  const { createThreadStore } = await import('../hooks/threadStore');
  return { ...checks, loadEventSchemas, createThreadStore };
}

const turnStarted = { type: 'turn.started', seq: 1, ts: 1, turn_id: 't1' };
const created = { type: 'message.created', seq: 2, ts: 2, message_id: 'm1', role: 'assistant', text: '' };
const delta = { type: 'message.delta', seq: 3, ts: 3, message_id: 'm1', delta: 'Hello' };
const done = { type: 'message.done', seq: 4, ts: 4, message_id: 'm1' };

afterEach(() => vi.resetModules());

describe('the event checks without the schemas loaded', () => {
  it('checks a reply’s message events by hand, and asks for the schemas for anything else', async () => {
    const { canCheckEvent, checkEvent, loadEventSchemas } = await fresh();
    for (const event of [created, delta, done]) {
      expect(canCheckEvent(event)).toBe(true);
      expect(checkEvent(event)).toMatchObject({ ok: true, event: { type: event.type, seq: event.seq } });
    }
    // Not covered by hand: neither folded unchecked nor dropped.
    expect(canCheckEvent(turnStarted)).toBe(false);
    expect(canCheckEvent({ ...delta, seq: 'x' })).toBe(false);
    expect(() => checkEvent(turnStarted)).toThrow(/schemas are not loaded/);
    await loadEventSchemas();
    expect(canCheckEvent(turnStarted)).toBe(true);
    expect(checkEvent(turnStarted)).toEqual({ ok: true, event: turnStarted });
    expect(checkEvent({ ...delta, seq: 'x' })).toEqual({ ok: false, error: expect.stringMatching(/seq/) });
  });

  it('the page’s store folds a thread of plain messages at once, and waits for the schemas only when an event needs them, in order', async () => {
    const { createThreadStore, canCheckEvent } = await fresh();
    const plain = createThreadStore((flush) => flush());
    for (const event of [{ ...created, seq: 1, message_id: 'm0', role: 'user', text: 'Hi' }, created, delta]) plain.receive(event);
    expect(plain.getState().thread.rows.map((r) => r.kind)).toEqual(['user', 'assistant']);
    expect(canCheckEvent(turnStarted)).toBe(false);

    const store = createThreadStore((flush) => flush());
    store.receive(turnStarted);
    store.receive(created);
    store.receive(delta);
    // Nothing is folded before the turn's event can be checked, so the rows keep their order.
    expect(store.getState().thread.rows).toEqual([]);
    await vi.waitFor(() => expect(store.getState().thread.rows).toHaveLength(1));
    expect(store.getState().thread.activeTurn).toBe('t1');
    expect(store.getState().thread.rows[0]).toMatchObject({ kind: 'assistant', id: 'm1', text: 'Hello' });
    store.receive({ ...done });
    expect(store.getState().thread.rows[0]).toMatchObject({ status: 'done' });
  });

  it('a malformed event is still an error row once the schemas have said what is wrong', async () => {
    const { createThreadStore } = await fresh();
    const store = createThreadStore((flush) => flush());
    store.receive({ type: 'turn.started', seq: 1, ts: 1 });
    await vi.waitFor(() => expect(store.getState().thread.rows).toHaveLength(1));
    expect(store.getState().thread.rows[0]).toMatchObject({ kind: 'error', message: expect.stringMatching(/turn_id/) });
  });
});
