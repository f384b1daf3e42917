import * as z from 'zod/mini';
import { ensureEnglishMessages } from '../zodLocale';
import { id, stamp } from './fields';

ensureEnglishMessages();

/**
 * A capability call's arguments while the model writes them (Anthropic's `input_json_delta`), so
 * its card shows before the call starts, "Writing arguments…", with a host renderer getting the
 * arguments parsed so far. Keyed by the invocation the call becomes (its `capability.started`
 * has the same `invocation_id`). Only a call the turn will run at once gets a card (not one that
 * waits for a proposal's acceptance or an approval); one that still does not run (its step was cut
 * off or stopped, or an earlier call made the turn wait) is closed with `dropped`, its reason.
 */
export const InvocationArgsDeltaSchema = z.object({
  type: z.literal('invocation.args.delta'),
  ...stamp,
  invocation_id: id,
  /** The model's tool call being written. */
  call_id: id,
  capability: id,
  title: z.optional(z.string()),
  turn_id: z.optional(id),
  /** The next piece of the arguments' JSON text, as the model wrote it ('' with `dropped`). */
  delta: z.string(),
  /** The call did not run, and why in plain words: its card ends (cancelled) with what was written. */
  dropped: z.optional(z.string().check(z.minLength(1))),
});

export type InvocationArgsDelta = z.infer<typeof InvocationArgsDeltaSchema>;
