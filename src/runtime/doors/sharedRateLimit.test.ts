import { describe, expect, it } from 'vitest';
import { createSharedRateLimiter, leaseSize, takeTokens, type RequestBuckets } from './sharedRateLimit';

/** A shared bucket in memory that counts the round trips a database would make. */
function countedBuckets() {
  const buckets = new Map<string, { tokens: number; refilledAt: number }>();
  const calls: number[] = [];
  const store: RequestBuckets = {
    async takeRequests(user, want, limit, now) {
      calls.push(want);
      await new Promise((resolve) => setTimeout(resolve, 1));
      const { granted, left, refilledAt } = takeTokens(buckets.get(user), want, limit, now);
      buckets.set(user, { tokens: left, refilledAt });
      return { granted, left };
    },
  };
  return { store, calls };
}

describe('createSharedRateLimiter', () => {
  it('asks the database once per lease, not once per request: 600 a minute takes 20 at a time', async () => {
    const { store, calls } = countedBuckets();
    const limiter = createSharedRateLimiter(store, 600, () => 0);
    for (let i = 0; i < 100; i++) expect(await limiter.take({ user: 'alice' })).toBeNull();
    expect(leaseSize(600)).toBe(20);
    expect(calls).toEqual([20, 20, 20, 20, 20]);
  });

  it('a high limit leases a second of it at once (at most 1,000), a low one a twentieth', () => {
    expect([10, 100, 600, 1_200, 6_000, 60_000, 600_000].map(leaseSize)).toEqual([1, 5, 20, 20, 100, 1_000, 1_000]);
  });

  it('requests arriving together share one round trip', async () => {
    const { store, calls } = countedBuckets();
    const limiter = createSharedRateLimiter(store, 600, () => 0);
    const answers = await Promise.all(Array.from({ length: 15 }, () => limiter.take({ user: 'alice' })));
    expect(answers.every((a) => a === null)).toBe(true);
    expect(calls).toHaveLength(1);
  });

  it('a flood of refused requests costs no round trips until the bucket has refilled a token', async () => {
    const { store, calls } = countedBuckets();
    let now = 0;
    const limiter = createSharedRateLimiter(store, 2, () => now);
    expect(await limiter.take({ user: 'alice' })).toBeNull();
    expect(await limiter.take({ user: 'alice' })).toBeNull();
    const refused = await limiter.take({ user: 'alice' });
    expect(refused).toMatchObject({ status: 429, code: 'rate_limited', retryAfterSeconds: 30 });
    expect(refused?.message).toBe('User "alice" made more than 2 requests in a minute. Retry after 30 s.');
    const asked = calls.length;
    for (let i = 0; i < 1_000; i++) expect(await limiter.take({ user: 'alice' })).not.toBeNull();
    expect(calls).toHaveLength(asked);
    now = 30_000;
    expect(await limiter.take({ user: 'alice' })).toBeNull();
  });

  it('a token given back (a call the budget blocked) serves the next request without the database', async () => {
    const { store, calls } = countedBuckets();
    const limiter = createSharedRateLimiter(store, 1, () => 0);
    expect(await limiter.take({ user: 'alice' })).toBeNull();
    limiter.giveBack({ user: 'alice' });
    expect(await limiter.take({ user: 'alice' })).toBeNull();
    expect(await limiter.take({ user: 'alice' })).not.toBeNull();
    expect(calls).toHaveLength(2);
  });

  it('a principal’s own limit wins over the default', async () => {
    const { store } = countedBuckets();
    const limiter = createSharedRateLimiter(store, 600, () => 0);
    const answers = [];
    for (let i = 0; i < 5; i++) answers.push(await limiter.take({ user: 'ci', requestsPerMinute: 3 }));
    expect(answers.filter((a) => a === null)).toHaveLength(3);
  });

  it('a principal with no limit costs no round trip', async () => {
    const { store, calls } = countedBuckets();
    const limiter = createSharedRateLimiter(store, 600, () => 0);
    for (let i = 0; i < 100; i++) expect(await limiter.take({ user: 'ci', requestsPerMinute: Infinity })).toBeNull();
    expect(calls).toEqual([]);
  });
});
