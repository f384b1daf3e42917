import { isWellFormedDelta, validDelta, validMessage } from './events/messageFastPath';

/**
 * How the fold checks an event, without holding the event schemas itself.
 * The message events a reply streams and a history is mostly made of are
 * checked by hand (`events/messageFastPath.ts`); every other event goes
 * through the schemas of `events.ts`, which register here when their module
 * loads. Whatever imports the runtime, a thread host or a local workspace has
 * them already; a page whose thread lives on a server (`createRemoteWorkspace`)
 * loads them with the first event the hand checks do not cover
 * (`loadEventSchemas.ts`, awaited by the page's thread store before it folds),
 * so a new conversation's page does not carry zod until it has something to read.
 * (This module names no event type: `events.ts` imports it, and the fold types
 * what it returns, `fold.ts` `EventCheck`.)
 */

/** An event checked: the event as the schema returns it, or why it is not one. */
export type Checked<E> = { ok: true; event: E } | { ok: false; error: string };

let schemaCheck: ((raw: unknown) => Checked<unknown>) | null = null;

/** Called once by `events.ts` as it loads: from then on every event can be checked synchronously. */
export function registerEventSchemas(check: (raw: unknown) => Checked<unknown>): void {
  schemaCheck = check;
}

/** Whether the event schemas are loaded. */
export function eventSchemasLoaded(): boolean {
  return schemaCheck !== null;
}

/** Whether an event can be checked now: the schemas are loaded, or the hand checks cover it. */
export function canCheckEvent(raw: unknown): boolean {
  return schemaCheck !== null || isWellFormedDelta(raw) || validMessage(raw) !== null;
}

/**
 * Checks an event from outside; `error` says which field is wrong. Throws when
 * the event needs the schemas and they are not loaded (`canCheckEvent` first,
 * then `loadEventSchemas`): folding it unchecked, or dropping it, would both be wrong.
 */
export function checkEvent(raw: unknown): Checked<unknown> {
  const fast = validDelta(raw) ?? validMessage(raw);
  if (fast) return { ok: true, event: fast };
  if (!schemaCheck) throw new Error('The thread event schemas are not loaded: await loadEventSchemas() before folding this event.');
  return schemaCheck(raw);
}
