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

/** Which model answers: shown on the surface so a demo never hides it. */
export const DriverInfoSchema = z.object({ id: z.string(), label: z.string() });
