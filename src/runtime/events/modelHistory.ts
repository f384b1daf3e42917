import * as z from 'zod/mini';
import { CapabilityResultSchema } from '../envelope';
import { ensureEnglishMessages } from '../zodLocale';
import { id, stamp } from './fields';
import { AttachmentRefSchema } from './messages';

ensureEnglishMessages();

/** The model's side of the conversation, logged message by message (the transcript ignores it). */

const ToolCallSchema = z.object({ id, capability: z.string(), args: z.unknown() });

const ViolationNoteSchema = z.object({
  invocation_id: z.string(),
  capability: z.string(),
  title: z.string(),
  postcondition: z.string(),
  expected: z.string(),
  actual: z.string(),
  message: z.string(),
});

/** A reasoning block as the provider must get it back (the engine's `ThinkingBlock`). */
export const ThinkingBlockSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('thinking'), thinking: z.string(), signature: z.string() }),
  z.object({ type: z.literal('redacted_thinking'), data: z.string() }),
]);

/** One message of the conversation as the model sees it (the engine's `ModelMessage`). */
export const ModelMessageSchema = z.discriminatedUnion('role', [
  z.object({ role: z.literal('user'), text: z.string(), attachments: z.optional(z.array(AttachmentRefSchema)) }),
  z.object({ role: z.literal('assistant'), text: z.string(), calls: z.optional(z.array(ToolCallSchema)), thinking: z.optional(z.array(ThinkingBlockSchema)) }),
  z.object({
    role: z.literal('tool'),
    call_id: z.optional(id),
    capability: z.string(),
    title: z.string(),
    args: z.unknown(),
    result: CapabilityResultSchema,
    violations: z.optional(z.array(ViolationNoteSchema)),
  }),
]);

/**
 * The model's conversation, logged as it grows: the model history of a thread
 * is these messages in seq order, so a restarted server rebuilds exactly the
 * request it would have built live. The transcript ignores them.
 */
export const ModelMessageEventSchema = z.object({
  type: z.literal('model.message'),
  ...stamp,
  turn_id: z.optional(id),
  message: ModelMessageSchema,
});
