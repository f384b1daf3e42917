import { createRequire } from 'node:module';
import { isMissingModule, MissingPeerError, type OptionalPeer } from '../peers';

const require = createRequire(import.meta.url);

/**
 * Loads an optional peer (a CommonJS package such as better-sqlite3 or pg) when
 * the feature that needs it is first used, so chatsurface/server imports without
 * it. A missing package throws a {@link MissingPeerError} naming it.
 */
export function requirePeer<T>(name: OptionalPeer): T {
  try {
    return require(name) as T;
  } catch (error) {
    if (isMissingModule(error, name)) throw new MissingPeerError(name, error);
    throw error;
  }
}
