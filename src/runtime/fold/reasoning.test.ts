import { describe, expect, it } from 'vitest';
import { foldAll, initialThreadState, type AssistantRow } from '../fold';
import { parseThreadEvent } from '../events';

const created = { type: 'message.created', seq: 1, ts: 1_000, message_id: 'm1', role: 'assistant', text: '' };
const think1 = { type: 'reasoning.delta', seq: 2, ts: 1_100, message_id: 'm1', delta: 'The user wants ' };
const think2 = { type: 'reasoning.delta', seq: 3, ts: 2_000, message_id: 'm1', delta: 'a greeting.' };
const thought = { type: 'reasoning.done', seq: 4, ts: 5_100, message_id: 'm1' };
const text = { type: 'message.delta', seq: 5, ts: 5_200, message_id: 'm1', delta: 'Hello.' };
const done = { type: 'message.done', seq: 6, ts: 5_300, message_id: 'm1' };

const rowOf = (events: unknown[]) => foldAll(initialThreadState, events).rows.find((r): r is AssistantRow => r.kind === 'assistant')!;

describe('reasoning.delta / reasoning.done', () => {
  it('streams the reasoning onto the reply row, then closes it with when it started and ended', () => {
    expect(rowOf([created, think1]).reasoning).toEqual({ text: 'The user wants ', status: 'streaming', startedAt: 1_100 });
    const row = rowOf([created, think1, think2, thought, text, done]);
    expect(row).toMatchObject({ text: 'Hello.', status: 'done' });
    expect(row.reasoning).toEqual({ text: 'The user wants a greeting.', status: 'done', startedAt: 1_100, endedAt: 5_100, doneSeq: 4 });
  });

  it('a row without reasoning has none', () => {
    expect(rowOf([created, text, done]).reasoning).toBeUndefined();
  });

  it('redacted reasoning is done and says so, with no text', () => {
    const row = rowOf([created, { type: 'reasoning.done', seq: 2, ts: 1_500, message_id: 'm1', redacted: true }, text]);
    expect(row.reasoning).toEqual({ text: '', status: 'done', redacted: true, startedAt: 1_500, endedAt: 1_500, doneSeq: 2 });
    // Redacted and readable blocks in one reply: still redacted once any was.
    const mixed = rowOf([created, think1, { type: 'reasoning.done', seq: 3, ts: 1_500, message_id: 'm1', redacted: true }, { ...thought, seq: 4 }]);
    expect(mixed.reasoning).toMatchObject({ text: 'The user wants ', status: 'done', redacted: true });
  });

  it('makes the row when it arrives before the message.created, which then keeps it', () => {
    const row = rowOf([think1, thought, created, text]);
    expect(row).toMatchObject({ text: 'Hello.', seq: 1, reasoning: { text: 'The user wants ', status: 'done' } });
  });

  it('a done that overtook earlier pieces keeps them and stays done; a piece after the done opens it again', () => {
    expect(rowOf([created, thought, think2, think1]).reasoning).toMatchObject({ text: 'a greeting.The user wants ', status: 'done', startedAt: 1_100, endedAt: 5_100 });
    const more = { type: 'reasoning.delta', seq: 7, ts: 6_000, message_id: 'm1', delta: ' More.' };
    expect(rowOf([created, think1, thought, more]).reasoning).toEqual({ text: 'The user wants  More.', status: 'streaming', startedAt: 1_100 });
    expect(rowOf([created, think1, thought, more, { ...thought, seq: 8, ts: 7_000 }]).reasoning).toMatchObject({ status: 'done', endedAt: 7_000 });
  });

  it('a replay (a seq already applied) changes nothing', () => {
    expect(rowOf([created, think1, think1, thought, thought])).toEqual(rowOf([created, think1, thought]));
  });

  it('validates them like any event: a malformed one is an error row and changes nothing', () => {
    expect(parseThreadEvent({ ...think1, delta: 3 }).ok).toBe(false);
    expect(parseThreadEvent({ ...thought, redacted: 'yes' }).ok).toBe(false);
    expect(parseThreadEvent({ ...thought, message_id: '' }).ok).toBe(false);
    const state = foldAll(initialThreadState, [created, { ...think1, delta: 3 }]);
    expect(state.rows.map((r) => r.kind)).toEqual(['assistant', 'error']);
    expect((state.rows[0] as AssistantRow).reasoning).toBeUndefined();
  });

  it('the model history keeps the thinking blocks with their signatures (model.message)', () => {
    const message = { role: 'assistant', text: 'Hello.', thinking: [{ type: 'thinking', thinking: 'Hm.', signature: 'sig' }, { type: 'redacted_thinking', data: 'opaque' }] };
    const parsed = parseThreadEvent({ type: 'model.message', seq: 9, ts: 1, message });
    expect(parsed).toEqual({ ok: true, event: { type: 'model.message', seq: 9, ts: 1, message } });
    expect(parseThreadEvent({ type: 'model.message', seq: 9, ts: 1, message: { ...message, thinking: [{ type: 'thinking', thinking: 'Hm.' }] } }).ok).toBe(false);
  });
});
