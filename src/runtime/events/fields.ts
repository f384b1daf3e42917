import * as z from 'zod/mini';
import { ensureEnglishMessages } from '../zodLocale';
import { SKILL_NAME } from './plain';

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

export { SKILL_NAME };

/** The `skill` of a user's message and of a turn request (issue 38; `runtime/skillField.ts`): a slash name such as `/summarize`. */
export const SkillName = z.string().check(z.regex(SKILL_NAME, "must be a skill's slash name, such as /summarize"));

/** Which model answers: shown on the surface so a demo never hides it. */
export const DriverInfoSchema = z.object({ id: z.string(), label: z.string() });
