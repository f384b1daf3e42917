import * as z from 'zod/mini';
import { ensureEnglishMessages } from '../zodLocale';

ensureEnglishMessages();

/** The field shapes the event families share: ids, the stamp every event carries, the call a chip describes. */

export const id = z.string().check(z.minLength(1));

/** Fields every event carries: a per-thread monotonic `seq` and a wall-clock `ts` (ms). */
export const stamp = {
  seq: z.int().check(z.positive()),
  // zod 4 numbers reject Infinity and NaN already.
  ts: z.number(),
};

/** The call an invocation, a proposal and an approval request each describe. */
export const call = {
  capability: id,
  title: z.string(),
  args: z.unknown(),
  turn_id: z.optional(id),
};

/** A skill's slash name, as the slash list shows it: `/`, then lowercase letters, digits and hyphens (at most 64). */
export const SKILL_NAME = /^\/[a-z0-9][a-z0-9-]{0,63}$/;

/** The `skill` of a user's message and of a turn request (issue 38; `runtime/skillField.ts`): a slash name such as `/summarize`. */
export const SkillName = z.string().check(z.regex(SKILL_NAME, "must be a skill's slash name, such as /summarize"));

/** Which model answers: shown on the surface so a demo never hides it. */
export const DriverInfoSchema = z.object({ id: z.string(), label: z.string() });
