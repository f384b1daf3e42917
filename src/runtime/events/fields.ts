import * as z from 'zod/mini';
import { ensureEnglishMessages } from '../zodLocale';

ensureEnglishMessages();

/** The field shapes the event families share: ids, the stamp every event carries, the call a chip describes. */

export const id = z.string().check(z.minLength(1));

/** A node of a thread's version tree (runtime/fold/versions.ts): `root`, a user message's id, or a reply's id. */
export const BranchId = z.string().check(z.minLength(1), z.maxLength(300));

/**
 * Fields every event carries: a per-thread monotonic `seq` and a wall-clock `ts` (ms); and,
 * stamped by the thread host on the events that make rows and on the model's history, `branch`:
 * the reply (or `root`) they belong to, so every client files them under the same version
 * whatever order they arrive in (a user's message names the reply it follows).
 */
export const stamp = {
  seq: z.int().check(z.positive()),
  // zod 4 numbers reject Infinity and NaN already.
  ts: z.number(),
  branch: z.optional(BranchId),
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
