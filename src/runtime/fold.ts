import type { Actor } from './capability';
import type { CapabilityResult } from './envelope';
import {
  isWellFormedDelta,
  parseThreadEvent,
  type ActiveView,
  type CapabilityError,
  type Composer,
  type DriverInfo,
  type EventOf,
  type SubThreadOutcome,
  type ThreadEvent,
  type Usage,
} from './events';

/** A user's message. */
export interface UserRow {
  kind: 'user';
  id: string;
  text: string;
  turn_id?: string;
}

/**
 * An assistant message; `streaming` until its `message.done`, `interrupted`
 * when that done says the reply was cut off (its text is what arrived).
 */
export interface AssistantRow {
  kind: 'assistant';
  id: string;
  text: string;
  status: 'streaming' | 'done' | 'interrupted' | 'error';
  turn_id?: string;
  driver?: DriverInfo;
  usage?: Usage;
  /** Seq of its `message.created`, once that arrived (a `turn.error` fails only messages created before it). */
  seq?: number;
}

export interface ProgressInfo {
  progress: number;
  total?: number;
  message?: string;
}

/**
 * Seqs of the events that set an invocation's fields, so an event arriving
 * late never overwrites what a later one set. Absent on rows not made by the fold.
 */
export interface InvocationSeqs {
  /** Its `capability.queued`. */
  queued?: number;
  /** Its `capability.started`. */
  started?: number;
  /** The `capability.progress` shown. */
  progress?: number;
  /** The `capability.done` or `capability.error` that ended it (the highest seq wins). */
  ended?: number;
}

/** One invocation of a capability, as its card shows it. */
export interface InvocationRow {
  kind: 'invocation';
  id: string;
  /** Machine name; empty until `capability.queued` or `.started` arrives when events came out of order. */
  capability: string;
  title: string;
  args: unknown;
  actor?: Actor;
  /** `queued` until it starts; `cancelled` when the user or host stopped it. */
  state: 'queued' | 'running' | 'done' | 'error' | 'cancelled';
  progress?: ProgressInfo;
  /** Streamed output, the last `OUTPUT_LIMIT` characters. */
  output: string;
  outputTruncated: boolean;
  result?: CapabilityResult;
  error?: CapabilityError;
  recoverable?: boolean;
  startedAt?: number;
  endedAt?: number;
  /** Postconditions that did not hold after it finished (it stays done), in seq order. */
  violations?: Violation[];
  /** Postconditions that held, in plain words (the card's "✓ checked" line). */
  checks?: { postcondition: string; text: string }[];
  /** Set when a soft duration bound was exceeded. */
  slow?: { max_ms: number; actual_ms: number };
  turn_id?: string;
  job_id?: string;
  /** The model's tool call that asked for it, when a model did. */
  call_id?: string;
  seqs?: InvocationSeqs;
}

export interface Violation {
  postcondition: string;
  expected: string;
  actual: string;
  message: string;
  /** Seq of its `capability.quality_violation`, on violations the fold recorded. */
  seq?: number;
}

/** What the intent router made of the user's request, kept on a waiting row. */
export type RouteInfo = NonNullable<EventOf<'proposal.created'>['route']>;

/**
 * What a waiting row (proposal, approval, question) needs to resume its turn
 * exactly as it was: the model's tool call it answers, what the user wrote,
 * and the route.
 */
export interface WaitingFields {
  call_id?: string;
  user_text?: string;
  route?: RouteInfo;
}

/** A capability the assistant proposes; the user accepts or dismisses it. */
export interface ProposalRow extends WaitingFields {
  kind: 'proposal';
  id: string;
  capability: string;
  title: string;
  args: unknown;
  reason?: string;
  status: 'pending' | 'accepted' | 'dismissed';
  turn_id?: string;
}

/** A mutate waiting for the user's approval before it runs. */
export interface ApprovalRow extends WaitingFields {
  kind: 'approval';
  id: string;
  capability: string;
  title: string;
  args: unknown;
  reason: string;
  status: 'pending' | 'approved' | 'denied';
  turn_id?: string;
}

/** One clarifying question, with quick answers. */
export interface QuestionRow extends WaitingFields {
  kind: 'question';
  id: string;
  question: string;
  options: { label: string; value: string }[];
  status: 'pending' | 'answered';
  answer?: string;
  turn_id?: string;
  /** `route` when it is the intent router's "once or keep watching?" question. */
  purpose?: 'route';
}

/** A postcondition that failed, as its own transcript row. */
export interface ViolationRow extends Violation {
  kind: 'violation';
  id: string;
  /** Seq of its `capability.quality_violation`. */
  seq: number;
  invocation_id: string;
  /** Title of the invocation it concerns (kept in step with the card's). */
  title: string;
}

/** A standing request handed to the host. */
export interface StandingRow {
  kind: 'standing';
  id: string;
  text: string;
  cadence?: string;
}

/** The assistant's offer to save a repeated multi-step request as a slash skill. */
export interface SkillOfferRow {
  kind: 'skill_offer';
  id: string;
  /** Capability names, in the order they ran. */
  sequence: string[];
  titles: string[];
  /** The proposed slash word, without the slash; once saved, the word it was saved under. */
  name: string;
  description: string;
  /** The instructions the skill would hold. */
  instructions?: string;
  status: 'pending' | 'saved' | 'dismissed';
  /** The saved node's path, once saved. */
  path?: string;
  turn_id?: string;
}

/**
 * A sub-thread opened from this thread (issue 15): "Opened a sub-thread: <title>", a link to the
 * child thread `id`; `running` until the child's turn ends, then its outcome.
 */
export interface SubThreadRow {
  kind: 'subthread';
  /** The child's thread id. */
  id: string;
  skill: string;
  title: string;
  task: string;
  status: 'running' | SubThreadOutcome;
  /** The child's outcome in words, once it ended. */
  summary?: string;
  turn_id?: string;
}

