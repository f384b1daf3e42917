import type { Actor } from './capability';
import type { CapabilityResult } from './envelope';
import {
  parseThreadEvent,
  type CapabilityError,
  type DriverInfo,
  type ThreadEvent,
  type Usage,
} from './events';

/** A user's message. */
export interface UserRow {
  kind: 'user';
  id: string;
  text: string;
}

/** An assistant message; `streaming` until its `message.done`. */
export interface AssistantRow {
  kind: 'assistant';
  id: string;
  text: string;
  status: 'streaming' | 'done' | 'error';
  turn_id?: string;
  driver?: DriverInfo;
  usage?: Usage;
}

export interface ProgressInfo {
  progress: number;
  total?: number;
  message?: string;
}

/** One invocation of a capability, as its card shows it. */
export interface InvocationRow {
  kind: 'invocation';
  id: string;
  /** Machine name; empty until `capability.started` arrives when events came out of order. */
  capability: string;
  title: string;
  args: unknown;
  actor?: Actor;
  state: 'running' | 'done' | 'error';
  progress?: ProgressInfo;
  /** Streamed output, the last `OUTPUT_LIMIT` characters. */
  output: string;
  outputTruncated: boolean;
  result?: CapabilityResult;
  error?: CapabilityError;
  recoverable?: boolean;
  startedAt?: number;
  endedAt?: number;
}

/** Something went wrong outside a capability: a model error, a malformed event. */
export interface ErrorRow {
  kind: 'error';
  id: string;
  code: string;
  message: string;
  recoverable: boolean;
}

export type Row = UserRow | AssistantRow | InvocationRow | ErrorRow;

/** An entry of the cast row: one open invocation. */
export interface CastEntry {
  invocation_id: string;
  capability: string;
  title: string;
  actor?: Actor;
  progress?: ProgressInfo;
}

export interface ThreadState {
  /** Transcript rows in arrival order; rows are never removed or reordered. */
  rows: readonly Row[];
  /** `rows[i].id`, changed only when a row is added (cheap list keys). */
  ids: readonly string[];
  /** Open invocations by id; the cast row is `Object.values(open)`. */
  open: Readonly<Record<string, CastEntry>>;
  /** Name of the capability that finished last, or null. */
  lastCapability: string | null;
  /** Highest seq such that every seq up to it has been applied. */
  appliedUpTo: number;
  /** Seqs above `appliedUpTo` already applied (events that arrived early), ascending. */
  appliedAbove: readonly number[];
  /** How many malformed events were recorded and skipped. */
  malformed: number;
}

/** Streamed output kept per card; older text is dropped and the card says so. */
export const OUTPUT_LIMIT = 8_000;
/** Gap a lost event may leave before the fold stops waiting for it. */
const MAX_EARLY = 1_024;

export const initialThreadState: ThreadState = {
  rows: [],
  ids: [],
  open: {},
  lastCapability: null,
  appliedUpTo: 0,
  appliedAbove: [],
  malformed: 0,
};

/**
 * The pure reducer of the thread. Replays (a seq already applied) return the
 * same state; events may arrive out of order; a malformed event is recorded
 * as an error row and never throws.
 */
export function fold(state: ThreadState, input: unknown): ThreadState {
  const parsed = parseThreadEvent(input);
  if (!parsed.ok) return recordMalformed(state, parsed.error);
  const { event } = parsed;
  const marked = markApplied(state, event.seq);
  if (marked === null) return state;
  return apply({ ...state, ...marked }, event);
}

/** Folds many events; the result equals folding them one by one. */
export function foldAll(state: ThreadState, events: Iterable<unknown>): ThreadState {
  let next = state;
  for (const event of events) next = fold(next, event);
  return next;
}

/** True when `seq` was already applied to `state`. */
export function hasApplied(state: ThreadState, seq: number): boolean {
  return seq <= state.appliedUpTo || state.appliedAbove.includes(seq);
}

