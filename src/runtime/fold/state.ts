// The state the fold reaches: its rows, the cast of running invocations, the thread's own
// state (turn, view, selections, skills) and the bookkeeping that makes arrival order not matter.
import type { ActiveView, Composer } from '../events';
import type { Actor } from '../capabilitySchemas';
import type { ProgressInfo, Row } from './rows';
import { initialVersions, type Versions } from './versions';

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
  /**
   * Transcript rows of the shown versions, in arrival order within each reply; rows are never
   * removed or reordered except when the shown version changes (then the array is a new one).
   */
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
  /**
   * Edits and regenerations (runtime/fold/versions.ts): the groups of versions, which is shown,
   * and the rows of those not shown. `rows` is the shown path only. Absent in a state restored
   * from before versions existed.
   */
  versions?: Versions;
}

export const initialSeqs: FoldSeqs = {
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
  versions: initialVersions,
};

/** True when `seq` was already applied to `state`. */
export function hasApplied(state: Pick<ThreadState, 'appliedUpTo' | 'appliedAbove'>, seq: number): boolean {
  return seq <= state.appliedUpTo || state.appliedAbove.includes(seq);
}
