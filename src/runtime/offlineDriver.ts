import type { DriverChunk, ModelDriver, ModelRequest } from './model';

export interface OfflineDriverOptions {
  /** Pause between streamed words, so streaming is visible in a demo. @default 12 */
  delayMs?: number;
}

/**
 * A deterministic model that needs no key, no network and no weights. It
 * follows the intent router (standing requests go to the host, ambiguous
 * ones get one question); understands requests by meaning through a
 * full-text index over the capabilities' titles, examples, descriptions and
 * field descriptions; reads "yes" / "do that" / "the first one" as accepting
 * the pending proposal or the current suggestion; fills arguments from words
 * through the schema; answers a question from a read's result in one
 * sentence; and meets what it cannot place with one sentence and the
 * current suggestions. Under `strict` alignment it proposes what the user
 * neither named, accepted nor asked as a question.
 *
 * The engine (the capability index with MiniSearch, argument filling, the replies) is a module of
 * its own, loaded the first time the driver answers: a page that shows a thread and never sends
 * does not load it.
 * @example
 * const driver = createOfflineDriver({ delayMs: 0 });
 */
export function createOfflineDriver({ delayMs = 12 }: OfflineDriverOptions = {}): ModelDriver {
  let engine: Promise<typeof import('./engine/offline')> | undefined;
  return {
    info: { id: 'offline', label: 'Offline model' },
    async *respond(request: ModelRequest): AsyncIterable<DriverChunk> {
      const { respondOffline } = await (engine ??= import('./engine/offline'));
      yield* respondOffline(request, delayMs);
    },
  };
}
