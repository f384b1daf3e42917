import * as z from 'zod/mini';
import { ensureEnglishMessages } from '../zodLocale';
import { id, stamp } from './fields';

ensureEnglishMessages();

/**
 * The model's reasoning before a reply (extended thinking, AG-UI's REASONING_* events), shown as a
 * disclosure above the reply's text: keyed by the assistant message it belongs to, streamed in
 * pieces (`reasoning.delta`) and closed (`reasoning.done`, which says when the provider hid it).
 * The transcript's side only: what goes back to the model (signatures, redacted data) is in the
 * `model.message` of the step (`ModelMessage.thinking`).
 */

export const ReasoningDeltaSchema = z.object({
  type: z.literal('reasoning.delta'),
  ...stamp,
  /** The assistant message the reasoning leads up to. */
  message_id: id,
  delta: z.string(),
});

export const ReasoningDoneSchema = z.object({
  type: z.literal('reasoning.done'),
  ...stamp,
  message_id: id,
  /** True when some of the reasoning was hidden by the provider's safety systems (Anthropic's `redacted_thinking`). */
  redacted: z.optional(z.boolean()),
});

export type ReasoningDelta = z.infer<typeof ReasoningDeltaSchema>;
export type ReasoningDone = z.infer<typeof ReasoningDoneSchema>;