/** A sub-thread's outcome summarised back into its parent, a row of its own after the work. */
export interface SubThreadSummaryRow {
  kind: 'subthread_summary';
  /** The child's thread id (one summary per child). */
  id: string;
  title: string;
  outcome: SubThreadOutcome;
  summary: string;
}

/** In a sub-thread, the first row: which thread opened it and for which skill (the way back). */
export interface SubThreadOriginRow {
  kind: 'subthread_origin';
  /** The parent's thread id. */
  id: string;
  skill: string;
  title: string;
  task: string;
}

/** Something went wrong outside a capability: a model error, a malformed event. */
export interface ErrorRow {
  kind: 'error';
  id: string;
  code: string;
  message: string;
  recoverable: boolean;
  turn_id?: string;
}

export type Row =
  | UserRow
  | AssistantRow
  | InvocationRow
  | ErrorRow
  | ProposalRow
  | ApprovalRow
  | QuestionRow
  | ViolationRow
  | StandingRow
  | SkillOfferRow
  | SubThreadRow
  | SubThreadSummaryRow
  | SubThreadOriginRow;

/** An entry of the cast row: one open invocation. */
export interface CastEntry {
  invocation_id: string;
  capability: string;
  title: string;
  actor?: Actor;
  progress?: ProgressInfo;
}

/**
 * What the fold keeps so that the order events arrive in does not change the
 * state it reaches. Maps keyed by id have no prototype.
 */
export interface FoldSeqs {
  /** Seq of the `view.changed` that set `activeView` (0: none). */
  view: number;
  /** Per composer field, the seq of the `composer.changed` that set it. */
  composer: Readonly<Partial<Record<keyof Composer, number>>>;
  /** Seq of the `capability.done` that set `lastCapability` (0: none). */
  lastCapability: number;
  /** Seq of each skill's first `skill.activated`, in the order of `activeSkills`. */
  skills: readonly number[];
  /**
   * Turn id → highest seq of its `turn.done`, kept only for a done that
   * arrived while an event before it was still missing (its start may come later).
   */
  doneTurns: Readonly<Record<string, number>>;
  /** Turn id → highest seq of its `turn.error`, kept on the same terms. */
  turnErrors: Readonly<Record<string, number>>;
  /** Keys of malformed events without a usable seq (see `malformedKey`), so a replay adds no second row. */
  malformed: readonly string[];
}

export interface ThreadState {
  /** Transcript rows in arrival order; rows are never removed or reordered. */
  rows: readonly Row[];
  /** `rows[i].id`, changed only when a row is added (cheap list keys). */
  ids: readonly string[];
  /** Open (running) invocations by id, a prototype-less map; the cast row is `Object.values(open)`. */
  open: Readonly<Record<string, CastEntry>>;
  /** Name of the capability whose successful `capability.done` has the highest seq, or null. */
  lastCapability: string | null;
  /** Highest seq such that every seq up to it has been applied. */
  appliedUpTo: number;
  /** Seqs above `appliedUpTo` already applied (events that arrived early), ascending. */
  appliedAbove: readonly number[];
  /** How many malformed events were recorded and skipped (a replayed one counts once). */
  malformed: number;
  /**
   * The turn in progress, if any (the Stop button stops it): the turn of the
   * `turn.started` with the highest seq, unless a `turn.done` of it with a higher seq arrived.
   */
  activeTurn: string | null;
  /** Highest seq of any `turn.started` applied; 0 before the first. */
  lastTurnStartedSeq: number;
  /** What the user is looking at in the host app: the `view.changed` with the highest seq. */
  activeView: ActiveView | null;
  /** The thread's selections: harness, agent, model; per field, the highest seq's value. */
  composer: Composer;
  /** Skills whose instructions are loaded, in activation (seq) order. */
  activeSkills: readonly string[];
  /** Bookkeeping for order independence. */
  seqs: FoldSeqs;
}

/** Streamed output kept per card; older text is dropped and the card says so. */
export const OUTPUT_LIMIT = 8_000;
/** Gap a lost event may leave before the fold stops waiting for it. */
const MAX_EARLY = 1_024;

const initialSeqs: FoldSeqs = {
  view: 0,
  composer: {},
  lastCapability: 0,
  skills: [],
  doneTurns: Object.create(null) as Record<string, number>,
  turnErrors: Object.create(null) as Record<string, number>,
  malformed: [],
};

export const initialThreadState: ThreadState = {
  rows: [],
  ids: [],
  open: Object.create(null) as Record<string, CastEntry>,
  lastCapability: null,
  appliedUpTo: 0,
  appliedAbove: [],
  malformed: 0,
  activeTurn: null,
  lastTurnStartedSeq: 0,
  activeView: null,
  composer: {},
  activeSkills: [],
  seqs: initialSeqs,
};

/**
 * The pure reducer of the thread. Replays (a seq already applied) return the
 * same state; events may arrive in any order and reach the same state (rows
 * stay in arrival order; the deltas of one message, and the output chunks of
 * one invocation, are one stream each and are concatenated as they arrive);
 * a malformed event is recorded once as an error row and never throws.
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
    // The hot path (a reply streams thousands of deltas): checked without a copy or a result object.
    if (isWellFormedDelta(input)) {
      if (draft.markApplied(input.seq)) appendDelta(draft, input);
      continue;
    }
    const parsed = parseThreadEvent(input);
    if (!parsed.ok) recordMalformed(draft, input, parsed.error);
    else if (draft.markApplied(parsed.event.seq)) {
      apply(draft, parsed.event);
    }
  }
  return draft.finish();
}

/** True when `seq` was already applied to `state`. */
export function hasApplied(state: Pick<ThreadState, 'appliedUpTo' | 'appliedAbove'>, seq: number): boolean {
  return seq <= state.appliedUpTo || state.appliedAbove.includes(seq);
}

