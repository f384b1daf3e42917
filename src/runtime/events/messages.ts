import * as z from 'zod/mini';
import { ensureEnglishMessages } from '../zodLocale';
import { DriverInfoSchema, id, SkillName, stamp } from './fields';
import { MAX_MESSAGE_ATTACHMENTS } from './plain';

ensureEnglishMessages();

/** The transcript's messages: created, streamed token by token, done (with the reply's usage). */

/** Token accounting of one assistant message (Anthropic's usage fields). */
export const UsageSchema = z.object({
  input_tokens: z.int().check(z.nonnegative()),
  output_tokens: z.int().check(z.nonnegative()),
  cache_creation_input_tokens: z.optional(z.nullable(z.int().check(z.nonnegative()))),
  cache_read_input_tokens: z.optional(z.nullable(z.int().check(z.nonnegative()))),
});

export { MAX_MESSAGE_ATTACHMENTS };

/** A file a user's message carries: its id in the server's attachment store and words to show; never its bytes. */
export const AttachmentRefSchema = z.strictObject({
  id: z.string().check(z.regex(/^att_[0-9a-z]{1,40}$/, 'must be an attachment id, such as att_k3j9x2q8m1')),
  /** The name the user gave it: display text only. */
  name: z.string().check(z.minLength(1), z.maxLength(255)),
  /** The type its content showed, e.g. `image/png`. */
  media_type: z.string().check(z.regex(/^[a-z]+\/[a-z0-9.+-]{1,100}$/, 'must be a media type, such as image/png')),
  /** Bytes. */
  size: z.int().check(z.nonnegative()),
});

export const MessageCreatedSchema = z.object({
  type: z.literal('message.created'),
  ...stamp,
  message_id: id,
  role: z.enum(['user', 'assistant']),
  /** A user's message: what they typed (with `skill`, the task alone). */
  text: z.string(),
  /** A user's message that loads a skill: its slash name, e.g. `/summarize` (before issue 38 it was `[load_skill /name]` in `text`). */
  skill: z.optional(SkillName),
  turn_id: z.optional(id),
  driver: z.optional(DriverInfoSchema),
  /** A user's message that is a new version of an earlier one (an edit): the first version's id. */
  version_of: z.optional(id),
  /** A user's message: the files it carries, by id (the bytes stay in the attachment store). */
  attachments: z.optional(z.array(AttachmentRefSchema).check(z.minLength(1), z.maxLength(MAX_MESSAGE_ATTACHMENTS))),
});

export const MessageDeltaSchema = z.object({
  type: z.literal('message.delta'),
  ...stamp,
  message_id: id,
  delta: z.string(),
});

export const MessageDoneSchema = z.object({
  type: z.literal('message.done'),
  ...stamp,
  message_id: id,
  usage: z.optional(UsageSchema),
  /** True when the reply was cut off (the server restarted mid-stream); its text is what arrived. */
  interrupted: z.optional(z.boolean()),
});

export type MessageCreated = z.infer<typeof MessageCreatedSchema>;
export type AttachmentRef = z.infer<typeof AttachmentRefSchema>;
export type MessageDelta = z.infer<typeof MessageDeltaSchema>;
export type MessageDone = z.infer<typeof MessageDoneSchema>;
