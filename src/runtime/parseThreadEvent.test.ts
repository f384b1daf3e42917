import { describe, expect, it } from 'vitest';
import { ThreadEventSchema, parseThreadEvent } from './events';

describe('parseThreadEvent on message.delta, the event a reply streams thousands of', () => {
  const good = { type: 'message.delta', seq: 7, ts: 1_700_000_000_000, message_id: 'm1', delta: 'Hel' };

  it('gives what the schema gives for a well-formed delta, unknown fields dropped', () => {
    const raw = { ...good, extra: 'dropped', nested: { a: 1 } };
    const parsed = parseThreadEvent(raw);
    expect(parsed).toEqual({ ok: true, event: ThreadEventSchema.parse(raw) });
    expect(parsed).toEqual({ ok: true, event: good });
  });

  it('accepts an empty delta, as the schema does', () => {
    expect(parseThreadEvent({ ...good, delta: '' })).toEqual({ ok: true, event: { ...good, delta: '' } });
  });

  it.each([
    ['seq 0', { seq: 0 }, 'seq: Too small: expected number to be >0'],
    ['fractional seq', { seq: 1.5 }, 'seq: Invalid input: expected int, received number'],
    ['infinite ts', { ts: Infinity }, 'ts: Invalid input: expected number, received Infinity'],
    ['empty message_id', { message_id: '' }, 'message_id: Too small: expected string to have >=1 characters'],
    ['delta not a string', { delta: 42 }, 'delta: Invalid input: expected string, received number'],
  ])('refuses a delta with %s and says which field is wrong', (_, patch, message) => {
    expect(parseThreadEvent({ ...good, ...patch })).toEqual({ ok: false, error: message });
  });
});
