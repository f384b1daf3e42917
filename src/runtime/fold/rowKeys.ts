import type { ThreadEvent } from '../events';
import type { DecisionRow, Row } from './rows';

/**
 * Which row each event is about, written once: the reducers make and change exactly these
 * rows (`rowKeys.test.ts` folds every event type to check), and every other module that needs
 * to know asks `rowKeyOf`, `rowKindOf`, `opensRow` or `addsRow` instead of listing event types.
 */
interface EventRow {
  /** The row's kind; `role` for `message.created`, whose role is the kind. */
  kind: Row['kind'] | 'role';
  /** The event's field that holds the row's id. */
  field: string;
  /** Put before the field's value to make the id (an error row is named by its event's seq). */
  prefix?: string;
  /** The event makes the row when events arrive in order, rather than change one an earlier event made. */
  opens: boolean;
  /** Besides changing its row, it adds one of its own (a violation under its card, a sub-thread's summary). */
  adds?: boolean;
}

const opens = (kind: EventRow['kind'], field: string): EventRow => ({ kind, field, opens: true });
const changes = (kind: EventRow['kind'], field: string): EventRow => ({ kind, field, opens: false });

const EVENT_ROWS: { readonly [T in ThreadEvent['type']]: EventRow | null } = {
  'message.created': opens('role', 'message_id'),
  'message.delta': changes('assistant', 'message_id'),
  'message.done': changes('assistant', 'message_id'),
  'message.feedback': changes('assistant', 'message_id'),
  'reasoning.delta': changes('assistant', 'message_id'),
  'reasoning.done': changes('assistant', 'message_id'),
  'message.cited': changes('assistant', 'message_id'),
  'turn.started': null,
  'turn.done': null,
  'turn.error': { kind: 'error', field: 'seq', prefix: 'turn-error-', opens: true },
  // The card of a call the model is still writing: the invocation it becomes.
  'invocation.args.delta': opens('invocation', 'invocation_id'),
  'capability.queued': opens('invocation', 'invocation_id'),
  // It opens the card of an invocation run at once; after a `capability.queued` it changes that card.
  'capability.started': opens('invocation', 'invocation_id'),
  'capability.progress': changes('invocation', 'invocation_id'),
  'capability.output': changes('invocation', 'invocation_id'),
  'capability.done': changes('invocation', 'invocation_id'),
  'capability.error': changes('invocation', 'invocation_id'),
  'capability.quality_violation': { kind: 'invocation', field: 'invocation_id', opens: false, adds: true },
  'capability.checked': changes('invocation', 'invocation_id'),
  'quality.slow': changes('invocation', 'invocation_id'),
  'proposal.created': opens('proposal', 'proposal_id'),
  'proposal.resolved': changes('proposal', 'proposal_id'),
  'approval.requested': opens('approval', 'approval_id'),
  'approval.resolved': changes('approval', 'approval_id'),
  'clarify.requested': opens('question', 'question_id'),
  'clarify.answered': changes('question', 'question_id'),
  'standing.requested': opens('standing', 'request_id'),
  'skill.activated': null,
  'skill.offered': opens('skill_offer', 'offer_id'),
  // Without an `offer_id` (a skill saved directly) it is about no row.
  'skill.saved': changes('skill_offer', 'offer_id'),
  'skill.offer_dismissed': changes('skill_offer', 'offer_id'),
  'subthread.opened': opens('subthread', 'subthread_id'),
  'subthread.done': { kind: 'subthread', field: 'subthread_id', opens: false, adds: true },
  'subthread.linked': opens('subthread_origin', 'parent_id'),
  'view.changed': null,
  'composer.changed': null,
  'model.message': null,
  'reply.regenerated': null,
  'version.selected': null,
  'elicitation.requested': opens('elicitation', 'elicitation_id'),
  'elicitation.answered': changes('elicitation', 'elicitation_id'),
};

const byType = new Map<unknown, EventRow | null>(Object.entries(EVENT_ROWS));

/** An event as it arrives (checked or not): fields are read by name, and a missing one means no row. */
export type EventLike = ThreadEvent | Readonly<Record<string, unknown>>;

/**
 * The row an event is about, as the fold keys its rows (`kind:id`): the row it makes, or the
 * row an earlier event made that it changes. Null for an event about no row (the turn, the view,
 * the selections, the skills loaded, the model's history) or without the id it needs.
 * @example
 * rowKeyOf({ type: 'clarify.answered', question_id: 'q1', answer: 'yes' }); // 'question:q1'
 */
export function rowKeyOf(event: EventLike): string | null {
  const e = event as Readonly<Record<string, unknown>>;
  const row = byType.get(e.type);
  const kind = row ? kindOf(row, e) : null;
  if (!row || !kind) return null;
  const id = e[row.field];
  return typeof id === 'string' || typeof id === 'number' ? `${kind}:${row.prefix ?? ''}${id}` : null;
}

/** The kind of the row `rowKeyOf` names, read from the event's type alone (no key is made): null for an event about no row. */
export function rowKindOf(event: EventLike): Row['kind'] | null {
  const e = event as Readonly<Record<string, unknown>>;
  const row = byType.get(e.type);
  return row ? kindOf(row, e) : null;
}

function kindOf(row: EventRow, event: Readonly<Record<string, unknown>>): Row['kind'] | null {
  if (row.kind !== 'role') return row.kind;
  return event.role === 'user' || event.role === 'assistant' ? event.role : null;
}

/**
 * True when the event makes the row `rowKeyOf` names (when events arrive in order: a row whose
 * later events came first is made by those); false when it changes a row an earlier event made.
 * `capability.started` opens the card of an invocation run at once, with no `capability.queued`
 * before it.
 */
export function opensRow(event: EventLike): boolean {
  return byType.get((event as { type?: unknown }).type)?.opens === true;
}

/**
 * True when the event, folded after the events before it, adds a row to the transcript: one it
 * opens (`capability.started` counts, though after a `capability.queued` it only changes that
 * card), or one beside the row it changes.
 */
export function addsRow(event: EventLike): boolean {
  const row = byType.get((event as { type?: unknown }).type);
  return !!row && (row.opens || row.adds === true);
}

/** A row that asks the user for a decision: a proposal, an approval or a question, whatever its status. */
export function isDecision(row: Row): row is DecisionRow {
  return row.kind === 'proposal' || row.kind === 'approval' || row.kind === 'question';
}

/**
 * A pending decision: a proposal, approval or question row still `pending`; deciding it resumes
 * the turn. (A skill offer also waits for the user, but resumes nothing.)
 */
export function isWaiting(row: Row): row is DecisionRow {
  return isDecision(row) && row.status === 'pending';
}
