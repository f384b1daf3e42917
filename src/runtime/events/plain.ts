/**
 * The event families' constants and helpers that need no schema: the page
 * reads these (the fold, the message box, a remote workspace) without loading
 * zod and the event schemas (`eventChecks.ts`). Each family's module
 * re-exports its own.
 */

/** A skill's slash name, as the slash list shows it: `/`, then lowercase letters, digits and hyphens (at most 64). */
export const SKILL_NAME = /^\/[a-z0-9][a-z0-9-]{0,63}$/;

/** The user's verdict on a reply: good or bad, with an optional comment; null withdraws it. */
export const FEEDBACK_RATINGS = ['good', 'bad'] as const;
export type FeedbackRating = (typeof FEEDBACK_RATINGS)[number];

/** The longest comment a rating carries (characters). */
export const FEEDBACK_COMMENT_MAX = 2_000;

/** Files one message may carry at most (a server may allow fewer: `attachments.maxPerMessage`). */
export const MAX_MESSAGE_ATTACHMENTS = 20;

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