function markApplied(
  state: ThreadState,
  seq: number,
): Pick<ThreadState, 'appliedUpTo' | 'appliedAbove'> | null {
  if (hasApplied(state, seq)) return null;
  let upTo = state.appliedUpTo;
  let above = state.appliedAbove;
  if (seq === upTo + 1) {
    upTo = seq;
    if (above.length) {
      let k = 0;
      while (k < above.length && above[k] === upTo + 1) upTo = above[k++]!;
      above = k ? above.slice(k) : above;
    }
  } else {
    const i = above.findIndex((s) => s > seq);
    above = i === -1 ? [...above, seq] : [...above.slice(0, i), seq, ...above.slice(i)];
    if (above.length > MAX_EARLY) {
      upTo = above[0]!;
      let k = 1;
      while (k < above.length && above[k] === upTo + 1) upTo = above[k++]!;
      above = above.slice(k);
    }
  }
  return { appliedUpTo: upTo, appliedAbove: above };
}

function apply(state: ThreadState, event: ThreadEvent): ThreadState {
  switch (event.type) {
    case 'message.created': {
      const i = findRow(state, event.message_id, event.role);
      if (event.role === 'user') {
        if (i !== -1) return state;
        return addRow(state, { kind: 'user', id: event.message_id, text: event.text });
      }
      const base: AssistantRow = { kind: 'assistant', id: event.message_id, text: event.text, status: 'streaming' };
      if (event.turn_id) base.turn_id = event.turn_id;
      if (event.driver) base.driver = event.driver;
      if (i === -1) return addRow(state, base);
      const row = state.rows[i] as AssistantRow;
      return replaceRow(state, i, { ...row, ...base, text: event.text + row.text, status: row.status });
    }
    case 'message.delta': {
      const i = findRow(state, event.message_id, 'assistant');
      if (i === -1) {
        return addRow(state, { kind: 'assistant', id: event.message_id, text: event.delta, status: 'streaming' });
      }
      const row = state.rows[i] as AssistantRow;
      return replaceRow(state, i, { ...row, text: row.text + event.delta });
    }
    case 'message.done': {
      const i = findRow(state, event.message_id, 'assistant');
      const row: AssistantRow =
        i === -1
          ? { kind: 'assistant', id: event.message_id, text: '', status: 'done' }
          : { ...(state.rows[i] as AssistantRow), status: 'done' };
      if (event.usage) row.usage = event.usage;
      return i === -1 ? addRow(state, row) : replaceRow(state, i, row);
    }
    case 'turn.error': {
      let next = state;
      if (event.turn_id) next = failStreamingMessages(next, event.turn_id);
      return addRow(next, {
        kind: 'error',
        id: `turn-error-${event.seq}`,
        code: event.code,
        message: event.message,
        recoverable: event.recoverable,
      });
    }
    case 'capability.started': {
      const i = findRow(state, event.invocation_id, 'invocation');
      const known = {
        capability: event.capability,
        title: event.title,
        args: event.args,
        ...(event.actor ? { actor: event.actor } : {}),
      };
      if (i === -1) {
        const row: InvocationRow = {
          kind: 'invocation',
          id: event.invocation_id,
          ...known,
          state: 'running',
          output: '',
          outputTruncated: false,
          startedAt: event.ts,
        };
        return openCast(addRow(state, row), row);
      }
      const row: InvocationRow = { ...(state.rows[i] as InvocationRow), ...known, startedAt: event.ts };
      const next = replaceRow(state, i, row);
      return row.state === 'running' ? openCast(next, row) : next;
    }
    case 'capability.progress': {
      const { next, index, row } = ensureInvocation(state, event.invocation_id, event.ts, true);
      if (row.state !== 'running') return next;
      const progress: ProgressInfo = { progress: event.progress };
      if (event.total !== undefined) progress.total = event.total;
      if (event.message !== undefined) progress.message = event.message;
      const updated = { ...row, progress };
      return openCast(replaceRow(next, index, updated), updated);
    }
    case 'capability.output': {
      const { next, index, row } = ensureInvocation(state, event.invocation_id, event.ts, true);
      let output = row.output + event.text;
      let outputTruncated = row.outputTruncated;
      if (output.length > OUTPUT_LIMIT) {
        output = output.slice(output.length - OUTPUT_LIMIT);
        outputTruncated = true;
      }
      return replaceRow(next, index, { ...row, output, outputTruncated });
    }
    case 'capability.done': {
      const { next, index, row } = ensureInvocation(state, event.invocation_id, event.ts, false);
      const updated: InvocationRow = {
        ...row,
        state: event.result.isError ? 'error' : 'done',
        result: event.result,
        endedAt: event.ts,
      };
      return settle(replaceRow(next, index, updated), updated);
    }
    case 'capability.error': {
      const { next, index, row } = ensureInvocation(state, event.invocation_id, event.ts, false);
      const updated: InvocationRow = {
        ...row,
        capability: row.capability || event.capability,
        title: row.capability ? row.title : (event.title ?? event.capability),
        state: 'error',
        error: event.error,
        recoverable: event.recoverable,
        endedAt: event.ts,
      };
      if (event.result) updated.result = event.result;
      return settle(replaceRow(next, index, updated), updated);
    }
    default:
      return event satisfies never;
  }
}

