import type { AnticipationMap } from '../runtime/anticipation';
import type { CapabilityInfo } from '../runtime/registry';
import type { CapabilityResult } from '../runtime/envelope';
import type { ActiveView, DriverInfo, ThreadEvent } from '../runtime/events';

/** What a workspace offers, read once when the surface mounts. */
export interface WorkspaceManifest {
  /** Every capability, in the registry's stable order. */
  capabilities: readonly CapabilityInfo[];
  /** The model that answers turns, shown on the surface. */
  driver: DriverInfo;
  /** `strict` proposes anything the user did not name; `loose` runs a single clear match. @default 'strict' */
  alignment: 'strict' | 'loose';
  /** Suggested next verbs by `${view.kind}::${lastCapability | 'none'}`. @default {} */
  anticipation: AnticipationMap;
}

export interface TurnRequest {
  threadId: string;
  /** What the user typed. */
  text: string;
}

export interface InvokeRequest {
  threadId: string;
  capability: string;
  args: unknown;
}

export interface CancelRequest {
  threadId: string;
  /** An invocation id (cancels that invocation) or a turn id (stops that turn). */
  id: string;
}

/** The user's answer to a row that waits for one. */
export interface DecisionRequest {
  threadId: string;
  /** A proposal, approval or question id. */
  id: string;
  decision: 'accept' | 'dismiss' | 'approve' | 'deny' | 'answer';
  /** With `answer`: the chosen or typed answer. */
  answer?: string;
}

export interface ViewRequest {
  threadId: string;
  view: ActiveView;
}

export interface SubscribeOptions {
  /** Replay events with a seq above this one first (resume after a reconnect). */
  since?: number;
}

/**
 * The only thing `<ChatSurface>` needs: the host's workspace. Requests go in,
 * `ThreadEvent`s come out through `subscribe`.
 */
export interface WorkspaceAdapter {
  readonly manifest: WorkspaceManifest;
  /** Starts a model turn; resolves when the turn has ended (its events are already out). */
  send(turn: TurnRequest): Promise<void>;
  /** Runs one capability directly (a chip, an accepted proposal), without a model call. */
  invoke(request: InvokeRequest): Promise<CapabilityResult>;
  /** Cancels a running invocation or stops a turn (and the invocations it started); unknown ids are ignored. */
  cancel(request: CancelRequest): void;
  /** Accepts or dismisses a proposal, approves or denies an approval, answers a question. */
  decide(request: DecisionRequest): Promise<void>;
  /** Tells the thread what the user is looking at (keys the suggestions). */
  setView(request: ViewRequest): void;
  /** Delivers the thread's events; returns an unsubscribe function. */
  subscribe(threadId: string, listener: (event: ThreadEvent) => void, options?: SubscribeOptions): () => void;
}
