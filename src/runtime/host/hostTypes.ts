import type { ElicitationAnswer, ElicitationAsk } from './elicitationTypes';
import type { AnticipationMap } from '../anticipation';
import type { CapabilityDescriptor } from '../capability';
import type { CapabilityResult } from '../envelope';
import type { EventListener } from '../eventLog';
import type { ActiveView, Composer, DriverInfo, FeedbackRating } from '../events';
import type { Feedback } from '../fold';
import type { InvokeOptions } from '../invoke';
import type { Alignment, AttachmentReader, CorpusPassage, ModelDriver, Route } from '../model';
import type { PostconditionProbes } from '../postconditions';
import type { Principal } from '../principal';
import type { Registry } from '../registry';
import type { AttachmentRef } from '../events/messages';
import type { DecisionBody, FeedbackBody, InvokeBody, RegenerateBody, SkillBody, TurnBody, VersionBody } from '../requests';
import type { Catalog } from '../slash/catalog';
import type { CatalogNode } from '../catalogNodes';
import type { SkillDirectory } from '../slash/skillDirectory';
import type { Harness } from '../harness';
import type { Coordination } from '../stores/coordination';
import type { EventStore, ThreadRef } from '../stores/eventStore';

// The thread host's public shapes: its options, its requests, its errors and the host itself.
// `./threadHost` re-exports every name here, so importers keep importing from there.

/** The host's hooks behind the Connect and Disconnect skills (e.g. signing in to Claude Code). */
export interface ProviderHooks {
  /** Connects a provider (`ClaudeCode`, `Copilot`, …); reject with a message the user can act on. */
  connect(provider: string, context: { threadId: string; user: string }): Promise<void> | void;
  disconnect(provider: string, context: { threadId: string; user: string }): Promise<void> | void;
}

/** How a capability call leaves the host: `invoke` by default; the chat door and the doors' executor in a local workspace and on a server (`runThroughDoor`). */
export type RunCapability = (name: string, args: unknown, options: InvokeOptions & { principal: Principal }) => Promise<CapabilityResult>;

/** An approved job of another door, run in the thread: under the job's id, through that door. */
export interface DoorApprovalRun {
  invocationId: string;
  run: RunCapability;
}

/**
 * Approval rows another door put in a thread (`ThreadHost.requestApproval`: a REST or MCP call
 * of a capability that requires confirmation). When a person decides an approval row that
 * answers no model call, the host asks `decided` first: null when the row is not a door's (a
 * chip's, which the host runs itself); `{ ended }` when that door's job can no longer be
 * decided (expired: nothing runs, the row closes and the person is told why); `{ settled }`
 * when the job was decided already (elsewhere, or a decline here): the row closes so, and
 * nothing runs here; otherwise the decision was the job's, taken once, and `run` runs it in the thread.
 */
export interface DoorApprovalHook {
  decided(principal: Principal, approvalId: string, approved: boolean): Promise<null | { ended: string } | { settled: 'approved' | 'denied' } | DoorApprovalRun>;
}

