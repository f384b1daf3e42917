import { eventSchemasLoaded } from './eventChecks';
import { loadOnce } from './loadOnce';

const eventSchemas = loadOnce(() => import('./events').then(() => undefined), 'its event checks');

/**
 * Loads the event schemas (`events.ts`, with zod), which register with the
 * fold's checks as they load (`eventChecks.ts`). Once: a second call returns
 * the first call's promise; a failed load (the network dropped) may be tried again.
 */
export function loadEventSchemas(): Promise<void> {
  return eventSchemasLoaded() ? Promise.resolve() : eventSchemas.load();
}
