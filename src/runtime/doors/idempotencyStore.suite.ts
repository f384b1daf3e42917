import { describe, expect, it } from 'vitest';
import { createIdempotencyCache, fingerprint, type IdempotencyRecord, type IdempotencyStore } from './idempotency';

/**
 * What every `IdempotencyStore` must do, and what the cache does over it; run
 * from each store's test file with a factory giving a fresh, empty store.
 * @example
 * idempotencyStoreSuite('sqlite', () => createSqliteIdempotencyStore(openWorkspaceDatabase(':memory:')));
 */
export function idempotencyStoreSuite(name: string, make: () => IdempotencyStore | Promise<IdempotencyStore>): void {
  const record = (patch: Partial<IdempotencyRecord> = {}): IdempotencyRecord => ({
    fingerprint: 'fp',
    response: { kind: 'done', jobId: 'job_1', result: { content: [{ type: 'text', text: 'ok' }] }, replayed: false },
    createdAt: 1_000,
    expiresAt: 2_000,
    ...patch,
  });

  describe(`IdempotencyStore: ${name}`, () => {
    it('keeps a real fingerprint (a NUL between the verb and its arguments) and answers with NULs and line separators intact', async () => {
      const store = await make();
      const real = record({ fingerprint: fingerprint('math.add', { a: 1, b: 'x\u0000y' }), response: { text: 'a\u0000b \u2028 ü' } });
      await store.put('alice', 'k-nul', real);
      expect(await store.get('alice', 'k-nul')).toEqual(real);
    });

    it('puts, gets, replaces and deletes a record, keeping scopes apart', async () => {
      const store = await make();
      expect(await store.get('alice', 'k')).toBeUndefined();
      await store.put('alice', 'k', record());
      expect(await store.get('alice', 'k')).toEqual(record());
      expect(await store.get('bob', 'k')).toBeUndefined();
      expect(await store.get('alice', 'other')).toBeUndefined();
      await store.put('alice', 'k', record({ fingerprint: 'fp2', response: [1, 'two', null], createdAt: 1_500, expiresAt: 2_500 }));
      expect(await store.get('alice', 'k')).toEqual(record({ fingerprint: 'fp2', response: [1, 'two', null], createdAt: 1_500, expiresAt: 2_500 }));
      await store.delete('alice', 'k');
      await store.delete('alice', 'never-there');
      expect(await store.get('alice', 'k')).toBeUndefined();
    });

    it('keeps a response as JSON: what comes back is a copy', async () => {
      const store = await make();
      const response = { nested: { list: [1, 2] }, text: 'ünïcødé "quoted"' };
      await store.put('alice', 'k', record({ response }));
      response.nested.list.push(3);
      expect((await store.get('alice', 'k'))?.response).toEqual({ nested: { list: [1, 2] }, text: 'ünïcødé "quoted"' });
    });

    it('purges the records expired at a time, and only those', async () => {
      const store = await make();
      await store.put('a', 'old', record({ expiresAt: 100 }));
      await store.put('a', 'edge', record({ expiresAt: 200 }));
      await store.put('b', 'new', record({ expiresAt: 300 }));
      expect(await store.purge(200)).toBe(2);
      expect(await store.get('a', 'old')).toBeUndefined();
      expect(await store.get('a', 'edge')).toBeUndefined();
      expect(await store.get('b', 'new')).toEqual(record({ expiresAt: 300 }));
      expect(await store.purge(200)).toBe(0);
    });

    it('lets a second cache over the store (a restarted server) replay a finished answer instead of running again', async () => {
      const store = await make();
      let now = 10_000;
      const first = createIdempotencyCache<{ n: number }>({ store, now: () => now, ttlMs: 1_000 });
      const ran = await first.claim('alice', 'k', 'fp', async () => ({ n: 1 }));
      expect(ran).toMatchObject({ conflict: false, replayed: false });
      expect(await (ran.conflict ? null : ran.value)).toEqual({ n: 1 });
      await settled(async () => (await store.get('alice', 'k')) !== undefined);

      const restarted = createIdempotencyCache<{ n: number }>({ store, now: () => now, ttlMs: 1_000 });
      let runs = 0;
      const again = await restarted.claim('alice', 'k', 'fp', async () => ({ n: ++runs }));
      expect(again).toMatchObject({ conflict: false, replayed: true });
      expect(await (again.conflict ? null : again.value)).toEqual({ n: 1 });
      expect(await restarted.claim('alice', 'k', 'other', async () => ({ n: ++runs }))).toEqual({ conflict: true });
      expect(runs).toBe(0);

      // Expired in the store: it runs again.
      now = 11_000;
      const later = createIdempotencyCache<{ n: number }>({ store, now: () => now, ttlMs: 1_000 });
      const fresh = await later.claim('alice', 'k', 'changed', async () => ({ n: ++runs }));
      expect(fresh).toMatchObject({ conflict: false, replayed: false });
      expect(await (fresh.conflict ? null : fresh.value)).toEqual({ n: 1 });
      expect(runs).toBe(1);
    });

    it('runs the work once for 20 concurrent claims of one key, and stores its answer once finished', async () => {
      const store = await make();
      const cache = createIdempotencyCache<number>({ store });
      let runs = 0;
      const work = async () => {
        runs++;
        await new Promise((resolve) => setTimeout(resolve, 10));
        return 42;
      };
      const entries = await Promise.all(Array.from({ length: 20 }, () => cache.claim('alice', 'k1', 'fp', work)));
      const values = await Promise.all(entries.map((e) => (e.conflict ? null : e.value)));
      expect(values).toEqual(Array(20).fill(42));
      expect(runs).toBe(1);
      expect(entries.filter((e) => !e.conflict && e.replayed)).toHaveLength(19);
      await settled(async () => (await store.get('alice', 'k1')) !== undefined);
      expect((await store.get('alice', 'k1'))?.response).toBe(42);
    });

    it('removes a forgotten answer from the store, and stores only what `keep` allows', async () => {
      const store = await make();
      const cache = createIdempotencyCache<{ kind: string }>({ store, keep: (r) => r.kind !== 'refused' });
      const refused = await cache.claim('alice', 'no', 'fp', async () => ({ kind: 'refused' }));
      await (refused.conflict ? null : refused.value);
      const done = await cache.claim('alice', 'yes', 'fp', async () => ({ kind: 'done' }));
      await (done.conflict ? null : done.value);
      await settled(async () => (await store.get('alice', 'yes')) !== undefined);
      expect(await store.get('alice', 'no')).toBeUndefined();
      expect((await store.get('alice', 'yes'))?.response).toEqual({ kind: 'done' });
      cache.forget('alice', 'yes');
      await settled(async () => (await store.get('alice', 'yes')) === undefined);
      expect(await store.get('alice', 'yes')).toBeUndefined();
      expect(await cache.claim('alice', 'yes', 'new', async () => ({ kind: 'done' }))).toMatchObject({ conflict: false, replayed: false });
    });
  });
}

/**
 * Lets the cache's background store writes finish: waits until `done` holds
 * (a store on a network database takes a few milliseconds), at most 2 s; the
 * assertions after it then say what is wrong.
 */
async function settled(done: () => Promise<boolean>): Promise<void> {
  const until = Date.now() + 2_000;
  while (!(await done()) && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 5));
}