export interface ThreadHostOptions {
  /** The verbs this workspace offers. */
  capabilities: readonly CapabilityDescriptor[];
  /** The model that answers. @default the offline driver */
  driver?: ModelDriver;
  /** `strict` proposes anything the user did not name; `loose` runs a single clear match. @default 'strict' */
  alignment?: Alignment;
  /** Suggested next verbs by `${view.kind}::${lastCapability | 'none'}`. @default {} */
  anticipation?: AnticipationMap;
  /** Clock for event timestamps and idleness. @default Date.now */
  now?: () => number;
  /** A turn's whitelist by view and composer, as capability names; undefined means all. @default all */
  whitelist?: (scope: { view: ActiveView | null; composer: Composer }) => readonly string[] | undefined;
  /** Per-organisation reminders for the model (cached prompt slab [4]). @default '' */
  reminders?: string;
  /** Reads a principal's attached files for the model (the workspace server passes its attachment store's). @default none: drivers get no file bytes */
  readAttachment?: (principal: Principal) => AttachmentReader;
  /** Retrieves passages for a message (uncached slab [7]); a failure shows a row and the turn goes on. */
  retrieve?: (query: { threadId: string; text: string; view: ActiveView | null; signal: AbortSignal }) => Promise<readonly CorpusPassage[]>;
  /** Model calls per turn before it gives up. @default 8 */
  maxSteps?: number;
  /** Reads a message as one-shot, standing or ambiguous (ambiguous asks one question). @default routeIntent */
  router?: (text: string) => Route;
  /** Where threads' event logs live. @default in memory */
  events?: EventStore;
  /** How postconditions look at the workspace (the host's row counter, a file lister). @default none */
  probes?: PostconditionProbes;
  /** Runs every capability call (the server routes them through its doors). @default invoke */
  runCapability?: RunCapability;
  /** Extra skills and nodes (a host's or a space's) added to the built-in catalog. Ignored with `catalog`. */
  skills?: readonly CatalogNode[];
  /** The node catalog every principal's skill directory reads. @default built-in skills, agents, models and harnesses plus `skills` */
  catalog?: Catalog;
  /** Makes a principal's skill directory. @default `createSkillDirectory` over the shared catalog */
  skillDirectory?: (principal: Principal, catalog: Catalog) => SkillDirectory;
  /** Connect / Disconnect skills call these; without them the workspace says it cannot connect. */
  providers?: ProviderHooks;
  /** Threads one user may have in a space. @default 1000 */
  maxThreadsPerUser?: number;
  /**
   * Asked before a new thread is made, after the per-user cap: throw a
   * `ThreadLimitError` to refuse it in words (the server's caps per space
   * and per client address). @default none
   */
  admitThread?: (principal: Principal, thread: ThreadRef) => void | Promise<void>;
  /** A thread with nothing running is dropped from memory after this long (it comes back from its log). @default 60000 */
  idleMs?: number;
  /** Threads kept in memory at most; the least recently used idle ones go first. @default 500 */
  maxLiveThreads?: number;
  /**
   * Several instances on one database (`createPostgresCoordination`): each
   * thread is written by one instance at a time under a lease, followers on
   * every instance hear every append, a Stop reaches the instance running
   * the turn, and a dead instance's work is closed as interrupted by another.
   * @default none: this process is the only writer
   */
  coordination?: Coordination;
  /**
   * Command-line harnesses by catalog node path (`Harness/claude-code`): a
   * thread whose composer picks one hands every message to it 1:1 instead
   * of the chat's model (see `Harness`). A command-line harness node with no
   * adapter here says so in the thread. @default none
   */
  harnesses?: Readonly<Record<string, Harness>>;
  /**
   * One principal's own capabilities over the shared ones (a user's own MCP
   * servers, issue 17): asked on every turn and call, so a connect or a
   * disconnect counts from the next one. Only that principal's threads see
   * them; the shared name wins a clash. @default none
   */
  capabilitiesOf?: (principal: Principal) => Registry | undefined;
  /**
   * Hears each change of a user's rating of a reply (Good response, Bad response, a comment, a
   * withdrawal) once it is stored: who, which reply, its text and the model that wrote it. A
   * failing hook is logged; the rating stays. @default none
   */
  onFeedback?: (change: FeedbackChange) => void | Promise<void>;
  /** Approval rows other doors asked for (see `DoorApprovalHook`). @default none: every approval row without a model call is a chip's */
  doorApprovals?: DoorApprovalHook;
  /** How long a running MCP tool's question (an elicitation row) waits for the user before it is closed as timed out. @default 600000 (10 minutes) */
  elicitationWaitMs?: number;
}

/** A user at the thread cap who asked for a new one. */
export class ThreadLimitError extends Error {
  override name = 'ThreadLimitError';
  constructor(
    readonly limit: number,
    message = `You already have ${limit} threads, the most this workspace keeps for one user. Continue an existing thread.`,
    /** Seconds until a new thread may fit (sent as `Retry-After`), when the cap counts a recent period. */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }
}

