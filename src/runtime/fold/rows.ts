// The transcript's rows, as the fold makes them: types only, so any module can name a row
// without importing the fold (postconditions, the host, the components).
import type { Actor } from '../capabilitySchemas';
import type { CapabilityResult } from '../envelope';
import type { CapabilityError, Citation, CitationLocation, CitedSource, DriverInfo, EventOf, FeedbackRating, SubThreadOutcome, Usage } from '../events';
import type { AttachmentRef } from '../events/messages';
import type { RunStatus } from '../runStatus';
import type { ElicitationRow } from './elicitationRow';

export type { ElicitationRow } from './elicitationRow';

/** A user's message. */
export interface UserRow {
  kind: 'user';
  id: string;
  /** What the user typed; with `skill`, the task they gave the skill. */
  text: string;
  /** The skill the message loads, by its slash name (`/summarize`): shown as a chip before the task. */
  skill?: string;
  turn_id?: string;
  /** An edit: the first version's id (this row is one of its versions). */
  version_of?: string;
  /** The files the message carries (ids, names, types and sizes; the bytes stay on the server). */
  attachments?: AttachmentRef[];
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
  /** The user's rating of the reply, as they left it last; absent when none (or withdrawn). */
  feedback?: Feedback;
  /** Seq of the `message.feedback` that set `feedback` (the highest wins, whatever the arrival order). */
  feedbackSeq?: number;
  /** The model's reasoning before this reply, when it showed any (`reasoning.delta` / `reasoning.done`). */
  reasoning?: Reasoning;
  /** The sources the reply cites, numbered in the order first cited (`message.cited`). */
  citations?: readonly ReplySource[];
}

/**
 * One numbered source of a reply: what it cites (the same source, passage and location cited
 * again keeps its number) and the spans of the reply's text that cite it.
 */
export interface ReplySource {
  /** Its number in the reply, from 1: the marker "[1]" after each span that cites it. */
  n: number;
  source: CitedSource;
  cited_text: string;
  location?: CitationLocation;
  /** The spans of the reply's text (UTF-16 offsets, `end` exclusive) that cite it; none for a source of the whole reply. */
  ranges: readonly NonNullable<Citation['range']>[];
  /** Seq of the first `message.cited` that named it: the numbers follow it, whatever the arrival order. */
  seq: number;
}

/**
 * The model's reasoning before a reply: its text as it streamed, `streaming` until its
 * `reasoning.done`, and when it started and ended (the events' `ts`, ms) so the surface can say
 * "Thought for 4 s".
 */
export interface Reasoning {
  text: string;
  status: 'streaming' | 'done';
  /** Some of it was hidden by the provider's safety systems. */
  redacted?: boolean;
  /** `ts` of its first event. */
  startedAt: number;
  /** `ts` of its `reasoning.done`. */
  endedAt?: number;
  /** Seq of that `reasoning.done` (a delta with a higher seq opens it again: reasoning after a pause). */
  doneSeq?: number;
}

/** A user's rating of a reply, with their optional comment. */
export interface Feedback {
  rating: FeedbackRating;
  comment?: string;
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
  /** `queued` until it starts; `cancelled` when the user or host stopped it. The same words as its job's `status`. */
  state: RunStatus;
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
  /** The arguments' JSON text so far while the model writes them (`invocation.args.delta`); gone once it starts or is dropped. */
  argsText?: string;
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
  | SubThreadOriginRow
  | ElicitationRow;

/** The row of one kind. */
export type RowOf<K extends Row['kind']> = Extract<Row, { kind: K }>;

/** A row that asks the user for a decision that resumes the turn (see `isWaiting`). */
export type DecisionRow = ProposalRow | ApprovalRow | QuestionRow;
