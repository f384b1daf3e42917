import { createRequire } from 'node:module';
import { join } from 'node:path';
import { isMissingModule, MissingPeerError, type OptionalPeer } from '../peers';

/**
 * Loads an optional peer (a CommonJS package such as better-sqlite3 or pg) when
 * the feature that needs it is first used, so chatsurface/server imports without
 * it. Looked up beside this module first, then from the working directory (a
 * server bundled into one file, e.g. by esbuild, no longer sits in node_modules).
 * A missing package throws a {@link MissingPeerError} naming it.
 */
export function requirePeer<T>(name: OptionalPeer): T {
  let first: unknown;
  for (const from of [import.meta.url, join(process.cwd(), 'package.json')]) {
    try {
      return createRequire(from)(name) as T;
    } catch (error) {
      if (!isMissingModule(error, name)) throw error;
      first ??= error;
    }
  }
  throw new MissingPeerError(name, first);
}
