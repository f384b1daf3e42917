import type { Principal } from '../principal';

/** A request the limit refused: a 429 with when to retry (a `MeterBlock`). */
export interface RateRefusal {
  ok: false;
  status: 429;
  code: 'rate_limited';
  message: string;
  /** Seconds until a retry can succeed (sent as `Retry-After`). */
  retryAfterSeconds: number;
}

/** What a shared bucket gave: `granted` tokens (0 to `want`), and the tokens left in it after. */
export interface RequestGrant {
  granted: number;
  /** Tokens left in the bucket (fractional: it refills continuously). */
  left: number;
}

/**
 * Request buckets kept in a database, shared by every instance on it: one
 * bucket per user holding up to `limit` tokens, refilled at `limit` a minute.
 */
export interface RequestBuckets {
  /**
   * Atomically refills the user's bucket to `now` (a new bucket starts
   * full), takes `min(want, whole tokens in it)` and says how many it took
   * and how many are left.
   */
  takeRequests(user: string, want: number, limit: number, now: number): RequestGrant | Promise<RequestGrant>;
}

/** Takes one request's token, or refuses; gives a token back for a call the budget blocked. */
export interface RateLimiter {
  take(principal: Principal): RateRefusal | null | Promise<RateRefusal | null>;
  giveBack(principal: Principal): void;
}

/** A limiter that answers at once (its buckets are in memory). */
export interface LocalRateLimiter extends RateLimiter {
  take(principal: Principal): RateRefusal | null;
}

/** Per-user token buckets in this process, refilled over a minute (429 beyond the limit). */
export function createRateLimiter(defaultLimit: number, now: () => number): LocalRateLimiter {
  const buckets = new Map<string, { tokens: number; refilledAt: number }>();
  const limitOf = (principal: Principal) => principal.requestsPerMinute ?? defaultLimit;
  return {
    take(principal) {
      const limit = limitOf(principal);
      const t = now();
      let b = buckets.get(principal.user);
      if (!b) {
        b = { tokens: limit, refilledAt: t };
        buckets.set(principal.user, b);
      }
      b.tokens = Math.min(limit, b.tokens + ((t - b.refilledAt) * limit) / 60_000);
      b.refilledAt = t;
      if (b.tokens < 1) return refusal(principal, limit, b.tokens);
      b.tokens -= 1;
      return null;
    },
    giveBack(principal) {
      const b = buckets.get(principal.user);
      if (b) b.tokens = Math.min(limitOf(principal), b.tokens + 1);
    },
  };
}

/**
 * How many tokens an instance takes from the shared bucket at once: a
 * second's worth of the per-minute limit, at least 20 and at most 1,000, and
 * never more than a twentieth of the limit (so 1 to 20 up to 1,200 a minute).
 * One database round trip serves that many requests; the tokens an instance
 * holds unused are the slack (see `createSharedRateLimiter`): at most about a
 * second's worth of the limit per instance.
 */
export function leaseSize(limit: number): number {
  return Math.max(1, Math.min(Math.max(20, Math.floor(limit / 60)), 1_000, Math.floor(limit / 20)));
}

/** Users whose leases this process remembers at most; the least recently used go first (their tokens are lost, never added). */
const MAX_LEASES = 10_000;

/**
 * The per-user request limit shared by every instance on one database: each
 * instance takes tokens from the user's bucket in the store in leases of
 * `leaseSize(limit)` and spends them locally, so only one request in a
 * lease waits for the database. A bucket that had no whole token left is
 * not asked again until it has refilled one (a flood of refused requests
 * costs no round trips).
 *
 * The bound: the store never grants more than the bucket holds, so N
 * instances together allow what one process would (`limit` at once, then
 * `limit` a minute) plus the tokens they hold leased and unspent, at most
 * N × (lease − 1); those held tokens can also make one instance refuse up
 * to N × (lease − 1) requests before another would.
 */
export function createSharedRateLimiter(buckets: RequestBuckets, defaultLimit: number, now: () => number): RateLimiter {
  type Lease = { tokens: number; emptyUntil: number; asking: Promise<void> | null };
  const leases = new Map<string, Lease>();
  const limitOf = (principal: Principal) => principal.requestsPerMinute ?? defaultLimit;
  /** The lease used last: already last in `leases`, nothing to move (a busy client asks again and again). */
  let last: { user: string; lease: Lease } | null = null;

  const leaseOf = (user: string) => {
    if (last?.user === user && leases.get(user) === last.lease) return last.lease;
    let lease = leases.get(user);
    if (lease) leases.delete(user);
    else lease = { tokens: 0, emptyUntil: 0, asking: null };
    leases.set(user, lease);
    last = { user, lease };
    if (leases.size > MAX_LEASES) {
      for (const [key, l] of leases) {
        if (l.asking) continue;
        leases.delete(key);
        if (leases.size <= MAX_LEASES) break;
      }
    }
    return lease;
  };

  const take = async (principal: Principal, lease: ReturnType<typeof leaseOf>): Promise<RateRefusal | null> => {
    const limit = limitOf(principal);
    while (lease.tokens < 1) {
      const t = now();
      if (t < lease.emptyUntil) return refusal(principal, limit, 1 - ((lease.emptyUntil - t) * limit) / 60_000);
      if (!lease.asking) {
        lease.asking = (async () => {
          try {
            const { granted, left } = await buckets.takeRequests(principal.user, leaseSize(limit), limit, t);
            lease.tokens += granted;
            if (granted === 0) lease.emptyUntil = t + Math.ceil(((1 - left) * 60_000) / limit);
          } finally {
            lease.asking = null;
          }
        })();
      }
      const asked = lease.asking;
      await asked;
    }
    lease.tokens -= 1;
    return null;
  };

  return {
    take(principal) {
      // No limit: nothing to count, and no round trip.
      if (limitOf(principal) === Infinity) return null;
      const lease = leaseOf(principal.user);
      if (lease.tokens >= 1 && !lease.asking) {
        lease.tokens -= 1;
        return null;
      }
      return take(principal, lease);
    },
    giveBack(principal) {
      const lease = leases.get(principal.user);
      if (lease) lease.tokens += 1;
    },
  };
}

/**
 * A bucket refilled to `now` (a new one starts full) and what taking up to
 * `want` whole tokens from it leaves; for the stores' `takeRequests`. A
 * clock behind the bucket's (another instance's) refills nothing and keeps
 * the bucket's time.
 */
export function takeTokens(bucket: { tokens: number; refilledAt: number } | undefined, want: number, limit: number, now: number): RequestGrant & { refilledAt: number } {
  const tokens = bucket ? Math.min(limit, bucket.tokens + (Math.max(0, now - bucket.refilledAt) * limit) / 60_000) : limit;
  const granted = Math.max(0, Math.min(want, Math.floor(tokens)));
  return { granted, left: tokens - granted, refilledAt: bucket ? Math.max(now, bucket.refilledAt) : now };
}

/** The 429 for a bucket with `tokens` (< 1) left: when the next whole token comes. */
function refusal(principal: Principal, limit: number, tokens: number): RateRefusal {
  const wait = Math.max(1, Math.ceil(((1 - tokens) * 60_000) / limit / 1000));
  return {
    ok: false,
    status: 429,
    code: 'rate_limited',
    message: `User "${principal.user}" made more than ${limit} requests in a minute. Retry after ${wait} s.`,
    retryAfterSeconds: wait,
  };
}
