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
  return foldAll(state, [input]);
}

/**
 * Folds many events; the result equals folding them one by one, but the
 * transcript is copied once per batch rather than once per event.
 */
export function foldAll(state: ThreadState, events: Iterable<unknown>): ThreadState {
  const draft = new Draft(state);
  for (const input of events) {
    const parsed = parseThreadEvent(input);
    if (!parsed.ok) recordMalformed(draft, parsed.error);
    else if (draft.markApplied(parsed.event.seq)) apply(draft, parsed.event);
  }
  return draft.finish();
}

/** True when `seq` was already applied to `state`. */
export function hasApplied(state: Pick<ThreadState, 'appliedUpTo' | 'appliedAbove'>, seq: number): boolean {
  return seq <= state.appliedUpTo || state.appliedAbove.includes(seq);
}

/**
 * A writable view of one state during a batch. Arrays and the cast map are
 * copied on first write, so untouched parts keep their identity (selectors
 * over them do not fire) and the input state is never mutated.
 */
class Draft {
  rows: readonly Row[];
  ids: readonly string[];
  open: Readonly<Record<string, CastEntry>>;
  lastCapability: string | null;
  appliedUpTo: number;
  appliedAbove: readonly number[];
  malformed: number;
  private changed = false;
  private rowsOwned = false;
  private idsOwned = false;
  private openOwned = false;

  constructor(private readonly base: ThreadState) {
    this.rows = base.rows;
    this.ids = base.ids;
    this.open = base.open;
    this.lastCapability = base.lastCapability;
    this.appliedUpTo = base.appliedUpTo;
    this.appliedAbove = base.appliedAbove;
    this.malformed = base.malformed;
  }

