import { describe, expect, it } from 'vitest';
import { createIdempotencyCache, createMemoryIdempotencyStore, fingerprint, type IdempotencyStore } from './idempotency';
import { idempotencyStoreSuite } from './idempotencyStore.suite';

idempotencyStoreSuite('memory', () => createMemoryIdempotencyStore());

/** A store that answers later, like a network database. */
function slow(store: IdempotencyStore): IdempotencyStore & { gets: number } {
  const later = <T>(value: () => T) => new Promise<T>((resolve) => setTimeout(() => resolve(value()), 5));
  const wrapped = {
    gets: 0,
    get: (scope: string, key: string) => (wrapped.gets++, later(() => store.get(scope, key) as ReturnType<typeof store.get>)),
    put: (scope: string, key: string, record: Parameters<IdempotencyStore['put']>[2]) => later(() => void store.put(scope, key, record)),
    delete: (scope: string, key: string) => later(() => void store.delete(scope, key)),
    purge: (now: number) => later(() => store.purge(now) as number),
  };
  return wrapped as IdempotencyStore & { gets: number };
}

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

describe('createIdempotencyCache with a store', () => {
  it('replays from the store through run() when the store answers at once (a restart)', async () => {
    const store = createMemoryIdempotencyStore();
    const first = createIdempotencyCache<string>({ store });
    const ran = first.run('alice', 'k', 'fp', async () => 'first');
    await (ran.conflict ? null : ran.value);
    await new Promise((resolve) => setTimeout(resolve, 5));
    const restarted = createIdempotencyCache<string>({ store });
    let ranAgain = false;
    const replay = restarted.run('alice', 'k', 'fp', async () => ((ranAgain = true), 'second'));
    expect(replay).toMatchObject({ conflict: false, replayed: true });
    expect(await (replay.conflict ? null : replay.value)).toBe('first');
    expect(restarted.run('alice', 'k', 'other', async () => 'third')).toEqual({ conflict: true });
    expect(ranAgain).toBe(false);
  });

  it('runs once for 20 concurrent claims over a store that answers later, asking it once', async () => {
    const store = slow(createMemoryIdempotencyStore());
    const cache = createIdempotencyCache<number>({ store });
    let runs = 0;
    const entries = await Promise.all(Array.from({ length: 20 }, () => cache.claim('alice', 'k', 'fp', async () => ++runs)));
    expect(await Promise.all(entries.map((e) => (e.conflict ? null : e.value)))).toEqual(Array(20).fill(1));
    expect(entries.filter((e) => !e.conflict && !e.replayed)).toHaveLength(1);
    expect(store.gets).toBe(1);
    expect(() => cache.run('alice', 'k2', 'fp', async () => 0)).toThrow('call claim() instead');
  });

  it('replays from a store that answers later, and reports a conflict found there', async () => {
    const inner = createMemoryIdempotencyStore();
    inner.put('alice', 'k', { fingerprint: 'fp', response: 'kept', createdAt: Date.now(), expiresAt: Date.now() + 60_000 });
    const cache = createIdempotencyCache<string>({ store: slow(inner) });
    const [a, b] = await Promise.all([cache.claim('alice', 'k', 'other', async () => 'x'), cache.claim('alice', 'k', 'fp', async () => 'y')]);
    expect(a).toEqual({ conflict: true });
    expect(b).toMatchObject({ conflict: false, replayed: true });
    expect(await (b.conflict ? null : b.value)).toBe('kept');
  });

  it('still answers in this process when the store fails, and reports the failure', async () => {
    const errors: unknown[] = [];
    const broken: IdempotencyStore = {
      get: () => undefined,
      put: () => {
        throw new Error('disk full');
      },
      delete: () => undefined,
      purge: () => 0,
    };
    const cache = createIdempotencyCache<number>({ store: broken, onStoreError: (e) => errors.push(e) });
    const entry = cache.run('alice', 'k', 'fp', async () => 7);
    expect(await (entry.conflict ? null : entry.value)).toBe(7);
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(errors.map(String)).toEqual(['Error: disk full']);
    expect(cache.run('alice', 'k', 'fp', async () => 8)).toMatchObject({ replayed: true });
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
