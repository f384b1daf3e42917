import type { Principal } from '../principal';

/** One configured API key: each key is its own principal, whose `user` is the key's `id`. */
export interface ApiKey extends Omit<Principal, 'user'> {
  /** Stable id of the key (never the secret): the principal's `user`, named in meters, jobs and logs. */
  id: string;
  /** The secret the client sends as `Authorization: Bearer <key>`. */
  key: string;
}

/** Turns a bearer token into a principal; `null` means 401. */
export type TokenAuthenticate = (token: string | null) => Promise<Principal | null> | Principal | null;

const encoder = new TextEncoder();

/** SHA-256 of a string; the server passes Node's synchronous one, the default is Web Crypto's. */
export type Digest = (text: string) => Uint8Array | Promise<Uint8Array>;

const webDigest: Digest = async (text) => new Uint8Array(await globalThis.crypto.subtle.digest('SHA-256', encoder.encode(text)));

/**
 * Compares two byte strings in time that depends only on their length: every
 * byte is looked at, whatever the first difference.
 */
export function constantTimeEqual(a: Uint8Array, b: Uint8Array): boolean {
  let diff = a.length ^ b.length;
  const n = Math.max(a.length, b.length);
  for (let i = 0; i < n; i++) diff |= (a[i] ?? 0) ^ (b[i] ?? 0);
  return diff === 0;
}

/**
 * The default authenticator: the keys come from configuration. The token and
 * every key are hashed (SHA-256; Web Crypto unless a `digest` is given) and
 * the digests compared in constant time, so neither the position of a wrong
 * character nor a key's length leaks. Every key is compared, even after a match.
 * @example
 * const authenticate = keyAuthenticator([{ id: 'demo', key: process.env.DEMO_API_KEY! }]);
 * await authenticate('sk-…'); // → { user: 'demo' } or null
 */
export function keyAuthenticator(keys: readonly (ApiKey | string)[], { digest = webDigest }: { digest?: Digest } = {}): TokenAuthenticate {
  const entries = keys.map((entry, index) => {
    const key: ApiKey = typeof entry === 'string' ? { id: `key-${index + 1}`, key: entry } : entry;
    if (!key.key || key.key.length < 8) {
      throw new Error(`API key "${key.id}" is too short: use at least 8 characters (e.g. a random 32-character string).`);
    }
    const { key: secret, id, ...rest } = key;
    const principal: Principal = { user: id, ...rest };
    return { principal, hashed: digest(secret) };
  });
  return async (token) => {
    if (!token) return null;
    const presented = await digest(token);
    let found: Principal | null = null;
    for (const entry of entries) {
      if (constantTimeEqual(presented, await entry.hashed) && found === null) found = entry.principal;
    }
    return found;
  };
}

/** The token of an `Authorization: Bearer <token>` header, or null. */
export function bearerToken(header: string | null | undefined): string | null {
  if (!header) return null;
  const match = /^\s*Bearer\s+(\S+)\s*$/i.exec(header);
  return match ? match[1]! : null;
}