/** One change of a user's rating of a reply, as the host's `onFeedback` hears it. */
export interface FeedbackChange {
  /** Who rated it. */
  principal: Principal;
  threadId: string;
  /** The reply's message id. */
  messageId: string;
  /** The new rating; null when the user withdrew theirs. */
  rating: FeedbackRating | null;
  /** The user's comment, if they left one with the rating. */
  comment?: string;
  /** The rating before this change; null when there was none. */
  previous: Feedback | null;
  /** The reply's text, as the user saw it. */
  text: string;
  /** The model that wrote the reply (absent for a reply a host or a harness wrote without one). */
  model?: DriverInfo;
}

/** A reply's rating as the host reads it back (`ThreadHost.feedbackOf`). */
export interface FeedbackEntry extends Feedback {
  messageId: string;
  model?: DriverInfo;
}

/**
 * An edit, regeneration or switch the host cannot take: no such message or version shown in the
 * thread (`unknown_message`, `unknown_version`), or a switch while a reply is being written (`busy`).
 */
export class VersionError extends Error {
  override name = 'VersionError';
  constructor(
    readonly code: 'unknown_message' | 'unknown_version' | 'busy',
    message: string,
  ) {
    super(message);
  }
}

/** A rating the host cannot take: no such reply in the thread (`unknown_message`), or one still streaming (`still_streaming`). */
export class FeedbackError extends Error {
  override name = 'FeedbackError';
  constructor(
    readonly code: 'unknown_message' | 'still_streaming',
    message: string,
  ) {
    super(message);
  }
}

/** A decision on a row that is not waiting (decided already, or no such row). */
export class NothingWaitingError extends Error {
  override name = 'NothingWaitingError';
}

/**
 * Requests to the host; the thread is the principal's own. Each is the workspace protocol's body
 * for that call (`runtime/requests.ts`, written once) with the thread it goes to.
 */
export type HostTurn = { threadId: string } & Pick<TurnBody, 'text' | 'skill' | 'edits'> & {
  /** The files the message carries, as the server's attachment store knows them (the send route resolves the body's ids). */
  attachments?: readonly AttachmentRef[];
};
export type HostRegenerate = { threadId: string } & RegenerateBody;
export type HostVersion = { threadId: string } & VersionBody;
export type HostInvoke = InvokeBody;
export type HostDecision = { threadId: string } & DecisionBody;
export type HostSkill = SkillBody;
export type HostFeedback = { threadId: string } & FeedbackBody;

/**
 * The one place threads live: it owns them by principal, is the only writer
 * of their events (stamps seq, appends to the store, fans out), runs turns and
 * capability calls on one path for the page and the server, and knows a
 * thread only as `fold(log)`. Idle threads leave memory and come back from
 * their log; whatever a dead process left open is closed as interrupted.
 */
