import { parseThreadEvent } from './events';
import { foldAll as foldAllWith } from './fold';
import type { ThreadState } from './fold/state';

/**
 * The fold with the event schemas bound: what the runtime entry exports and
 * what a thread host folds with. It checks every event whatever a bundler
 * kept of `events.ts` (the page's thread store instead loads the schemas on
 * demand, see `eventChecks.ts`).
 */

/** The pure reducer of the thread (see `fold.ts`): a malformed event is recorded once as an error row and never throws. */
export function fold(state: ThreadState, input: unknown): ThreadState {
  return foldAllWith(state, [input], parseThreadEvent);
}

/** Folds many events; the result equals folding them one by one, but the transcript is copied once per batch. */
export function foldAll(state: ThreadState, events: Iterable<unknown>): ThreadState {
  return foldAllWith(state, events, parseThreadEvent);
}
