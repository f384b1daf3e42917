import * as z from 'zod/mini';
import { ensureEnglishMessages } from '../zodLocale';
import { BranchId, id, stamp } from './fields';

ensureEnglishMessages();

/**
 * Versions (issue 40): an edited message is a `message.created` with `version_of`; these two
 * say the rest. The log stays append-only: nothing is rewritten, the fold holds the tree.
 */

/** A new reply to a user's message (Regenerate): the turn that follows is filed under `reply_id`. */
export const ReplyRegeneratedSchema = z.object({
  type: z.literal('reply.regenerated'),
  ...stamp,
  /** The user's message being answered again. */
  message_id: id,
  /** The new reply's id (a node of the version tree). */
  reply_id: BranchId,
});

/**
 * The user moved to another version: `part: 'message'` shows `version` (a message id) of the
 * message first sent as `message_id`; `part: 'reply'` shows reply `version` to the user's message
 * `message_id`. The newest of a group's versions and selections (by seq) is the one shown.
 */
export const VersionSelectedSchema = z.object({
  type: z.literal('version.selected'),
  ...stamp,
  part: z.enum(['message', 'reply']),
  message_id: id,
  version: BranchId,
});

export type ReplyRegenerated = z.infer<typeof ReplyRegeneratedSchema>;
export type VersionSelected = z.infer<typeof VersionSelectedSchema>;
