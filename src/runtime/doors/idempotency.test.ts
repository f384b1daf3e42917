import { describe, expect, it } from 'vitest';
import { createIdempotencyCache, fingerprint } from './idempotency';

describe('createIdempotencyCache', () => {
  it('runs the work once for concurrent calls with the same key and fingerprint', async () => {
    const cache = createIdempotencyCache<number>();
    let runs = 0;
    const work = async () => {
      runs++;
      await new Promise((resolve) => setTimeout(resolve, 10));
      return 42;
    };
    const entries = Array.from({ length: 20 }, () => cache.run('alice', 'k1', 'fp', work));
    const values = await Promise.all(entries.map((e) => (e.conflict ? null : e.value)));
    expect(values).toEqual(Array(20).fill(42));
    expect(runs).toBe(1);
    expect(entries.filter((e) => !e.conflict && e.replayed)).toHaveLength(19);
  });

  it('reports a conflict for the same key with another fingerprint, and runs nothing', () => {
    const cache = createIdempotencyCache<number>();
    cache.run('alice', 'k1', 'fp-a', async () => 1);
    let ran = false;
    expect(cache.run('alice', 'k1', 'fp-b', async () => ((ran = true), 2))).toEqual({ conflict: true });
    expect(ran).toBe(false);
  });

  it('keeps keys apart per owner, forgets on request, and expires entries', async () => {
    let now = 0;
    const cache = createIdempotencyCache<string>({ ttlMs: 100, now: () => now });
    cache.run('alice', 'k', 'fp', async () => 'alice');
    const bob = cache.run('bob', 'k', 'other', async () => 'bob');
    expect(bob.conflict).toBe(false);
    cache.forget('alice', 'k');
    expect(cache.run('alice', 'k', 'new', async () => 'again')).toMatchObject({ conflict: false, replayed: false });
    now = 200;
    expect(cache.run('bob', 'k', 'changed', async () => 'later')).toMatchObject({ conflict: false, replayed: false });
  });

  it('drops the oldest entries beyond its size', () => {
    const cache = createIdempotencyCache<number>({ maxEntries: 2 });
    cache.run('o', 'a', 'fp', async () => 1);
    cache.run('o', 'b', 'fp', async () => 2);
    cache.run('o', 'c', 'fp', async () => 3);
    expect(cache.run('o', 'a', 'different', async () => 4)).toMatchObject({ conflict: false, replayed: false });
  });
});

describe('fingerprint', () => {
  it('ignores key order but not values', () => {
    expect(fingerprint('x', { a: 1, b: { c: [1, 2], d: null } })).toBe(fingerprint('x', { b: { d: null, c: [1, 2] }, a: 1 }));
    expect(fingerprint('x', { a: 1 })).not.toBe(fingerprint('x', { a: 2 }));
    expect(fingerprint('x', { a: 1 })).not.toBe(fingerprint('y', { a: 1 }));
    expect(fingerprint('x', [1, 2])).not.toBe(fingerprint('x', [2, 1]));
  });
});
