import type { MessageCreated, MessageDelta, MessageDone } from './messages';

/**
 * The parser's hot paths: the message events a reply streams and a replayed history is mostly
 * made of, checked by hand with the schema's exact result (known fields only). Anything else, or
 * anything off, returns null and goes through the schema, which says what is wrong.
 */

/**
 * A well-formed `message.delta` (a reply streams thousands of them) as the schema would return
 * it, or null.
 */
export function validDelta(raw: unknown): MessageDelta | null {
  if (!isWellFormedDelta(raw)) return null;
  return { type: 'message.delta', seq: raw.seq, ts: raw.ts, message_id: raw.message_id, delta: raw.delta };
}

/**
 * Whether `raw` is a well-formed `message.delta`: its known fields are what the schema accepts (it
 * may carry others, which the schema would drop). For a reader that only reads those fields and
 * keeps nothing of the object (the fold appending a streamed token), so no copy is made.
 */
export function isWellFormedDelta(raw: unknown): raw is MessageDelta {
  if (typeof raw !== 'object' || raw === null) return false;
  const e = raw as Record<string, unknown>;
  if (e.type !== 'message.delta') return false;
  const { seq, ts, message_id, delta } = e;
  if (!Number.isSafeInteger(seq) || (seq as number) <= 0 || typeof ts !== 'number' || !Number.isFinite(ts)) return false;
  return typeof message_id === 'string' && message_id.length > 0 && typeof delta === 'string';
}

const goodStamp = (e: Record<string, unknown>) =>
  Number.isSafeInteger(e.seq) && (e.seq as number) > 0 && typeof e.ts === 'number' && Number.isFinite(e.ts);
const goodId = (v: unknown): v is string => typeof v === 'string' && v.length > 0;

/**
 * `message.created` and `message.done` (a replayed history is mostly these), checked by hand in
 * their common forms, with the schema's exact result (known fields only). An optional field that
 * is there is checked as the schema does (a driver `{ id, label }`, a boolean `interrupted`);
 * `usage`, or anything off, returns null (the schema's turn).
 */
export function validMessage(raw: unknown): MessageCreated | MessageDone | null {
  if (typeof raw !== 'object' || raw === null) return null;
  const e = raw as Record<string, unknown>;
  if (e.type === 'message.created') {
    const { role, text, turn_id, driver } = e;
    // A skill's message, and one with attachments, are the schema's (it checks the slash name and the files).
    if ('skill' in e || 'attachments' in e) return null;
    if (!goodStamp(e) || !goodId(e.message_id) || (role !== 'user' && role !== 'assistant') || typeof text !== 'string') return null;
    const event: MessageCreated = { type: 'message.created', seq: e.seq as number, ts: e.ts as number, message_id: e.message_id, role, text };
    if ('turn_id' in e) {
      if (!goodId(turn_id)) return null;
      event.turn_id = turn_id;
    }
    if ('branch' in e) {
      if (typeof e.branch !== 'string' || e.branch.length === 0 || e.branch.length > 300) return null;
      event.branch = e.branch;
    }
    if ('version_of' in e) {
      if (!goodId(e.version_of)) return null;
      event.version_of = e.version_of;
    }
    if ('driver' in e) {
      if (typeof driver !== 'object' || driver === null) return null;
      const { id, label } = driver as Record<string, unknown>;
      if (typeof id !== 'string' || typeof label !== 'string') return null;
      event.driver = { id, label };
    }
    return event;
  }
  if (e.type === 'message.done') {
    if (!goodStamp(e) || !goodId(e.message_id) || 'usage' in e || 'branch' in e) return null;
    const event: MessageDone = { type: 'message.done', seq: e.seq as number, ts: e.ts as number, message_id: e.message_id };
    if ('interrupted' in e) {
      if (typeof e.interrupted !== 'boolean') return null;
      event.interrupted = e.interrupted;
    }
    return event;
  }
  return null;
}
