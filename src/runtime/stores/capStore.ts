/** A value now, or later: SQLite answers at once, a network database later. */
type MaybePromise<T> = T | Promise<T>;

/** One thing a cap counts: a new thread, a new saved skill. */
export interface CapClaim {
  /** What is counted, e.g. `thread`, `skill`: each kind has caps of its own. */
  kind: string;
  /** The thing itself, unique within its kind (a thread's key, a skill's path): claiming it again counts nothing. */
  item: string;
  /** The space it belongs to. */
  space: string;
  /** The client address that made it, when known: per-address caps count by it. */
  address?: string;
  /** Epoch ms. */
  at: number;
}

/** The caps one claim must stay within. */
export interface CapLimits {
  /** Things of this kind a space may hold. */
  perSpace: number;
  /** Things of this kind one address may make within `windowMs`. */
  perAddress: number;
  /** The per-address window, in ms. */
  windowMs: number;
}

/** What `claim` decided: recorded, or which cap it would pass and when to try again. */
export type CapResult =
  | { ok: true }
  | {
      ok: false;
      /** The cap that refused it. */
      over: 'space' | 'address';
      /** What that cap counts now. */
      count: number;
      limit: number;
      /** For `address`: ms until the oldest claim in the window leaves it. */
      retryAfterMs?: number;
    };

/**
 * Where caps beyond one user's are counted (per space, per client address),
 * so a new guest cookie, a restart or another instance does not reset them.
 * Small on purpose, so another database can be plugged in.
 */
export interface CapStore {
  /**
   * Records `claim` if, atomically with every other claim, the space holds
   * fewer than `perSpace` of its kind and its address made fewer than
   * `perAddress` within `windowMs` before `claim.at`; otherwise records
   * nothing and says which cap. An item already claimed is `ok` and counted once.
   */
  claim(claim: CapClaim, limits: CapLimits): MaybePromise<CapResult>;
  /** Forgets a claim (its thing was never made, or was removed). */
  release(kind: string, item: string): MaybePromise<void>;
}

/**
 * Caps counted in memory: tests, and the reference the SQLite and
 * PostgreSQL stores' suite is checked against.
 * @example
 * const caps = createMemoryCapStore();
 */
export function createMemoryCapStore(): CapStore {
  const claims = new Map<string, CapClaim>();
  const keyOf = (kind: string, item: string) => `${kind}\u0000${item}`;
  return {
    claim(claim, limits) {
      if (claims.has(keyOf(claim.kind, claim.item))) return { ok: true };
      const mine = [...claims.values()].filter((c) => c.kind === claim.kind);
      const inSpace = mine.filter((c) => c.space === claim.space).length;
      if (inSpace >= limits.perSpace) return { ok: false, over: 'space', count: inSpace, limit: limits.perSpace };
      if (claim.address !== undefined) {
        const since = claim.at - limits.windowMs;
        const recent = mine.filter((c) => c.address === claim.address && c.at > since).map((c) => c.at);
        if (recent.length >= limits.perAddress) {
          return { ok: false, over: 'address', count: recent.length, limit: limits.perAddress, retryAfterMs: Math.min(...recent) - since };
        }
      }
      claims.set(keyOf(claim.kind, claim.item), { ...claim });
      return { ok: true };
    },
    release(kind, item) {
      claims.delete(keyOf(kind, item));
    },
  };
}
