import { randomBytes } from 'node:crypto';

/** A sign-in started by one user's session: what its redirect must come back with. */
export interface PendingSignIn {
  /** The owner's key (`keyOf(owner)`): only that user's session may complete it. */
  owner: string;
  label: string;
  codeVerifier: string;
  /** The exact origin of the page that opened the sign-in, where the landing page posts the outcome. */
  openerOrigin: string;
  expiresAt: number;
}

/**
 * The sign-ins in flight in this process, by `state` (32 random bytes): each used once, gone after
 * `ttlMs`, at most `perOwner` per user (the oldest dropped) and `total` in all. A `state` another
 * user's session brings back is not theirs: it is refused and left for its owner.
 */
export interface SignIns {
  /** A fresh `state` value. */
  state(): string;
  add(state: string, signIn: Omit<PendingSignIn, 'expiresAt'>): void;
  /** The sign-in, removed, when `owner` started it and it has not run out; else null. */
  take(state: string, owner: string): PendingSignIn | null;
}

export function createSignIns({ ttlMs = 600_000, perOwner = 5, total = 10_000 } = {}): SignIns {
  const pending = new Map<string, PendingSignIn>();
  const sweep = () => {
    const now = Date.now();
    for (const [state, p] of pending) if (p.expiresAt <= now) pending.delete(state);
  };
  return {
    state: () => randomBytes(32).toString('base64url'),
    add(state, signIn) {
      sweep();
      const mine = [...pending].filter(([, p]) => p.owner === signIn.owner);
      for (const [old] of mine.slice(0, Math.max(0, mine.length - perOwner + 1))) pending.delete(old);
      // Past the total, the oldest go first (a Map keeps insertion order).
      for (const old of pending.keys()) {
        if (pending.size < total) break;
        pending.delete(old);
      }
      pending.set(state, { ...signIn, expiresAt: Date.now() + ttlMs });
    },
    take(state, owner) {
      const p = pending.get(state);
      if (!p || p.owner !== owner) return null;
      pending.delete(state);
      return p.expiresAt > Date.now() ? p : null;
    },
  };
}
