import * as z from 'zod/mini';
import { ActiveViewSchema, ComposerSchema } from './events';
import { FeedbackCommentSchema, FeedbackRatingSchema } from './events/feedback';
import { AttachmentRefSchema, MAX_MESSAGE_ATTACHMENTS } from './events/messages';
import { SkillName } from './events/fields';
import { DECISION_KINDS } from './decisions';
import { ThreadId } from './threadId';

/**
 * The requests a thread takes, written once: the bodies (and the one query) the
 * workspace protocol's routes take, from which the client's request types are
 * inferred and with which the server validates, and from which the thread
 * host's request types (`HostTurn`, `HostInvoke`, …) are made. Which route takes
 * which is in `workspace/protocol/routes.ts`.
 */

export const TurnBody = z.object({
  /** What the user typed. */
  text: z.string().check(z.trim(), z.minLength(1, 'Type a message first.'), z.maxLength(20_000)),
  /** Optional: the skill the message loads, by its slash name (`/summarize`); `text` is then its task. */
  skill: z.optional(SkillName),
  /** Optional: the view and selections to apply before the turn. */
  activeView: z.optional(ActiveViewSchema),
  composer: z.optional(ComposerSchema),
  /** Optional: an edit. The id of a user's message this one is a new version of (it then gets a new reply; the old version stays, one switch away). */
  edits: z.optional(z.string().check(z.minLength(1), z.maxLength(256))),
  /** Optional: files the message carries, by the ids their upload answered (`POST /v1/threads/{id}/attachments`); the principal's own only. */
  attachments: z.optional(z.array(AttachmentRefSchema.shape.id).check(z.maxLength(MAX_MESSAGE_ATTACHMENTS))),
});
export type TurnBody = z.infer<typeof TurnBody>;
/** Regenerate: a new reply to a user's message (the one before it stays, one switch away). */
export const RegenerateBody = z.object({
  /** The user's message whose reply is made again. */
  messageId: z.string().check(z.minLength(1), z.maxLength(256)),
});
export type RegenerateBody = z.infer<typeof RegenerateBody>;
/** Shows another version: of a user's message (`part: 'message'`, `messageId` its first version) or of the reply to one (`part: 'reply'`). */
export const VersionBody = z.object({
  part: z.enum(['message', 'reply']),
  messageId: z.string().check(z.minLength(1), z.maxLength(256)),
  /** The version to show: a message id, or a reply id (`VersionPosition.previous` / `.next`). */
  version: z.string().check(z.minLength(1), z.maxLength(300)),
});
export type VersionBody = z.infer<typeof VersionBody>;
export const ViewBody = z.object({ view: ActiveViewSchema });
export type ViewBody = z.infer<typeof ViewBody>;
export const InvokeBody = z.object({ threadId: ThreadId, capability: z.string().check(z.minLength(1), z.maxLength(128)), args: z.optional(z.unknown()) });
export type InvokeBody = z.infer<typeof InvokeBody>;
export const CancelBody = z.object({ threadId: ThreadId });
export type CancelBody = z.infer<typeof CancelBody>;
export const ComposerBody = z.object({
  /** Fields to change; the others stay. */
  composer: ComposerSchema,
});
export type ComposerBody = z.infer<typeof ComposerBody>;
export const SkillBody = z.object({
  threadId: ThreadId,
  /** The slash word without its slash, e.g. `import-and-enrich`. */
  id: z.string().check(z.minLength(1), z.maxLength(64)),
  description: z.string().check(z.minLength(1), z.maxLength(1024)),
  instructions: z.string().check(z.minLength(1), z.maxLength(20_000)),
  /** `user` (private, the default) or `space` (shared with the space). */
  scope: z.optional(z.enum(['user', 'space'])),
});
export type SkillBody = z.infer<typeof SkillBody>;
export const ProviderBody = z.object({
  /** e.g. `ClaudeCode`, `Copilot`. */
  provider: z.string().check(z.minLength(1), z.maxLength(128)),
  action: z.enum(['connect', 'disconnect']),
});
export type ProviderBody = z.infer<typeof ProviderBody>;
export const DecisionBody = z.object({
  /** A proposal, approval or question id. */
  id: z.string().check(z.minLength(1), z.maxLength(256)),
  decision: z.enum(DECISION_KINDS),
  /** With `answer`: the chosen or typed answer. */
  answer: z.optional(z.string().check(z.maxLength(20_000))),
});
export type DecisionBody = z.infer<typeof DecisionBody>;
/** A user's rating of a reply: good or bad with an optional comment, or null to withdraw it. */
export const FeedbackBody = z.object({
  messageId: z.string().check(z.minLength(1), z.maxLength(256)),
  rating: FeedbackRatingSchema,
  /** Ignored when withdrawing. */
  comment: z.optional(FeedbackCommentSchema),
});
export type FeedbackBody = z.infer<typeof FeedbackBody>;
/** MCP Apps: a tool call made from inside a card's view. */
export const AppToolCallBody = z.object({
  name: z.string().check(z.minLength(1), z.maxLength(128)),
  arguments: z.optional(z.record(z.string(), z.unknown())),
  /** The view's session (new each time the card's frame opens it): a tool that needs approval asks once per session. */
  session: z.optional(z.string().check(z.minLength(1), z.maxLength(64))),
});
/** The node query's search parameters; the server reads a missing one as empty (or the `default` thread). */
export const NodeQuery = z.object({
  /** A node query, e.g. `namespace:{user}/Skill|{space}/Skill|Skill nodeType:Skill sort:order`. */
  q: z._default(z.string(), ''),
  threadId: z._default(z.string(), 'default'),
});
export type NodeQuery = z.infer<typeof NodeQuery>;
