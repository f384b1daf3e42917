import * as z from 'zod/mini';
import { ensureEnglishMessages } from '../zodLocale';
import { DriverInfoSchema, id, stamp } from './fields';

ensureEnglishMessages();

/** A turn: started (by which model), done (with its one outcome), or failed. */

/**
 * LEGACY, read only. Before issue 38 a turn the user stopped ended with outcome `stopped` and a
 * `turn.error` coded `stopped`; the kit's one word for "the user stopped it" is now `cancelled`,
 * the run status's (`runtime/runStatus.ts`). Logs and servers still hold the old word: the schema
 * and the fold read it through `readCancelled`, and nothing writes it any more.
 */
export const LEGACY_STOPPED = 'stopped';

/**
 * The word as the kit uses it: `cancelled` for the legacy `stopped`, any other word as it is.
 * @example
 * readCancelled('stopped'); // → 'cancelled'
 */
export function readCancelled<T extends string>(word: T): Exclude<T, typeof LEGACY_STOPPED> | 'cancelled' {
  return (word === LEGACY_STOPPED ? 'cancelled' : word) as Exclude<T, typeof LEGACY_STOPPED> | 'cancelled';
}

export const TurnStartedSchema = z.object({
  type: z.literal('turn.started'),
  ...stamp,
  turn_id: id,
  driver: z.optional(DriverInfoSchema),
});

export const TurnDoneSchema = z.object({
  type: z.literal('turn.done'),
  ...stamp,
  turn_id: id,
  /** How the turn ended: its one intent, or why it has none (`cancelled`: the user stopped it). */
  outcome: z.pipe(
    z.enum(['answered', 'proposed', 'invoked', 'waiting', 'cancelled', 'failed', 'interrupted', LEGACY_STOPPED]),
    z.transform(readCancelled),
  ),
});

export const TurnErrorSchema = z.object({
  type: z.literal('turn.error'),
  ...stamp,
  turn_id: z.optional(id),
  code: z.string(),
  message: z.string(),
  recoverable: z.boolean(),
});
