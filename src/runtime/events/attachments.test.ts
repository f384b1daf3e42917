import { describe, expect, it } from 'vitest';
import { parseThreadEvent } from '../events';
import { foldAll, initialThreadState, type UserRow } from '../fold';

const file = { id: 'att_k3j9x2q8m1', name: 'cat.png', media_type: 'image/png', size: 1234 };
const created = (attachments: unknown) => ({ type: 'message.created', seq: 1, ts: 1, message_id: 'm1', role: 'user', text: 'look', attachments });

describe('a user message’s attachments', () => {
  it('are kept on the user’s row: ids and words, never bytes', () => {
    const parsed = parseThreadEvent(created([file]));
    expect(parsed).toEqual({ ok: true, event: created([file]) });
    const row = foldAll(initialThreadState, [created([file])]).rows[0] as UserRow;
    expect(row).toEqual({ kind: 'user', id: 'm1', text: 'look', attachments: [file] });
  });

  it('are refused when they carry bytes, a bad id or type, or too many', () => {
    expect(parseThreadEvent(created([{ ...file, data: 'iVBORw0KGgo=' }])).ok).toBe(false);
    expect(parseThreadEvent(created([{ ...file, id: '../etc/passwd' }])).ok).toBe(false);
    expect(parseThreadEvent(created([{ ...file, media_type: 'png' }])).ok).toBe(false);
    expect(parseThreadEvent(created([{ ...file, name: 'x'.repeat(256) }])).ok).toBe(false);
    expect(parseThreadEvent(created([])).ok).toBe(false);
    expect(parseThreadEvent(created(Array.from({ length: 21 }, () => file))).ok).toBe(false);
    expect(parseThreadEvent(created(Array.from({ length: 20 }, () => file))).ok).toBe(true);
  });

  it('stay in the model’s history as logged, so a restarted server sends the same request', () => {
    const logged = { type: 'model.message', seq: 2, ts: 2, turn_id: 't1', message: { role: 'user', text: 'look', attachments: [file] } };
    expect(parseThreadEvent(logged)).toEqual({ ok: true, event: logged });
  });

  it('a message without them folds as before', () => {
    const row = foldAll(initialThreadState, [{ type: 'message.created', seq: 1, ts: 1, message_id: 'm1', role: 'user', text: 'hi' }]).rows[0];
    expect(row).toEqual({ kind: 'user', id: 'm1', text: 'hi' });
  });
});