type Writable<T> = { -readonly [K in keyof T]: T[K] };

/**
 * A writable view of one state during a batch. Arrays and maps are copied on
 * first write, so untouched parts keep their identity (selectors over them do
 * not fire) and the input state is never mutated.
 */
class Draft {
  /** The next state: a shallow copy of the base whose fields the batch sets. */
  readonly next: Writable<ThreadState>;
  private changed = false;
  private rowsOwned = false;
  private idsOwned = false;
  private openOwned = false;
  private seqsOwned = false;
  /** The rows were copied rather than taken over: this batch starts a lineage of its own. */
  private forked = false;
  /** `${kind}:${id}` → position; shared along a thread's states, copied by a fork (see `indexFor`). */
  private index: Map<string, number>;
  /** Set when the base's row array is written in place: what the base needs to see its own rows. */
  private undo: RowUndo | null = null;
  /** When the base's ids array is appended to in place: its length before. */
  private idsTaken: number | null = null;
  /**
   * The assistant row this batch's deltas go to: a row object this draft made (no state holds it
   * yet), so the next delta of the same message is appended to it in place. A burst of deltas
   * folded together costs one row object, not one per delta (see `appendDelta`).
   */
  growing: { index: number; row: AssistantRow } | null = null;

  constructor(private readonly base: ThreadState) {
    this.index = indexFor(base);
    // Field by field rather than a spread: one shape for every draft, and a faster copy.
    this.next = {
      rows: base.rows,
      ids: base.ids,
      open: base.open,
      lastCapability: base.lastCapability,
      appliedUpTo: base.appliedUpTo,
      appliedAbove: base.appliedAbove,
      malformed: base.malformed,
      activeTurn: base.activeTurn,
      // `??`: a state from before these fields existed (restored from JSON, say).
      lastTurnStartedSeq: base.lastTurnStartedSeq ?? 0,
      activeView: base.activeView,
      composer: base.composer,
      activeSkills: base.activeSkills,
      seqs: base.seqs ?? initialSeqs,
    };
  }

  get rows(): readonly Row[] {
    return this.next.rows;
  }

  /** Marks a change to a scalar field (rows, ids, the cast and the seqs mark themselves). */
  touch(): void {
    this.changed = true;
  }

  /** The bookkeeping, writable (its nested maps are still shared: replace them, never write into them). */
  seqs(): Writable<FoldSeqs> {
    this.changed = true;
    if (!this.seqsOwned) {
      this.next.seqs = { ...this.next.seqs };
      this.seqsOwned = true;
    }
    return this.next.seqs;
  }

  /** Records `seq` as applied; false when it already was (a replay). */
  markApplied(seq: number): boolean {
    if (hasApplied(this.next, seq)) return false;
    this.changed = true;
    let upTo = this.next.appliedUpTo;
    let above = this.next.appliedAbove;
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
    this.next.appliedUpTo = upTo;
    this.next.appliedAbove = above;
    return true;
  }

  /**
   * True when an event below `seq` may still arrive (one is missing). An event
   * applied in order needs no bookkeeping: nothing that could precede it is left.
   */
  gapBelow(seq: number): boolean {
    return this.next.appliedUpTo < seq;
  }

  /** Position of the row with this id and kind, or -1: constant time through the index. */
  find(id: string, kind: Row['kind']): number {
    const at = this.index.get(`${kind}:${id}`);
    // Past this state's end: another state of the lineage added it later, so this one has not.
    if (at === undefined || at >= this.rows.length) return -1;
    const row = this.rows[at];
    if (row && row.id === id && row.kind === kind) return at;
    // Another state of the same lineage put the row elsewhere: look it up the slow way.
    for (let i = this.rows.length - 1; i >= 0; i--) {
      const r = this.rows[i]!;
      if (r.id === id && r.kind === kind) return i;
    }
    return -1;
  }

  add(row: Row): void {
    this.changed = true;
    const { next } = this;
    if (!this.rowsOwned) this.ownRows();
    if (!this.idsOwned) this.ownIds();
    (next.rows as Row[]).push(row);
    (next.ids as string[]).push(row.id);
    this.index.set(`${row.kind}:${row.id}`, next.rows.length - 1);
  }

  replace(index: number, row: Row): void {
    this.changed = true;
    if (!this.rowsOwned) this.ownRows();
    const rows = this.next.rows as Row[];
    // What the base had there, for the base's own view of its rows (see `handOver`).
    if (this.undo && index < this.undo.length && !this.undo.rows.has(index)) this.undo.rows.set(index, rows[index]!);
    rows[index] = row;
  }

  /** Makes the ids writable: appended in place when the base is their newest state (ids only grow), else copied. */
  private ownIds(): void {
    this.idsOwned = true;
    const ids = this.base.ids;
    // A fork (rows copied, see `ownRows`) copies its ids too: its own positions go with its own ids.
    if (!this.forked && ids.length > 0 && ownerOf(ids) === this.base && !Object.isFrozen(this.base) && !Object.isFrozen(ids)) this.idsTaken = ids.length;
    else this.next.ids = ids.slice();
  }

  /**
   * Makes the rows writable. When the base is the newest state of its row
   * array (nothing was folded from it yet) and can be changed, the array is
   * taken over and written in place, no copy: the base then reads its rows
   * through `handOver`'s undo record. Otherwise (a fork of an older state, a
   * frozen state, the shared empty array) it is copied.
   */
  private ownRows(): void {
    this.rowsOwned = true;
    const rows = this.base.rows;
    if (rows.length > 0 && ownerOf(rows) === this.base && !Object.isFrozen(this.base) && !Object.isFrozen(rows)) {
      this.undo = { length: rows.length, rows: new Map() };
    } else {
      this.next.rows = rows.slice();
      // A fork: its rows go their own way, so its positions do too (the copy costs what the rows' copy does).
      this.index = new Map(this.index);
      this.forked = true;
    }
  }
  setCast(id: string, entry: CastEntry | null): void {
    this.changed = true;
    if (!this.openOwned) {
      this.next.open = nullProto(this.next.open);
      this.openOwned = true;
    }
    const open = this.next.open as Record<string, CastEntry>;
    if (entry) open[id] = entry;
    else delete open[id];
  }

