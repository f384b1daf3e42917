import type { Draft } from './draft';

/**
 * Records a malformed event once. One whose raw object has a usable `seq`
 * consumes that seq (a replay of it, or any event under that seq later, is
 * skipped); one without is known by `malformedKey` of its raw value, so
 * identical seq-less malformed events count as one.
 */
export function recordMalformed(d: Draft, raw: unknown, reason: string): void {
  const seq = rawSeq(raw);
  let id: string;
  if (seq !== null) {
    if (!d.markApplied(seq)) return;
    id = `malformed-${seq}`;
  } else {
    const key = malformedKey(raw);
    if (d.next.seqs.malformed.includes(key)) return;
    const seqs = d.seqs();
    seqs.malformed = [...seqs.malformed, key];
    id = `malformed-${key}`;
  }
  d.next.malformed += 1;
  d.add({
    kind: 'error',
    id,
    code: 'malformed_event',
    message: `Skipped an event the chat could not read (${reason}). Nothing else was lost.`,
    recoverable: false,
  });
}

function rawSeq(raw: unknown): number | null {
  if (typeof raw !== 'object' || raw === null) return null;
  const seq = (raw as { seq?: unknown }).seq;
  return typeof seq === 'number' && Number.isSafeInteger(seq) && seq > 0 ? seq : null;
}

/** A short hash (cyrb53, base 36) of the raw value's JSON, or of its type and text when it has none. */
export function malformedKey(raw: unknown): string {
  let text: string | undefined;
  try {
    text = JSON.stringify(raw);
  } catch {
    text = undefined;
  }
  if (text === undefined) text = `${typeof raw}:${safeString(raw)}`;
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(36);
}

function safeString(raw: unknown): string {
  try {
    return String(raw);
  } catch {
    return '';
  }
}
