import type { Actor } from './capability';
import type { CapabilityResult } from './envelope';
import {
  parseThreadEvent,
  type ActiveView,
  type CapabilityError,
  type Composer,
  type DriverInfo,
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
  /** Postconditions that did not hold after it finished (it stays done). */
  violations?: Violation[];
  /** Set when a soft duration bound was exceeded. */
  slow?: { max_ms: number; actual_ms: number };
  turn_id?: string;
  job_id?: string;
}

export interface Violation {
  postcondition: string;
  expected: string;
  actual: string;
  message: string;
}

/** A capability the assistant proposes; the user accepts or dismisses it. */
export interface ProposalRow {
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
export interface ApprovalRow {
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
export interface QuestionRow {
  kind: 'question';
  id: string;
  question: string;
  options: { label: string; value: string }[];
  status: 'pending' | 'answered';
  answer?: string;
  turn_id?: string;
}

/** A postcondition that failed, as its own transcript row. */
export interface ViolationRow extends Violation {
  kind: 'violation';
  id: string;
  invocation_id: string;
  /** Title of the invocation it concerns. */
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
  | SkillOfferRow;

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
  /** The turn in progress, if any (the Stop button stops it). */
  activeTurn: string | null;
  /** What the user is looking at in the host app. */
  activeView: ActiveView | null;
  /** The thread's selections: harness, agent, model. */
  composer: Composer;
  /** Skills whose instructions are loaded, in activation order. */
  activeSkills: readonly string[];
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
  activeTurn: null,
  activeView: null,
  composer: {},
  activeSkills: [],
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
  /** The next state: a shallow copy of the base whose fields the batch sets. */
  readonly next: { -readonly [K in keyof ThreadState]: ThreadState[K] };
  private changed = false;
  private rowsOwned = false;
  private idsOwned = false;
  private openOwned = false;
  /** `${kind}:${id}` → position; shared along a thread's states (see `indexFor`). */
  private readonly index: Map<string, number>;

  constructor(private readonly base: ThreadState) {
    this.index = indexFor(base);
    this.next = { ...base };
  }

  get rows(): readonly Row[] {
    return this.next.rows;
  }