  /** Records `seq` as applied; false when it already was (a replay). */
  markApplied(seq: number): boolean {
    if (hasApplied(this, seq)) return false;
    this.changed = true;
    let upTo = this.appliedUpTo;
    let above = this.appliedAbove;
    if (seq === upTo + 1) {
      upTo = seq;
      let k = 0;
      while (k < above.length && above[k] === upTo + 1) upTo = above[k++]!;
      if (k) above = above.slice(k);
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
    this.appliedUpTo = upTo;
    this.appliedAbove = above;
    return true;
  }

  /** Index of the row with this id and kind, searched from the end (updates touch recent rows). */
  find(id: string, kind: Row['kind']): number {
    const { rows } = this;
    for (let i = rows.length - 1; i >= 0; i--) {
      const row = rows[i]!;
      if (row.id === id && row.kind === kind) return i;
    }
    return -1;
  }

  add(row: Row): void {
    this.changed = true;
    if (!this.rowsOwned) {
      this.rows = this.rows.slice();
      this.rowsOwned = true;
    }
    if (!this.idsOwned) {
      this.ids = this.ids.slice();
      this.idsOwned = true;
    }
    (this.rows as Row[]).push(row);
    (this.ids as string[]).push(row.id);
  }

  replace(index: number, row: Row): void {
    this.changed = true;
    if (!this.rowsOwned) {
      this.rows = this.rows.slice();
      this.rowsOwned = true;
    }
    (this.rows as Row[])[index] = row;
  }

  setCast(id: string, entry: CastEntry | null): void {
    this.changed = true;
    if (!this.openOwned) {
      this.open = { ...this.open };
      this.openOwned = true;
    }
    const open = this.open as Record<string, CastEntry>;
    if (entry) open[id] = entry;
    else delete open[id];
  }

  finish(): ThreadState {
    if (!this.changed) return this.base;
    return {
      rows: this.rows,
      ids: this.ids,
      open: this.open,
      lastCapability: this.lastCapability,
      appliedUpTo: this.appliedUpTo,
      appliedAbove: this.appliedAbove,
      malformed: this.malformed,
    };
  }
}

function apply(d: Draft, event: ThreadEvent): void {
  switch (event.type) {
    case 'message.created': {
      const i = d.find(event.message_id, event.role);
      if (event.role === 'user') {
        if (i === -1) d.add({ kind: 'user', id: event.message_id, text: event.text });
        return;
      }
      const base: AssistantRow = { kind: 'assistant', id: event.message_id, text: event.text, status: 'streaming' };
      if (event.turn_id) base.turn_id = event.turn_id;
      if (event.driver) base.driver = event.driver;
      if (i === -1) return d.add(base);
      const row = d.rows[i] as AssistantRow;
      return d.replace(i, { ...row, ...base, text: event.text + row.text, status: row.status });
    }
    case 'message.delta': {
      const i = d.find(event.message_id, 'assistant');
      if (i === -1) return d.add({ kind: 'assistant', id: event.message_id, text: event.delta, status: 'streaming' });
      const row = d.rows[i] as AssistantRow;
      return d.replace(i, { ...row, text: row.text + event.delta });
    }
    case 'message.done': {
      const i = d.find(event.message_id, 'assistant');
      const row: AssistantRow =
        i === -1
          ? { kind: 'assistant', id: event.message_id, text: '', status: 'done' }
          : { ...(d.rows[i] as AssistantRow), status: 'done' };
      if (event.usage) row.usage = event.usage;
      return i === -1 ? d.add(row) : d.replace(i, row);
    }
    case 'turn.error': {
      if (event.turn_id) failStreamingMessages(d, event.turn_id);
      return d.add({
        kind: 'error',
        id: `turn-error-${event.seq}`,
        code: event.code,
        message: event.message,
        recoverable: event.recoverable,
      });
    }
    case 'capability.started': {
      const i = d.find(event.invocation_id, 'invocation');
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
        d.add(row);
        return openCast(d, row);
      }
      const row: InvocationRow = { ...(d.rows[i] as InvocationRow), ...known, startedAt: event.ts };
      d.replace(i, row);
      if (row.state === 'running') openCast(d, row);
      return;
    }
    case 'capability.progress': {
      const { index, row } = ensureInvocation(d, event.invocation_id, event.ts, true);
      if (row.state !== 'running') return;
      const progress: ProgressInfo = { progress: event.progress };
      if (event.total !== undefined) progress.total = event.total;
      if (event.message !== undefined) progress.message = event.message;
      const updated = { ...row, progress };
      d.replace(index, updated);
      return openCast(d, updated);
    }
    case 'capability.output': {
      const { index, row } = ensureInvocation(d, event.invocation_id, event.ts, true);
      let output = row.output + event.text;
      let outputTruncated = row.outputTruncated;
      if (output.length > OUTPUT_LIMIT) {
        output = output.slice(output.length - OUTPUT_LIMIT);
        outputTruncated = true;
      }
      return d.replace(index, { ...row, output, outputTruncated });
    }
    case 'capability.done': {
      const { index, row } = ensureInvocation(d, event.invocation_id, event.ts, false);
      const updated: InvocationRow = {
        ...row,
        state: event.result.isError ? 'error' : 'done',
        result: event.result,
        endedAt: event.ts,
      };
      d.replace(index, updated);
      return settle(d, updated);
    }
    case 'capability.error': {
      const { index, row } = ensureInvocation(d, event.invocation_id, event.ts, false);
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
      d.replace(index, updated);
      return settle(d, updated);
    }
    default:
      return event satisfies never;
  }
}

function recordMalformed(d: Draft, reason: string): void {
  d.malformed += 1;
  d.add({
    kind: 'error',
    id: `malformed-${d.malformed}`,
    code: 'malformed_event',
    message: `Skipped an event the chat could not read (${reason}). Nothing else was lost.`,
    recoverable: false,
  });
}

/** The invocation's row, created (running, title unknown) when a later event arrives first. */
function ensureInvocation(d: Draft, invocationId: string, ts: number, started: boolean): { index: number; row: InvocationRow } {
  const index = d.find(invocationId, 'invocation');
  if (index !== -1) return { index, row: d.rows[index] as InvocationRow };
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
  d.add(row);
  openCast(d, row);
  return { index: d.rows.length - 1, row };
}

function openCast(d: Draft, row: InvocationRow): void {
  const entry: CastEntry = { invocation_id: row.id, capability: row.capability, title: row.title };
  if (row.actor) entry.actor = row.actor;
  if (row.progress) entry.progress = row.progress;
  d.setCast(row.id, entry);
}

function settle(d: Draft, row: InvocationRow): void {
  if (row.id in d.open) d.setCast(row.id, null);
  if (row.state === 'done' && row.capability !== '') d.lastCapability = row.capability;
}

function failStreamingMessages(d: Draft, turnId: string): void {
  for (let i = d.rows.length - 1; i >= 0; i--) {
    const row = d.rows[i]!;
    if (row.kind === 'assistant' && row.turn_id === turnId && row.status === 'streaming') {
      d.replace(i, { ...row, status: 'error' });
    }
  }
}