function recordMalformed(state: ThreadState, reason: string): ThreadState {
  const malformed = state.malformed + 1;
  return addRow(
    { ...state, malformed },
    {
      kind: 'error',
      id: `malformed-${malformed}`,
      code: 'malformed_event',
      message: `Skipped an event the chat could not read (${reason}). Nothing else was lost.`,
      recoverable: false,
    },
  );
}

/** Index of the row with this id and kind, searched from the end (updates touch recent rows). */
function findRow(state: ThreadState, id: string, kind: Row['kind']): number {
  const { rows } = state;
  for (let i = rows.length - 1; i >= 0; i--) {
    const row = rows[i]!;
    if (row.id === id && row.kind === kind) return i;
  }
  return -1;
}

function addRow(state: ThreadState, row: Row): ThreadState {
  return { ...state, rows: [...state.rows, row], ids: [...state.ids, row.id] };
}

function replaceRow(state: ThreadState, index: number, row: Row): ThreadState {
  const rows = state.rows.slice();
  rows[index] = row;
  return { ...state, rows };
}

/** The invocation's row, created (running, title unknown) when a later event arrives first. */
function ensureInvocation(
  state: ThreadState,
  invocationId: string,
  ts: number,
  started: boolean,
): { next: ThreadState; index: number; row: InvocationRow } {
  const index = findRow(state, invocationId, 'invocation');
  if (index !== -1) return { next: state, index, row: state.rows[index] as InvocationRow };
  const row: InvocationRow = {
    kind: 'invocation',
    id: invocationId,
    capability: '',
    title: 'Working…',
    args: undefined,
    state: 'running',
    output: '',
    outputTruncated: false,
  };
  if (started) row.startedAt = ts;
  const next = openCast(addRow(state, row), row);
  return { next, index: next.rows.length - 1, row };
}

function openCast(state: ThreadState, row: InvocationRow): ThreadState {
  const entry: CastEntry = { invocation_id: row.id, capability: row.capability, title: row.title };
  if (row.actor) entry.actor = row.actor;
  if (row.progress) entry.progress = row.progress;
  return { ...state, open: { ...state.open, [row.id]: entry } };
}

function settle(state: ThreadState, row: InvocationRow): ThreadState {
  const { [row.id]: _closed, ...open } = state.open;
  const finished = row.state === 'done' && row.capability !== '';
  return { ...state, open, lastCapability: finished ? row.capability : state.lastCapability };
}

function failStreamingMessages(state: ThreadState, turnId: string): ThreadState {
  let next = state;
  for (let i = state.rows.length - 1; i >= 0; i--) {
    const row = state.rows[i]!;
    if (row.kind === 'assistant' && row.turn_id === turnId && row.status === 'streaming') {
      next = replaceRow(next, i, { ...row, status: 'error' });
    }
  }
  return next;
}