export interface ThreadHost {
  readonly registry: Registry;
  readonly driver: ModelDriver;
  readonly alignment: Alignment;
  readonly anticipation: AnticipationMap;
  /** The store behind the threads. */
  readonly events: EventStore;
  /** Starts a model turn; resolves when it has ended and its events are stored and out. */
  send(principal: Principal, request: HostTurn): Promise<void>;
  /** Runs one capability directly (a chip); a mutate that needs approval gets an approval row instead. */
  invoke(principal: Principal, request: HostInvoke): Promise<CapabilityResult>;
  /**
   * Shows an approval row (the same row a chip that needs approval gets) in the principal's
   * thread, for a call another door holds until a person decides it (`doorApprovals`).
   */
  requestApproval(principal: Principal, request: { threadId: string; id: string; capability: string; args: unknown; reason: string }): Promise<void>;
  /** Stops a turn or cancels an invocation of the principal's thread; false when nothing ran under that id. */
  cancel(principal: Principal, request: { threadId: string; id: string }): Promise<boolean>;
  /**
   * Runs a SKILL.md capability that launches a sub-thread (REST, MCP) in a new thread of the
   * principal: the skill's instructions load there and `task` is the turn's message. Resolves
   * when that thread's turn ends other than waiting for the user, with its id, outcome and
   * summary (an error result unless it is done); `signal` stops it.
   */
  runSkillThread(principal: Principal, request: { capability: string; task?: unknown; signal?: AbortSignal }): Promise<CapabilityResult>;
  /** Decides a pending proposal, approval, question or skill offer. Throws `NothingWaitingError` (also for a thread that is not the principal's). */
  decide(principal: Principal, request: HostDecision): Promise<void>;
  /**
   * Asks a running MCP tool's question (elicitation) in the thread with this key (the call's
   * `threadKey`) as a row its principal answers; resolves with the answer for the server, `cancel`
   * when `signal` aborts (the call ended) or the wait runs out (the row says which). Rejects in words
   * for a key no thread of this host runs (a REST or MCP door's call).
   */
  elicit(threadKey: string, ask: ElicitationAsk, signal: AbortSignal): Promise<ElicitationAnswer>;
  /**
   * A new reply to a user's message shown in the thread (Regenerate), after stopping the turn
   * that runs; the reply before it stays, one switch away. Resolves when the turn has ended. Throws `VersionError`.
   */
  regenerate(principal: Principal, request: HostRegenerate): Promise<void>;
  /** Shows another version of a message or of a reply; refused while a turn runs. Throws `VersionError`. */
  showVersion(principal: Principal, request: HostVersion): Promise<void>;
  /** Rates a finished reply (or withdraws the rating, `rating: null`); `onFeedback` hears each change once. Throws `FeedbackError`. */
  feedback(principal: Principal, request: HostFeedback): Promise<void>;
  /** The ratings the principal left on the thread's replies, in transcript order. */
  feedbackOf(principal: Principal, threadId: string): Promise<FeedbackEntry[]>;
  setView(principal: Principal, request: { threadId: string; view: ActiveView }): Promise<void>;
  setComposer(principal: Principal, request: { threadId: string; composer: Composer }): Promise<void>;
  /** The principal's skill directory (discovery, saving, what the model is told). */
  skills(principal: Principal): SkillDirectory;
  query(principal: Principal, request: { threadId: string; q: string }): Promise<CatalogNode[]>;
  saveSkill(principal: Principal, request: HostSkill): Promise<CatalogNode>;
  connect(principal: Principal, request: { threadId: string; provider: string }): Promise<void>;
  disconnect(principal: Principal, request: { threadId: string; provider: string }): Promise<void>;
  /**
   * Delivers the thread's events after `since`, then new ones. Attaching to a
   * thread that was never written creates nothing: its first events arrive here.
   */
  subscribe(principal: Principal, threadId: string, listener: EventListener, since?: number): () => void;
  /** True when the principal has written this thread. */
  exists(principal: Principal, threadId: string): Promise<boolean>;
  /** The seq of the thread's last event (0 for none). */
  lastSeq(principal: Principal, threadId: string): Promise<number>;
  /**
   * Deletes the principal's thread for good: stops what runs in it (on this instance), waits for
   * what it writes, drops it from memory, then removes its events and its place in the thread
   * list. False when the principal has no such thread. Throws when the store keeps no thread list.
   */
  deleteThread(principal: Principal, threadId: string): Promise<boolean>;
  /** Closes, as interrupted, what threads marked open were doing when the last process died; returns how many threads. */
  recover(): Promise<number>;
  /** Drops idle threads from memory now; returns how many. */
  evictIdle(): number;
  /** Threads in memory. */
  readonly liveThreads: number;
  /**
   * Stops the idle sweep, stops every turn and invocation still running
   * (`reason` is what their rows say) and resolves once what they wrote is
   * stored, so the stores can close after it.
   */
  close(reason?: string): Promise<void>;
}