  finish(): ThreadState {
    if (!this.changed) return this.base;
    const ids = this.next.ids;
    if (ids !== this.base.ids) {
      indexes.set(ids, this.index);
      setOwner(ids, this.next);
    } else if (ownerOf(ids) === this.base && !Object.isFrozen(this.base)) {
      // Appended in place, or shared untouched: the next state owns them; the base keeps its length.
      setOwner(ids, this.next);
      pinIds(this.base, ids, this.idsTaken ?? ids.length);
    }
    const rows = this.next.rows;
    if (this.undo) handOver(this.base, this.next, this.undo);
    else if (rows === this.base.rows && ownerOf(rows) === this.base && !Object.isFrozen(this.base)) {
      // Untouched rows, shared: the next state is their newest reader; the base keeps its view.
      handOver(this.base, this.next, { length: rows.length, rows: new Map() });
    } else if (rows !== this.base.rows) setOwner(rows, this.next);
    return this.next;
  }
}

/**
 * Row storage without a copy per event. A state's `rows` is a plain array;
 * folding from the newest state of an array appends to it and replaces in it
 * in place (so an event costs the same on a thread of 300 rows or 30,000),
 * and the state it was folded from keeps its own view: its `rows` becomes a
 * getter that, when read, rebuilds its rows once from the newer state's and
 * the undo record (length, and the rows overwritten), then stays a plain
 * array. Folding again from such an older state (a fork) copies.
 */
interface RowUndo {
  /** How many rows the older state had. */
  length: number;
  /** Its rows at the positions the newer state overwrote. */
  rows: Map<number, Row>;
}
/**
 * The state that owns a row array (the newest one reading it as a plain
 * array), kept on the array under a symbol: no WeakMap entry per event, which
 * the garbage collector would pay for.
 */
const OWNER = Symbol('chatsurface.rowsOwner');
type Owned = readonly unknown[] & { [OWNER]?: ThreadState };
const ownerOf = (rows: readonly unknown[]): ThreadState | undefined => (rows as Owned)[OWNER];
const setOwner = (rows: readonly unknown[], state: ThreadState): void => {
  // Not enumerable, so arrays compare and serialise as plain arrays (an assignment keeps that).
  if (Object.hasOwn(rows, OWNER)) (rows as { [OWNER]?: ThreadState })[OWNER] = state;
  else Object.defineProperty(rows, OWNER, { configurable: true, enumerable: false, writable: true, value: state });
};
/** An older state whose row array was handed on: the newer state and what it changed, on the state under a symbol. */
const LINK = Symbol('chatsurface.rowsLink');
interface RowLink {
  successor: ThreadState;
  undo: RowUndo;
}
type Linked = ThreadState & { [LINK]?: RowLink };

/**
 * An older state's ids after its array was handed on: the same array while
 * nothing was appended, else its first `length` entries (ids are only ever
 * appended), copied once.
 */
function pinIds(state: ThreadState, ids: readonly string[], length: number): void {
  Object.defineProperty(state, 'ids', {
    configurable: true,
    enumerable: true,
    get(this: ThreadState) {
      if (ids.length === length) return ids;
      const own = ids.slice(0, length);
      Object.defineProperty(this, 'ids', { configurable: true, enumerable: true, writable: false, value: own });
      return own;
    },
  });
}

function rowsGetter(this: Linked): readonly Row[] {
  return ownView(this);
}

function handOver(base: ThreadState, next: ThreadState, undo: RowUndo): void {
  setOwner(next.rows, next);
  Object.defineProperty(base, LINK, { configurable: true, enumerable: false, writable: true, value: { successor: next, undo } });
  Object.defineProperty(base, 'rows', { configurable: true, enumerable: true, get: rowsGetter });
}

/** The rows of a state that handed its array on: rebuilt from the newest state along the chain, then kept. */
function ownView(state: Linked): readonly Row[] {
  // Walk to the first state reading a plain array (no recursion: a chain can be long).
  const chain: RowUndo[] = [];
  let at: Linked = state;
  for (let link = at[LINK]; link; link = at[LINK]) {
    chain.push(link.undo);
    at = link.successor as Linked;
  }
  const rows = at.rows.slice();
  for (let k = chain.length - 1; k >= 0; k--) {
    const undo = chain[k]!;
    rows.length = undo.length;
    for (const [i, row] of undo.rows) rows[i] = row;
  }
  state[LINK] = undefined;
  Object.defineProperty(state, 'rows', { configurable: true, enumerable: true, writable: false, value: rows });
  return rows;
}

/** A prototype-less copy, so ids like `__proto__` or `constructor` are ordinary keys. */
function nullProto<T>(record: Readonly<Record<string, T>>): Record<string, T> {
  return Object.assign(Object.create(null) as Record<string, T>, record);
}

/** `record[key]` when it is the record's own entry (a state restored from JSON has a prototype). */
function own<T>(record: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}

/** A copy of the record with `key` set to the higher of its value and `seq`. */
function withMax(record: Readonly<Record<string, number>>, key: string, seq: number): Record<string, number> | null {
  if ((own(record, key) ?? 0) >= seq) return null;
  const copy = nullProto(record);
  copy[key] = seq;
  return copy;
}

/**
 * Row positions by kind and id, cached per `ids` array and handed on to the
 * next state's array, so a batch never scans the transcript. Rows are never
 * removed or reordered, so an entry stays true for every later state; `find`
 * checks it anyway, which keeps states folded apart from one base correct.
 * A state without an entry (restored from JSON, say) is indexed once.
 */
