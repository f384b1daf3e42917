import type { Waiting } from '../engine/loop';
import type { ThreadEventInput } from '../events';
import { errorResult } from '../results';
import { isDecision, isWaiting, type DecisionRow, type InvocationRow, type ThreadState } from '../fold';
import { INTERRUPTED } from '../interrupted';
import type { Route, ViolationNote } from '../model';
import { closingNote, INTERRUPTED_SUMMARY } from './subThread';

/**
 * What the thread host reads off the folded state: pending decisions, the
 * postcondition failures the model was not told about, and what to close
 * after a crash. Pure functions of `ThreadState`, so the page and the server
 * (and a restarted server) agree.
 */

const NO_ROUTE: Route = { kind: 'one_shot', cues: [] };

/** The pending proposal, approval or question with this id, as the engine resumes it; null when nothing waits under it. */
export function waitingOf(state: ThreadState, id: string): Waiting | null {
  const row = findRow(state, id);
  // A pending decision is the fold's to say (`isWaiting`).
  if (!row || !isWaiting(row)) return null;
  const base = {
    id: row.id,
    turn_id: 'turn_id' in row && row.turn_id ? row.turn_id : '',
    ...('call_id' in row && row.call_id ? { call_id: row.call_id as string } : {}),
    userText: ('user_text' in row && typeof row.user_text === 'string' ? row.user_text : '') as string,
    route: ('route' in row && row.route ? (row.route as Route) : NO_ROUTE) as Route,
  };
  switch (row.kind) {
    case 'proposal':
      return { kind: 'proposal', ...base, capability: row.capability, title: row.title, args: row.args };
    case 'approval':
      return { kind: 'approval', ...base, capability: row.capability, title: row.title, args: row.args };
    case 'question':
      return { kind: 'question', ...base, question: row.question, ...(row.purpose ? { purpose: row.purpose } : {}) };
    default:
      return row satisfies never;
  }
}

/** The newest decision row (pending or not) with this id. */
function findRow(state: ThreadState, id: string): DecisionRow | undefined {
  for (let i = state.rows.length - 1; i >= 0; i--) {
    const row = state.rows[i]!;
    if (row.id === id && isDecision(row)) return row;
  }
  return undefined;
}

/**
 * Failed postconditions the model has not been told about: those of
 * capabilities the user ran directly (a chip) since the last turn started.
 * A turn's own calls report theirs in the tool result.
 */
export function unreportedViolations(state: ThreadState): ViolationNote[] {
  const out: ViolationNote[] = [];
  const invocations = new Map<string, InvocationRow>();
  for (const row of state.rows) if (row.kind === 'invocation') invocations.set(row.id, row);
  for (const row of state.rows) {
    if (row.kind !== 'violation' || row.seq <= state.lastTurnStartedSeq) continue;
    const inv = invocations.get(row.invocation_id);
    if (inv?.turn_id) continue;
    out.push(note(row.invocation_id, inv, row));
  }
  return out;
}

/** The failed postconditions of one invocation, for its tool result. */
export function violationsOf(state: ThreadState, invocationId: string): ViolationNote[] {
  for (let i = state.rows.length - 1; i >= 0; i--) {
    const row = state.rows[i]!;
    if (row.kind === 'invocation' && row.id === invocationId) return (row.violations ?? []).map((v) => note(invocationId, row, v));
  }
  return [];
}

function note(invocationId: string, inv: InvocationRow | undefined, v: { postcondition: string; expected: string; actual: string; message: string }): ViolationNote {
  return {
    invocation_id: invocationId,
    capability: inv?.capability ?? '',
    title: inv?.title ?? 'A capability',
    postcondition: v.postcondition,
    expected: v.expected,
    actual: v.actual,
    message: v.message,
  };
}

/**
 * The events that close everything a dead process left open: a streaming
 * reply is done (interrupted), a running invocation failed (interrupted, and
 * the model's call gets that result), the active turn ends interrupted.
 * Pending proposals, approvals and questions stay pending: still decidable; an MCP tool's question
 * (elicitation) is closed, interrupted, since its call is.
 */
export function interruptionEvents(state: ThreadState): ThreadEventInput[] {
  const out: ThreadEventInput[] = [];
  let cutReply = false;
  for (const row of state.rows) {
    if (row.kind === 'assistant' && row.status === 'streaming') {
      if (row.turn_id === state.activeTurn) cutReply = true;
      out.push({ type: 'message.done', message_id: row.id, interrupted: true });
      // The words that did arrive stay in the model's conversation (a step is logged only once it ends).
      if (row.text.trim()) out.push({ type: 'model.message', ...(row.turn_id ? { turn_id: row.turn_id } : {}), message: { role: 'assistant', text: row.text } });
    }
    if (row.kind === 'invocation' && (row.state === 'running' || row.state === 'queued')) {
      const error = { code: 'interrupted', message: INTERRUPTED.invocation };
      out.push({ type: 'capability.error', invocation_id: row.id, capability: row.capability || 'unknown', title: row.title, error, recoverable: true });
      if (row.call_id) {
        out.push({
          type: 'model.message',
          ...(row.turn_id ? { turn_id: row.turn_id } : {}),
          message: { role: 'tool', call_id: row.call_id, capability: row.capability, title: row.title, args: row.args, result: errorResult(INTERRUPTED.call) } as never,
        });
      }
    }
    // A running MCP tool's question: nobody waits for its answer any more.
    if (row.kind === 'elicitation' && row.status === 'pending') out.push({ type: 'elicitation.answered', elicitation_id: row.id, action: 'cancel', closed: 'interrupted' });
    if (row.kind === 'subthread' && row.status === 'running') {
      // The child's own turn is closed by its own recovery; the parent hears it here, once.
      const report = { outcome: 'interrupted' as const, summary: INTERRUPTED_SUMMARY };
      out.push({ type: 'subthread.done', subthread_id: row.id, outcome: report.outcome, summary: report.summary, title: row.title });
      out.push({ type: 'model.message', message: closingNote(row, report) as never });
    }
  }
  if (state.activeTurn) {
    // A cut reply already says what happened; otherwise the turn says it once.
    if (!cutReply) out.push({ type: 'turn.error', turn_id: state.activeTurn, code: 'interrupted', message: INTERRUPTED.turn, recoverable: true });
    out.push({ type: 'turn.done', turn_id: state.activeTurn, outcome: 'interrupted' });
  }
  return out;
}
