import { eventSchemasLoaded } from './eventChecks';

let loading: Promise<void> | null = null;

/**
 * Loads the event schemas (`events.ts`, with zod), which register with the
 * fold's checks as they load (`eventChecks.ts`). Once: a second call returns
 * the first call's promise; a failed load (the network dropped) may be tried again.
 */
export function loadEventSchemas(): Promise<void> {
  if (eventSchemasLoaded()) return Promise.resolve();
  return (loading ??= import('./events').then(
    () => undefined,
    (error: unknown) => {
      loading = null;
      throw error;
    },
  ));
}
