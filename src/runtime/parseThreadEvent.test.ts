import { describe, expect, it } from 'vitest';
import { ThreadEventSchema, formatIssues, parseThreadEvent } from './events';

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

describe('parseThreadEvent on message.created and message.done, what a replayed history is made of', () => {
  const created = { type: 'message.created', seq: 3, ts: 1_700_000_000_000, message_id: 'm1', role: 'assistant', text: 'Hi' };
  const done = { type: 'message.done', seq: 4, ts: 1_700_000_000_001, message_id: 'm1' };
  /** What the schema alone says about `raw`. */
  const schemaSays = (raw: unknown) => {
    const r = ThreadEventSchema.safeParse(raw);
    return r.success ? { ok: true, event: r.data } : { ok: false, error: formatIssues(r.error.issues) };
  };

  it.each([
    ['a user message', { ...created, role: 'user' }],
    ['an assistant message with its turn and driver', { ...created, turn_id: 't1', driver: { id: 'offline', label: 'Offline model', extra: 1 } }],
    ['unknown fields', { ...created, extra: 'dropped' }],
    ['an empty text', { ...created, text: '' }],
    ['a done', done],
    ['an interrupted done', { ...done, interrupted: true }],
    ['a done with usage', { ...done, usage: { input_tokens: 3, output_tokens: 4 } }],
    ['a done with unknown fields', { ...done, extra: [1] }],
  ])('gives what the schema gives for %s', (_, raw) => {
    const parsed = parseThreadEvent(raw);
    expect(parsed.ok).toBe(true);
    expect(parsed).toEqual(schemaSays(raw));
  });

  it.each([
    ['an unknown role', { ...created, role: 'system' }],
    ['no text', { ...created, text: undefined }],
    ['an empty turn_id', { ...created, turn_id: '' }],
    ['turn_id undefined', { ...created, turn_id: undefined }],
    ['a driver without a label', { ...created, driver: { id: 'x' } }],
    ['a driver that is a string', { ...created, driver: 'offline' }],
    ['a negative seq', { ...created, seq: -1 }],
    ['a NaN ts', { ...done, ts: Number.NaN }],
    ['interrupted as a string', { ...done, interrupted: 'yes' }],
    ['bad usage', { ...done, usage: { input_tokens: -1, output_tokens: 0 } }],
    ['an empty message_id', { ...done, message_id: '' }],
  ])('answers %s as the schema does, in its words', (_, raw) => {
    expect(parseThreadEvent(raw)).toEqual(schemaSays(raw));
  });

  it('refuses a message without a role and says so', () => {
    const { role: _, ...raw } = created;
    expect(parseThreadEvent(raw)).toEqual({ ok: false, error: expect.stringContaining('role') });
  });
});
