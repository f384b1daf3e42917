import type { EventOf } from '../events';
import { readSkillMessage } from '../skillField';
import type { Draft } from './draft';
import { own } from './records';
import type { AssistantRow, Row } from './rows';

/** The user's and the assistant's messages: created, streamed, done. */
export function foldMessage(d: Draft, event: EventOf<'message.created' | 'message.delta' | 'message.done'>): void {
  switch (event.type) {
    case 'message.created':
      return messageCreated(d, event);
    case 'message.delta':
      return appendDelta(d, event);
    case 'message.done': {
      // Done wins over a turn error whatever their order: a message that finished stays finished.
      const status = event.interrupted ? 'interrupted' : 'done';
      const i = d.find(event.message_id, 'assistant');
      const prior = d.row(i, 'assistant');
      const row: AssistantRow = prior ? { ...prior, status } : { kind: 'assistant', id: event.message_id, text: '', status };
      if (event.usage) row.usage = event.usage;
      return d.put(i, row);
    }
    default:
      return event satisfies never;
  }
}

function messageCreated(d: Draft, event: EventOf<'message.created'>): void {
  const i = d.find(event.message_id, event.role);
  if (event.role === 'user') {
    // A message stored in the legacy text form (`[load_skill /name]` then the task) folds to the same row as one with the field.
    const { text, skill } = readSkillMessage(event.text, event.skill);
    const version = event.version_of !== undefined && event.version_of !== event.message_id ? { version_of: event.version_of } : {};
    const attachments = event.attachments?.length ? { attachments: event.attachments.map((f) => ({ ...f })) } : {};
    if (i === -1) d.add({ kind: 'user', id: event.message_id, text, ...(skill ? { skill } : {}), ...(event.turn_id ? { turn_id: event.turn_id } : {}), ...version, ...attachments });
    return;
  }
  const prior = d.row(i, 'assistant');
  // A second created for the same message (a replay under another seq) adds nothing.
  if (prior?.seq !== undefined) return;
  const row: AssistantRow = prior
    ? { ...prior, text: event.text + prior.text, seq: event.seq }
    : { kind: 'assistant', id: event.message_id, text: event.text, status: 'streaming', seq: event.seq };
  if (event.turn_id) row.turn_id = event.turn_id;
  if (event.driver) row.driver = event.driver;
  // A turn.error after it that arrived first.
  if (row.status === 'streaming' && event.turn_id && (own(d.next.seqs.turnErrors, event.turn_id) ?? 0) > event.seq) row.status = 'error';
  d.put(i, row);
}

/**
 * One streamed piece of a reply: the hot path (a reply streams thousands). A delta that continues
 * the one before it in this batch is appended to the row object this batch made (see `Draft.growing`).
 */
export function appendDelta(d: Draft, event: EventOf<'message.delta'>): void {
  const last = d.growing;
  if (last && last.row.id === event.message_id && d.rows[last.index] === last.row) {
    last.row.text += event.delta;
    return;
  }
  const i = d.find(event.message_id, 'assistant');
  const prior = d.row(i, 'assistant');
  const row: AssistantRow = prior ? { ...prior, text: prior.text + event.delta } : { kind: 'assistant', id: event.message_id, text: event.delta, status: 'streaming' };
  d.put(i, row);
  d.growing = { index: i === -1 ? d.rows.length - 1 : i, row };
}

/** Fails the turn's messages still streaming that were created before the error (by seq). */
export function failStreamingMessages(d: Draft, turnId: string, seq: number): void {
  const fails = (row: Row): row is AssistantRow => row.kind === 'assistant' && row.turn_id === turnId && row.status === 'streaming' && (row.seq ?? 0) < seq;
  for (let i = d.rows.length - 1; i >= 0; i--) {
    const row = d.rows[i]!;
    if (fails(row)) d.replace(i, { ...row, status: 'error' });
  }
  // A turn of a version not shown (its error arrived after the switch).
  for (const entry of d.shelved()) {
    const row = entry.row;
    if (fails(row)) d.replace(d.find(row.id, 'assistant'), { ...row, status: 'error' });
  }
}