  /** Marks a change to a scalar field (rows, ids and the cast mark themselves). */
  touch(): void {
    this.changed = true;
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

  /** Position of the row with this id and kind, or -1: constant time through the index. */
  find(id: string, kind: Row['kind']): number {
    const at = this.index.get(`${kind}:${id}`);
    if (at === undefined) return -1;
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
    if (!this.rowsOwned) {
      next.rows = next.rows.slice();
      this.rowsOwned = true;
    }
    if (!this.idsOwned) {
      next.ids = next.ids.slice();
      this.idsOwned = true;
    }
    (next.rows as Row[]).push(row);
    (next.ids as string[]).push(row.id);
    this.index.set(`${row.kind}:${row.id}`, next.rows.length - 1);
  }

  replace(index: number, row: Row): void {
    this.changed = true;
    if (!this.rowsOwned) {
      this.next.rows = this.next.rows.slice();
      this.rowsOwned = true;
    }
    (this.next.rows as Row[])[index] = row;
  }

  setCast(id: string, entry: CastEntry | null): void {
    this.changed = true;
    if (!this.openOwned) {
      this.next.open = { ...this.next.open };
      this.openOwned = true;
    }
    const open = this.next.open as Record<string, CastEntry>;
    if (entry) open[id] = entry;
    else delete open[id];
  }

  finish(): ThreadState {
    if (!this.changed) return this.base;
    if (this.next.ids !== this.base.ids) indexes.set(this.next.ids, this.index);
    return this.next;
  }
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
    case 'message.created': {
      const i = d.find(event.message_id, event.role);
      if (event.role === 'user') {
        if (i === -1) d.add({ kind: 'user', id: event.message_id, text: event.text, ...(event.turn_id ? { turn_id: event.turn_id } : {}) });
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
        ...(event.turn_id ? { turn_id: event.turn_id } : {}),
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
        if (event.turn_id) row.turn_id = event.turn_id;
        d.add(row);
        return openCast(d, row);
      }
      const prior = d.rows[i] as InvocationRow;
      const row: InvocationRow = { ...prior, ...known, startedAt: event.ts };
      if (prior.state === 'queued') row.state = 'running';
      d.replace(i, row);
      if (row.state === 'running') openCast(d, row);
      return;
    }
    case 'capability.progress': {
      const { index, row } = ensureInvocation(d, event.invocation_id, event.ts, true);
      if (row.state !== 'running' && row.state !== 'queued') return;
      const progress: ProgressInfo = { progress: event.progress };
      if (event.total !== undefined) progress.total = event.total;
      if (event.message !== undefined) progress.message = event.message;
      const updated: InvocationRow = { ...row, state: 'running', progress };
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
        state: event.error.code === 'cancelled' ? 'cancelled' : 'error',
        error: event.error,
        recoverable: event.recoverable,
        endedAt: event.ts,
      };
      if (event.result) updated.result = event.result;
      d.replace(index, updated);
      return settle(d, updated);
    }
    case 'turn.started':
      d.next.activeTurn = event.turn_id;
      return d.touch();
    case 'turn.done':
      if (d.next.activeTurn === event.turn_id) d.next.activeTurn = null;
      return d.touch();
    case 'capability.queued': {
      if (d.find(event.invocation_id, 'invocation') !== -1) return;
      const row: InvocationRow = {
        kind: 'invocation',
        id: event.invocation_id,
        capability: event.capability,
        title: event.title,
        args: event.args,
        state: 'queued',
        output: '',
        outputTruncated: false,
      };
      if (event.actor) row.actor = event.actor;
      if (event.turn_id) row.turn_id = event.turn_id;
      if (event.job_id) row.job_id = event.job_id;
      return d.add(row);
    }
    case 'capability.quality_violation': {
      const { index, row } = ensureInvocation(d, event.invocation_id, event.ts, false);
      const violation: Violation = {
        postcondition: event.postcondition,
        expected: event.expected,
        actual: event.actual,
        message: event.message,
      };
      d.replace(index, { ...row, violations: [...(row.violations ?? []), violation] });
      return d.add({
        kind: 'violation',
        id: `violation-${event.seq}`,
        invocation_id: event.invocation_id,
        title: row.title,
        ...violation,
      });
    }
    case 'quality.slow': {
      const { index, row } = ensureInvocation(d, event.invocation_id, event.ts, false);
      return d.replace(index, { ...row, slow: { max_ms: event.max_ms, actual_ms: event.actual_ms } });
    }
    case 'proposal.created': {
      const i = d.find(event.proposal_id, 'proposal');
      const row: ProposalRow = {
        kind: 'proposal',
        id: event.proposal_id,
        capability: event.capability,
        title: event.title,
        args: event.args,
        status: i === -1 ? 'pending' : (d.rows[i] as ProposalRow).status,
      };
      if (event.reason !== undefined) row.reason = event.reason;
      if (event.turn_id) row.turn_id = event.turn_id;
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
      if (d.next.activeSkills.includes(event.skill)) return;
      d.next.activeSkills = [...d.next.activeSkills, event.skill];
      return d.touch();
    case 'view.changed':
      d.next.activeView = event.view;
      return d.touch();
    case 'composer.changed':
      d.next.composer = { ...d.next.composer, ...event.composer };
      return d.touch();
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
    default:
      return event satisfies never;
  }
}

function recordMalformed(d: Draft, reason: string): void {
  d.next.malformed += 1;
  d.add({
    kind: 'error',
    id: `malformed-${d.next.malformed}`,
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
  if (row.id in d.next.open) d.setCast(row.id, null);
  if (row.state === 'done' && row.capability !== '') d.next.lastCapability = row.capability;
}

function failStreamingMessages(d: Draft, turnId: string): void {
  for (let i = d.rows.length - 1; i >= 0; i--) {
    const row = d.rows[i]!;
    if (row.kind === 'assistant' && row.turn_id === turnId && row.status === 'streaming') {
      d.replace(i, { ...row, status: 'error' });
    }
  }
}
