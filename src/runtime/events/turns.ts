import * as z from 'zod/mini';
import { ensureEnglishMessages } from '../zodLocale';
import { DriverInfoSchema, id, stamp } from './fields';
import { LEGACY_STOPPED, readCancelled } from './plain';

ensureEnglishMessages();

/** A turn: started (by which model), done (with its one outcome), or failed. */

export { LEGACY_STOPPED, readCancelled };

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
