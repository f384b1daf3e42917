import type { ElicitationAction, EventOf } from '../events';
import type { Draft } from './draft';
import type { ElicitationRow } from './elicitationRow';

const STATUS: Record<ElicitationAction, ElicitationRow['status']> = { accept: 'accepted', decline: 'declined', cancel: 'cancelled' };

/**
 * The question's row and its answer. An answer that arrives first makes the row (with what it
 * knows); the request then fills in the question and keeps the answer.
 */
export function foldElicitation(d: Draft, event: EventOf<'elicitation.requested' | 'elicitation.answered'>): void {
  const i = d.find(event.elicitation_id, 'elicitation');
  const prior = d.row(i, 'elicitation');
  if (event.type === 'elicitation.requested') {
    const row: ElicitationRow = { kind: 'elicitation', id: event.elicitation_id, server: event.server, mode: event.mode, message: event.message, status: prior?.status ?? 'pending' };
    if (event.tool !== undefined) row.tool = event.tool;
    if (event.invocation_id) row.invocation_id = event.invocation_id;
    if (event.turn_id) row.turn_id = event.turn_id;
    if (event.requested_schema) row.requested_schema = event.requested_schema;
    if (event.url !== undefined) row.url = event.url;
    if (event.host !== undefined) row.host = event.host;
    if (prior?.content) row.content = prior.content;
    if (prior?.closed) row.closed = prior.closed;
    return d.put(i, row);
  }
  const row: ElicitationRow = prior ? { ...prior } : { kind: 'elicitation', id: event.elicitation_id, server: '', mode: 'form', message: '', status: 'pending' };
  // The first answer stands: a close that raced the user's answer changes nothing.
  if (row.status !== 'pending') return;
  row.status = event.closed ? 'closed' : STATUS[event.action];
  if (event.closed) row.closed = event.closed;
  if (event.action === 'accept' && event.content) row.content = event.content;
  d.put(i, row);
}
