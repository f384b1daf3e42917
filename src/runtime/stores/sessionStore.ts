import type { Principal } from '../principal';

/** A value now, or later: SQLite answers at once, a network database later. */
type MaybePromise<T> = T | Promise<T>;

/** One signed-in browser: who it is, and until when. Only a hash of its token is kept. */
export interface SessionRecord {
  /** SHA-256 of the session token (base64url); the token itself lives only in the browser's cookie. */
  tokenHash: string;
  /** Who the session signs in. */
  principal: Principal;
  /** Epoch ms when it was issued. */
  createdAt: number;
  /** Epoch ms after which it is no longer returned. */
  expiresAt: number;
}

/**
 * Where sessions live (memory, SQLite, PostgreSQL). Small on purpose: an
 * expired session is never returned, whatever the store does with its row.
 */
export interface SessionStore {
  /** Stores a new session (a record with the same hash is replaced). */
  create(record: SessionRecord): MaybePromise<void>;
  /** The live session with this token hash, or null (unknown or expired). */
  get(tokenHash: string): MaybePromise<SessionRecord | null>;
  /** Moves a live session's expiry (sliding sessions); unknown or expired ones are left alone. */
  touch(tokenHash: string, expiresAt: number): MaybePromise<void>;
  /** Forgets a session (sign-out). */
  delete(tokenHash: string): MaybePromise<void>;
}

export interface SessionStoreOptions {
  /** The clock, in epoch ms. @default Date.now */
  now?: () => number;
}

/**
 * Sessions in memory: tests, and a single process that may forget everyone
 * on restart. Expired sessions are dropped as they are met.
 * @example
 * const sessions = createMemorySessionStore();
 */
export function createMemorySessionStore({ now = Date.now }: SessionStoreOptions = {}): SessionStore {
  const sessions = new Map<string, SessionRecord>();
  const live = (tokenHash: string): SessionRecord | null => {
    const record = sessions.get(tokenHash);
    if (!record) return null;
    if (record.expiresAt <= now()) {
      sessions.delete(tokenHash);
      return null;
    }
    return record;
  };
  return {
    create(record) {
      const at = now();
      for (const [hash, r] of sessions) if (r.expiresAt <= at) sessions.delete(hash);
      sessions.set(record.tokenHash, structuredClone(record));
    },
    get(tokenHash) {
      const record = live(tokenHash);
      return record ? structuredClone(record) : null;
    },
    touch(tokenHash, expiresAt) {
      const record = live(tokenHash);
      if (record) record.expiresAt = expiresAt;
    },
    delete(tokenHash) {
      sessions.delete(tokenHash);
    },
  };
}