const indexes = new WeakMap<readonly string[], Map<string, number>>();

function indexFor(state: ThreadState): Map<string, number> {
  // Every empty thread shares initialThreadState's arrays: each gets its own index.
  if (state.rows.length === 0) return new Map();
  let index = indexes.get(state.ids);
  if (!index) {
    index = new Map();
    state.rows.forEach((row, i) => index!.set(`${row.kind}:${row.id}`, i));
    indexes.set(state.ids, index);
  }
  return index;
}

function apply(d: Draft, event: ThreadEvent): void {
  switch (event.type) {
    case 'model.message':
      // The model's conversation: the transcript has it already, in its own words.
      return;
    case 'message.created': {
      const i = d.find(event.message_id, event.role);
      if (event.role === 'user') {
        if (i === -1) d.add({ kind: 'user', id: event.message_id, text: event.text, ...(event.turn_id ? { turn_id: event.turn_id } : {}) });
        return;
      }
      const prior = i === -1 ? null : (d.rows[i] as AssistantRow);
      // A second created for the same message (a replay under another seq) adds nothing.
      if (prior?.seq !== undefined) return;
      const row: AssistantRow = prior
        ? { ...prior, text: event.text + prior.text, seq: event.seq }
        : { kind: 'assistant', id: event.message_id, text: event.text, status: 'streaming', seq: event.seq };
      if (event.turn_id) row.turn_id = event.turn_id;
      if (event.driver) row.driver = event.driver;
      // A turn.error after it that arrived first.
      if (row.status === 'streaming' && event.turn_id && (own(d.next.seqs.turnErrors, event.turn_id) ?? 0) > event.seq) row.status = 'error';
      return i === -1 ? d.add(row) : d.replace(i, row);
    }
    case 'message.delta':
      return appendDelta(d, event);
    case 'message.done': {
      // Done wins over a turn error whatever their order: a message that finished stays finished.
      const status = event.interrupted ? 'interrupted' : 'done';
      const i = d.find(event.message_id, 'assistant');
      const row: AssistantRow =
        i === -1
          ? { kind: 'assistant', id: event.message_id, text: '', status }
          : { ...(d.rows[i] as AssistantRow), status };
      if (event.usage) row.usage = event.usage;
      return i === -1 ? d.add(row) : d.replace(i, row);
    }
    case 'turn.error': {
      if (event.turn_id) {
        failStreamingMessages(d, event.turn_id, event.seq);
        if (d.gapBelow(event.seq)) {
          const turnErrors = withMax(d.next.seqs.turnErrors, event.turn_id, event.seq);
          if (turnErrors) d.seqs().turnErrors = turnErrors;
        }
      }
      return d.add({
        kind: 'error',
        id: `turn-error-${event.seq}`,
        code: event.code,
        message: event.message,
        recoverable: event.recoverable,
        ...(event.turn_id ? { turn_id: event.turn_id } : {}),
      });
    }
    case 'turn.started': {
      if (event.seq <= d.next.lastTurnStartedSeq) return; // an earlier turn, arriving late
      d.next.lastTurnStartedSeq = event.seq;
      const doneAt = own(d.next.seqs.doneTurns, event.turn_id) ?? 0;
      d.next.activeTurn = doneAt > event.seq ? null : event.turn_id;
      return d.touch();
    }
    case 'turn.done': {
      if (d.next.activeTurn === event.turn_id && event.seq > d.next.lastTurnStartedSeq) {
        d.next.activeTurn = null;
        d.touch();
      }
      // Its start (or a later start of the same turn id) may still arrive.
      if (d.gapBelow(event.seq)) {
        const doneTurns = withMax(d.next.seqs.doneTurns, event.turn_id, event.seq);
        if (doneTurns) d.seqs().doneTurns = doneTurns;
      }
      return;
    }
    case 'capability.queued': {
      const { index, row: prior } = invocationAt(d, event.invocation_id);
      let row: InvocationRow;
      if (!prior) {
        row = {
          kind: 'invocation',
          id: event.invocation_id,
          capability: event.capability,
          title: event.title,
          args: event.args,
          state: 'queued',
          output: '',
          outputTruncated: false,
          seqs: { queued: event.seq },
        };
        if (event.actor) row.actor = event.actor;
        if (event.turn_id) row.turn_id = event.turn_id;
      } else if (prior.seqs?.started === undefined) {
        // Events after it arrived first: it names the card until started does; the state stays theirs.
        row = { ...prior, capability: event.capability, title: event.title, args: event.args, seqs: { ...prior.seqs, queued: event.seq } };
        if (event.actor) row.actor = event.actor;
        if (event.turn_id) row.turn_id = event.turn_id;
      } else {
        // Started arrived first and names the card; queued fills only what started left out.
        row = { ...prior, seqs: { ...prior.seqs, queued: event.seq } };
        if (event.actor && !row.actor) row.actor = event.actor;
        if (event.turn_id && !row.turn_id) row.turn_id = event.turn_id;
      }
      if (event.job_id) row.job_id = event.job_id;
      return putInvocation(d, index, prior, row);
    }
    case 'capability.started': {
      const { index, row: prior } = invocationAt(d, event.invocation_id);
      const row: InvocationRow = prior
        ? { ...prior, capability: event.capability, title: event.title, args: event.args, startedAt: event.ts, seqs: { ...prior.seqs, started: event.seq } }
        : {
            kind: 'invocation',
            id: event.invocation_id,
            capability: event.capability,
            title: event.title,
            args: event.args,
            state: 'running',
            output: '',
            outputTruncated: false,
            startedAt: event.ts,
            seqs: { started: event.seq },
          };
      if (event.actor) row.actor = event.actor;
      if (event.turn_id) row.turn_id = event.turn_id;
      if (event.call_id) row.call_id = event.call_id;
      // A card that ended already (its done arrived first) stays ended.
      if (row.state === 'queued') row.state = 'running';
      return putInvocation(d, index, prior, row);
    }
    case 'capability.progress': {
      const { index, row: prior } = invocationAt(d, event.invocation_id);
      const base = prior ?? { ...placeholder(event.invocation_id), startedAt: event.ts };
      const seqs = base.seqs ?? {};
      // Progress after the card ended (by seq) changes nothing.
      if (isEnded(base) && (seqs.ended === undefined || event.seq > seqs.ended)) return;
      const state = base.state === 'queued' ? 'running' : base.state;
      let row: InvocationRow;
      if ((seqs.progress ?? 0) < event.seq) {
        const progress: ProgressInfo = { progress: event.progress };
        if (event.total !== undefined) progress.total = event.total;
        if (event.message !== undefined) progress.message = event.message;
        row = { ...base, state, progress, seqs: { ...seqs, progress: event.seq } };
      } else {
        // An older progress than the one shown: it only says the card runs.
        if (prior && state === prior.state) return;
        row = { ...base, state };
      }
      return putInvocation(d, index, prior, row);
    }
    case 'capability.output': {
      const { index, row: prior } = invocationAt(d, event.invocation_id);
      const base = prior ?? { ...placeholder(event.invocation_id), startedAt: event.ts };
      let output = base.output + event.text;
      let outputTruncated = base.outputTruncated;
      if (output.length > OUTPUT_LIMIT) {
        output = output.slice(output.length - OUTPUT_LIMIT);
        outputTruncated = true;
      }
      const row: InvocationRow = { ...base, output, outputTruncated };
      // Output changes neither the state nor what the cast shows.
      return prior ? d.replace(index, row) : putInvocation(d, index, prior, row);
    }
    case 'capability.done': {
      const { index, row: prior } = invocationAt(d, event.invocation_id);
      const base = prior ?? placeholder(event.invocation_id);
      if ((base.seqs?.ended ?? 0) > event.seq) return; // a later end arrived first
      const row: InvocationRow = {
        ...(base.error === undefined && base.recoverable === undefined ? base : withoutError(base)),
        state: event.result.isError ? 'error' : 'done',
        result: event.result,
        endedAt: event.ts,
        seqs: { ...base.seqs, ended: event.seq },
      };
      return putInvocation(d, index, prior, row);
    }
    case 'capability.error': {
      const { index, row: prior } = invocationAt(d, event.invocation_id);
      const base = prior ?? placeholder(event.invocation_id);
      const seqs = base.seqs;
      if ((seqs?.ended ?? 0) > event.seq) return;
      // Named by queued or started when either arrived; by the error itself otherwise (e.g. bad arguments).
      const named = seqs ? seqs.queued !== undefined || seqs.started !== undefined : base.capability !== '';
      const row: InvocationRow = {
        ...(base.result === undefined ? base : withoutResult(base)),
        capability: named ? base.capability : event.capability,
        title: named ? base.title : (event.title ?? event.capability),
        state: event.error.code === 'cancelled' ? 'cancelled' : 'error',
        error: event.error,
        recoverable: event.recoverable,
        endedAt: event.ts,
        seqs: { ...seqs, ended: event.seq },
      };
      if (event.result) row.result = event.result;
      return putInvocation(d, index, prior, row);
    }
    case 'capability.quality_violation': {
      const { index, row: prior } = invocationAt(d, event.invocation_id);
      const base = prior ?? placeholder(event.invocation_id);
      const violation: Violation = {
        postcondition: event.postcondition,
        expected: event.expected,
        actual: event.actual,
        message: event.message,
        seq: event.seq,
      };
      const violations = [...(base.violations ?? [])];
      let at = violations.length;
      while (at > 0 && (violations[at - 1]!.seq ?? 0) > event.seq) at--;
      violations.splice(at, 0, violation);
      const row: InvocationRow = { ...base, violations };
      putInvocation(d, index, prior, row);
      return d.add({
        kind: 'violation',
        id: `violation-${event.seq}`,
        invocation_id: event.invocation_id,
        title: row.title,
        ...violation,
        seq: event.seq,
      });
    }
    case 'capability.checked': {
      const { index, row: prior } = invocationAt(d, event.invocation_id);
      const base = prior ?? placeholder(event.invocation_id);
      return putInvocation(d, index, prior, { ...base, checks: event.checks.map((c) => ({ postcondition: c.postcondition, text: c.text })) });
    }
    case 'quality.slow': {
      const { index, row: prior } = invocationAt(d, event.invocation_id);
      const base = prior ?? placeholder(event.invocation_id);
      return putInvocation(d, index, prior, { ...base, slow: { max_ms: event.max_ms, actual_ms: event.actual_ms } });
    }
    case 'proposal.created': {
      const i = d.find(event.proposal_id, 'proposal');
      const row: ProposalRow = {
        kind: 'proposal',
        id: event.proposal_id,
        capability: event.capability,
        title: event.title,
        args: event.args,
        // A resolution that arrived first is kept.
        status: i === -1 ? 'pending' : (d.rows[i] as ProposalRow).status,
      };
      if (event.reason !== undefined) row.reason = event.reason;
      if (event.turn_id) row.turn_id = event.turn_id;
      copyWaiting(event, row);
      return i === -1 ? d.add(row) : d.replace(i, row);
    }
    case 'proposal.resolved': {
      const i = d.find(event.proposal_id, 'proposal');
      if (i === -1) {
        return d.add({ kind: 'proposal', id: event.proposal_id, capability: '', title: 'Proposal', args: undefined, status: event.decision });
      }
      return d.replace(i, { ...(d.rows[i] as ProposalRow), status: event.decision });
    }
    case 'approval.requested': {
      const i = d.find(event.approval_id, 'approval');
      const row: ApprovalRow = {
        kind: 'approval',
        id: event.approval_id,
        capability: event.capability,
        title: event.title,
        args: event.args,
        reason: event.reason,
        status: i === -1 ? 'pending' : (d.rows[i] as ApprovalRow).status,
      };
      if (event.turn_id) row.turn_id = event.turn_id;
      copyWaiting(event, row);
      return i === -1 ? d.add(row) : d.replace(i, row);
    }
    case 'approval.resolved': {
      const i = d.find(event.approval_id, 'approval');
      if (i === -1) {
        return d.add({ kind: 'approval', id: event.approval_id, capability: '', title: 'Approval', args: undefined, reason: '', status: event.decision });
      }
      return d.replace(i, { ...(d.rows[i] as ApprovalRow), status: event.decision });
    }
    case 'clarify.requested': {
      const i = d.find(event.question_id, 'question');
      const prior = i === -1 ? null : (d.rows[i] as QuestionRow);
      const row: QuestionRow = {
        kind: 'question',
        id: event.question_id,
        question: event.question,
        options: event.options,
        status: prior?.status ?? 'pending',
      };
      if (prior?.answer !== undefined) row.answer = prior.answer;
      if (event.turn_id) row.turn_id = event.turn_id;
      copyWaiting(event, row);
      if (event.purpose) row.purpose = event.purpose;
      return i === -1 ? d.add(row) : d.replace(i, row);
    }
    case 'clarify.answered': {
      const i = d.find(event.question_id, 'question');
      if (i === -1) {
        return d.add({ kind: 'question', id: event.question_id, question: '', options: [], status: 'answered', answer: event.answer });
      }
      return d.replace(i, { ...(d.rows[i] as QuestionRow), status: 'answered', answer: event.answer });
    }
    case 'standing.requested': {
      const row: StandingRow = { kind: 'standing', id: event.request_id, text: event.text };
      if (event.cadence !== undefined) row.cadence = event.cadence;
      return d.find(event.request_id, 'standing') === -1 ? d.add(row) : undefined;
    }
    case 'skill.activated':
      return activateSkill(d, event.skill, event.seq);
    case 'view.changed':
      if (event.seq <= d.next.seqs.view) return; // a later view arrived first
      d.next.activeView = event.view;
      d.seqs().view = event.seq;
      return;
    case 'composer.changed': {
      let composer: Writable<Composer> | null = null;
      let seqs: Partial<Record<keyof Composer, number>> | null = null;
      for (const key of Object.keys(event.composer) as (keyof Composer)[]) {
        const value = event.composer[key];
        if (value === undefined || (d.next.seqs.composer[key] ?? 0) >= event.seq) continue;
        composer ??= { ...d.next.composer };
        seqs ??= { ...d.next.seqs.composer };
        composer[key] = value;
        seqs[key] = event.seq;
      }
      if (composer && seqs) {
        d.next.composer = composer;
        d.seqs().composer = seqs;
      }
      return;
    }
    case 'skill.offered': {
      const i = d.find(event.offer_id, 'skill_offer');
      const prior = i === -1 ? null : (d.rows[i] as SkillOfferRow);
      const row: SkillOfferRow = {
        kind: 'skill_offer',
        id: event.offer_id,
        sequence: event.sequence,
        titles: event.titles,
        // Once saved, the row keeps the name the user chose.
        name: prior?.status === 'saved' ? prior.name : event.name,
        description: event.description,
        status: prior?.status ?? 'pending',
      };
      if (event.instructions !== undefined) row.instructions = event.instructions;
      if (prior?.path !== undefined) row.path = prior.path;
      if (event.turn_id) row.turn_id = event.turn_id;
      return i === -1 ? d.add(row) : d.replace(i, row);
    }
    case 'skill.saved': {
      // A skill saved directly (not from an offer) has no row of its own.
      if (event.offer_id === undefined) return;
      const i = d.find(event.offer_id, 'skill_offer');
      const saved = { status: 'saved' as const, path: event.path, name: event.name.replace(/^\//, '') };
      if (i === -1) return d.add({ kind: 'skill_offer', id: event.offer_id, sequence: [], titles: [], description: '', ...saved });
      return d.replace(i, { ...(d.rows[i] as SkillOfferRow), ...saved });
    }
    case 'skill.offer_dismissed': {
      const i = d.find(event.offer_id, 'skill_offer');
      if (i === -1) return d.add({ kind: 'skill_offer', id: event.offer_id, sequence: [], titles: [], name: '', description: '', status: 'dismissed' });
      const row = d.rows[i] as SkillOfferRow;
      // A saved skill stays saved: a late dismissal cannot unsave it.
      if (row.status === 'saved') return;
      return d.replace(i, { ...row, status: 'dismissed' });
    }
    case 'subthread.opened': {
      const i = d.find(event.subthread_id, 'subthread');
      const prior = i === -1 ? null : (d.rows[i] as SubThreadRow);
      // A done that arrived first keeps its outcome.
      const row: SubThreadRow = { kind: 'subthread', id: event.subthread_id, skill: event.skill, title: event.title, task: event.task, status: prior?.status ?? 'running' };
      if (prior?.summary !== undefined) row.summary = prior.summary;
      if (event.turn_id) row.turn_id = event.turn_id;
      return i === -1 ? d.add(row) : d.replace(i, row);
    }
    case 'subthread.done': {
      const i = d.find(event.subthread_id, 'subthread');
      const prior = i === -1 ? null : (d.rows[i] as SubThreadRow);
      const title = prior?.title || event.title || 'Sub-thread';
      const row: SubThreadRow = prior
        ? { ...prior, status: event.outcome, summary: event.summary }
        : { kind: 'subthread', id: event.subthread_id, skill: '', title, task: '', status: event.outcome, summary: event.summary };
      if (i === -1) d.add(row);
      else d.replace(i, row);
      // One summary per sub-thread: a second done (a replay under another seq) adds none.
      if (d.find(event.subthread_id, 'subthread_summary') === -1) {
        d.add({ kind: 'subthread_summary', id: event.subthread_id, title, outcome: event.outcome, summary: event.summary });
      }
      return;
    }
    case 'subthread.linked':
      if (d.find(event.parent_id, 'subthread_origin') !== -1) return;
      return d.add({ kind: 'subthread_origin', id: event.parent_id, skill: event.skill, title: event.title, task: event.task });
    default:
      return event satisfies never;
  }
}

function appendDelta(d: Draft, event: EventOf<'message.delta'>): void {
  const last = d.growing;
  if (last && last.row.id === event.message_id && d.rows[last.index] === last.row) {
    last.row.text += event.delta;
    return;
  }
  const i = d.find(event.message_id, 'assistant');
  const row: AssistantRow =
    i === -1 ? { kind: 'assistant', id: event.message_id, text: event.delta, status: 'streaming' } : { ...(d.rows[i] as AssistantRow), text: (d.rows[i] as AssistantRow).text + event.delta };
  if (i === -1) d.add(row);
  else d.replace(i, row);
  d.growing = { index: i === -1 ? d.rows.length - 1 : i, row };
}

function copyWaiting(event: EventOf<'proposal.created' | 'approval.requested' | 'clarify.requested'>, row: WaitingFields): void {
  if (event.call_id) row.call_id = event.call_id;
  if (event.user_text !== undefined) row.user_text = event.user_text;
  if (event.route) row.route = event.route;
}

/**
 * Records a malformed event once. One whose raw object has a usable `seq`
 * consumes that seq (a replay of it, or any event under that seq later, is
 * skipped); one without is known by `malformedKey` of its raw value, so
 * identical seq-less malformed events count as one.
 */
function recordMalformed(d: Draft, raw: unknown, reason: string): void {
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

/** The invocation's row and position, or null and -1. */
function invocationAt(d: Draft, id: string): { index: number; row: InvocationRow | null } {
  const index = d.find(id, 'invocation');
  return { index, row: index === -1 ? null : (d.rows[index] as InvocationRow) };
}

/** The row for an invocation a later event reached first: running, named by its queued or started event once that arrives. */
function placeholder(id: string): InvocationRow {
  return { kind: 'invocation', id, capability: '', title: 'Working…', args: undefined, state: 'running', output: '', outputTruncated: false, seqs: {} };
}

function withoutError(row: InvocationRow): InvocationRow {
  const { error: _error, recoverable: _recoverable, ...rest } = row;
  return rest;
}

function withoutResult(row: InvocationRow): InvocationRow {
  const { result: _result, ...rest } = row;
  return rest;
}

function isEnded(row: InvocationRow): boolean {
  return row.state === 'done' || row.state === 'error' || row.state === 'cancelled';
}

/**
 * Puts an invocation's new row in place and keeps what derives from it in
 * step: the cast (open exactly while it runs), the titles of its violation
 * rows, and `lastCapability`.
 */
function putInvocation(d: Draft, index: number, prior: InvocationRow | null, row: InvocationRow): void {
  if (index === -1) d.add(row);
  else d.replace(index, row);

  const open = d.next.open;
  const cast = own(open, row.id);
  if (row.state === 'running') {
    if (!cast || cast.capability !== row.capability || cast.title !== row.title || cast.actor !== row.actor || cast.progress !== row.progress) {
      const entry: CastEntry = { invocation_id: row.id, capability: row.capability, title: row.title };
      if (row.actor) entry.actor = row.actor;
      if (row.progress) entry.progress = row.progress;
      d.setCast(row.id, entry);
    }
  } else if (cast) {
    d.setCast(row.id, null);
  }

  if (prior && prior.title !== row.title && row.violations) {
    for (const v of row.violations) {
      const i = v.seq === undefined ? -1 : d.find(`violation-${v.seq}`, 'violation');
      if (i !== -1) d.replace(i, { ...(d.rows[i] as ViolationRow), title: row.title });
    }
  }

  const ended = row.seqs?.ended ?? 0;
  if (row.state === 'done' && row.capability !== '' && ended >= d.next.seqs.lastCapability) {
    if (d.next.lastCapability !== row.capability || d.next.seqs.lastCapability !== ended) {
      d.next.lastCapability = row.capability;
      d.seqs().lastCapability = ended;
    }
  }
}

/** Lists a skill once, at the position of its first activation by seq. */
function activateSkill(d: Draft, skill: string, seq: number): void {
  let skills = d.next.activeSkills;
  let order = d.next.seqs.skills;
  const at = skills.indexOf(skill);
  if (at !== -1) {
    if ((order[at] ?? 0) <= seq) return;
    skills = [...skills.slice(0, at), ...skills.slice(at + 1)];
    order = [...order.slice(0, at), ...order.slice(at + 1)];
  }
  // Seqs of skills listed before this bookkeeping existed count as 0.
  const seqOf = (k: number) => order[k] ?? 0;
  let i = skills.length;
  while (i > 0 && seqOf(i - 1) > seq) i--;
  const nextOrder: number[] = skills.map((_, k) => seqOf(k));
  nextOrder.splice(i, 0, seq);
  d.next.activeSkills = [...skills.slice(0, i), skill, ...skills.slice(i)];
  d.seqs().skills = nextOrder;
}

/** Fails the turn's messages still streaming that were created before the error (by seq). */
function failStreamingMessages(d: Draft, turnId: string, seq: number): void {
  for (let i = d.rows.length - 1; i >= 0; i--) {
    const row = d.rows[i]!;
    if (row.kind === 'assistant' && row.turn_id === turnId && row.status === 'streaming' && (row.seq ?? 0) < seq) {
      d.replace(i, { ...row, status: 'error' });
    }
  }
}
