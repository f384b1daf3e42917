import type { AnticipationMap } from '../runtime/anticipation';
import type { CapabilityInfo } from '../runtime/registry';
import type { CapabilityResult } from '../runtime/envelope';
import type { DriverInfo, ThreadEvent } from '../runtime/events';
import type { AttachmentRef } from '../runtime/events/messages';
import type { CancelBody, ComposerBody, DecisionBody, FeedbackBody, InvokeBody, NodeQuery, ProviderBody, RegenerateBody, SkillBody, TurnBody, VersionBody, ViewBody } from '../runtime/requests';
import type { CatalogNode } from '../runtime/catalogNodes';
import type { ConnectorsApi } from './connectorsProtocol';
import type { ThreadsApi } from './threadsProtocol';
import type { McpAppResource } from '../runtime/mcpApp';
import type { AppToolCallAnswer, AppToolCallRequest, AppViewRequest } from '../runtime/host/mcpAppAccess';

export type { AppToolCallAnswer, AppToolCallRequest, AppViewRequest } from '../runtime/host/mcpAppAccess';

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

/**
 * The requests of the adapter's methods. Their fields are declared once, in
 * the core's request bodies (`runtime/requests.ts`, which the protocol's routes
 * and the thread host use too): a request is its
 * route's body plus the thread, where the route puts the thread in its path.
 */
export interface TurnRequest extends Pick<TurnBody, 'text' | 'skill' | 'edits' | 'attachments'> {
  threadId: string;
}

/** A file to upload for the next message (`WorkspaceAdapter.attachments.upload`). */
export interface UploadRequest {
  threadId: string;
  /** The bytes: a `File` from the chooser, the clipboard or a drop. */
  file: Blob;
  /** Its display name (a `File`'s own name when left out). */
  name?: string;
  /** Told as the bytes go up: bytes sent of `total`. */
  onProgress?: (sent: number, total: number) => void;
  /** Aborts the upload (the file is then not kept). */
  signal?: AbortSignal;
}

/**
 * Files users attach to their messages: only on a workspace that keeps them (the server's
 * attachment store). Without it the surface shows no "Attach files" button.
 */
export interface AttachmentsApi {
  /** Stores a file for the thread's next message; the ref's `id` goes in `send`'s `attachments`. A refused file (its type, size or the user's quota) rejects with the server's words. */
  upload(request: UploadRequest): Promise<AttachmentRef>;
  /** A file of the user's, whole (the transcript's thumbnails and downloads); another user's file rejects as an unknown one. */
  read(id: string, signal?: AbortSignal): Promise<Blob>;
  /** Removes a file of the user's that was not sent after all. */
  remove(id: string): Promise<void>;
  /** How many files one message may carry. */
  readonly maxPerMessage: number;
}
/** Regenerate the reply to a user's message (the protocol's `RegenerateBody`). */
export interface RegenerateRequest extends RegenerateBody {
  threadId: string;
}
/** Show another version of a message or of a reply (the protocol's `VersionBody`). */
export interface VersionRequest extends VersionBody {
  threadId: string;
}

export interface InvokeRequest extends InvokeBody {
  /** The capability's input (the wire may leave it out: then `{}`). */
  args: unknown;
}

export interface CancelRequest extends CancelBody {
  /** An invocation id (cancels that invocation) or a turn id (stops that turn). */
  id: string;
}

/** The user's answer to a row that waits for one (the fields are the protocol's `DecisionBody`). */
export interface DecisionRequest extends DecisionBody {
  threadId: string;
}

/** The user's rating of a reply (the protocol's `FeedbackBody`): good or bad with an optional comment, or `rating: null` to withdraw it. */
export interface FeedbackRequest extends FeedbackBody {
  threadId: string;
}

export interface ViewRequest extends ViewBody {
  threadId: string;
}

export type NodeQueryRequest = NodeQuery;

/** A skill to save (the protocol's `SkillBody`). */
export type SaveSkillRequest = SkillBody;

export interface ComposerRequest extends ComposerBody {
  threadId: string;
}

export interface ProviderRequest extends Pick<ProviderBody, 'provider'> {
  threadId: string;
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
  /**
   * A new reply to a user's message, after stopping what runs (the old reply stays, one switch
   * away); resolves when the turn has ended. Without it replies offer no Regenerate, and without
   * `showVersion` no versions (an edit is `send` with `edits`).
   */
  regenerate?(request: RegenerateRequest): Promise<void>;
  /** Shows another version of a message or of a reply (refused while a reply is being written). */
  showVersion?(request: VersionRequest): Promise<void>;
  /** Rates a finished reply or withdraws the rating; without it replies show Copy only. */
  feedback?(request: FeedbackRequest): Promise<void>;
  /** Tells the thread what the user is looking at (keys the suggestions). */
  setView(request: ViewRequest): void;
  /** Runs a node query (skills, agents, models, harnesses) for this user and space. Without it the surface offers no slash skills. */
  query?(request: NodeQueryRequest): Promise<CatalogNode[]>;
  /** Saves a skill under the user's (or the space's) namespace; it is discoverable at once. */
  saveSkill?(request: SaveSkillRequest): Promise<CatalogNode>;
  /** Changes the thread's selections (harness, agent, model): emits composer.changed. */
  setComposer?(request: ComposerRequest): void;
  /** Connects or disconnects a provider (Connect / Disconnect skills). */
  connect?(request: ProviderRequest): Promise<void>;
  disconnect?(request: ProviderRequest): Promise<void>;
  /** The user's own MCP servers (BYO MCP): only on a server that takes them. Without it `/mcp` says it cannot. */
  connectors?: ConnectorsApi;
  /** The user's thread list (search, rename, archive, delete), kept by the store: the same in every browser the user signs into. Without it the surface lists only the threads this browser has seen. */
  threads?: ThreadsApi;
  /** MCP Apps: the `ui://` view of a finished card, read by the workspace from the tool's server. Without it cards show the plain result. */
  readApp?(request: AppViewRequest): Promise<McpAppResource>;
  /** MCP Apps: a tool call made from inside a card's view, run like a chip (validation, pinning, approval, meter). */
  callAppTool?(request: AppToolCallRequest): Promise<AppToolCallAnswer>;
  /** Files attached to messages: upload, read, remove (a server with an attachment store). Without it the surface offers no attachments. */
  attachments?: AttachmentsApi;
  /** Delivers the thread's events; returns an unsubscribe function. */
  subscribe(threadId: string, listener: (event: ThreadEvent) => void, options?: SubscribeOptions): () => void;
}
