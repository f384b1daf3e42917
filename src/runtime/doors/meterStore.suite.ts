import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineCapability } from '../capability';
import { textResult } from '../results';
import { createMeter, type MeterHold, type MeterStore } from './meter';

const read = defineCapability({ name: 'a.read', title: 'Read', description: 'Reads.', input: z.object({}), handler: () => textResult('ok') });
const write = defineCapability({ name: 'a.write', title: 'Write', description: 'Writes.', kind: 'mutate', input: z.object({}), handler: () => textResult('ok') });

/**
 * What every `MeterStore` must do, and what `createMeter` does over it; run
 * from each store's test file with a factory giving a fresh, empty store.
 * @example
 * meterStoreSuite('sqlite', () => createSqliteMeterStore(openWorkspaceDatabase(':memory:')));
 */
export function meterStoreSuite(name: string, make: () => MeterStore | Promise<MeterStore>): void {
  const hold = (id: string, patch: Partial<MeterHold> = {}): MeterHold => ({ id, user: 'alice', units: 2, expiresAt: 10_000, ...patch });

  describe(`MeterStore: ${name}`, () => {
    it('holds within the budget, counting holds still open, and tells the books when it refuses', async () => {
      const store = await make();
      expect(await store.hold(hold('h1'), 5, 0)).toEqual({ ok: true });
      expect(await store.hold(hold('h2'), 5, 0)).toEqual({ ok: true });
      expect(await store.hold(hold('h3'), 5, 0)).toEqual({ ok: false, charged: 0, held: 4 });
      expect(await store.hold(hold('h4', { units: 1 }), 5, 0)).toEqual({ ok: true });
      expect(await store.hold(hold('b1', { user: 'bob', units: 5 }), 5, 0)).toEqual({ ok: true });
      expect(await store.charged('alice')).toBe(0);
    });

    it('moves a committed hold to the charged units, and frees a released one', async () => {
      const store = await make();
      await store.hold(hold('h1'), 5, 0);
      await store.hold(hold('h2'), 5, 0);
      await store.commit(hold('h1'));
      await store.release(hold('h2'));
      expect(await store.charged('alice')).toBe(2);
      expect(await store.charged('bob')).toBe(0);
      expect(await store.hold(hold('h3', { units: 3 }), 5, 0)).toEqual({ ok: true });
      expect(await store.hold(hold('h4', { units: 0.5 }), 5, 0)).toEqual({ ok: false, charged: 2, held: 3 });
      await store.commit(hold('h3', { units: 3 }));
      expect(await store.charged('alice')).toBe(5);
    });

    it('stops counting a hold once it expired, and still charges its commit', async () => {
      const store = await make();
      await store.hold(hold('h1', { units: 5, expiresAt: 100 }), 5, 0);
      expect(await store.hold(hold('h2', { units: 1 }), 5, 99)).toMatchObject({ ok: false, held: 5 });
      expect(await store.hold(hold('h3', { units: 5 }), 5, 100)).toEqual({ ok: true });
      await store.commit(hold('h1', { units: 5, expiresAt: 100 }));
      expect(await store.charged('alice')).toBe(5);
    });

    it('never refuses under an endless budget', async () => {
      const store = await make();
      for (let i = 0; i < 5; i++) expect(await store.hold(hold(`h${i}`, { units: 1e12 }), Infinity, 0)).toEqual({ ok: true });
    });

    it('lets concurrent reservations of one user spend the budget exactly, never more', async () => {
      const meter = createMeter({ store: await make() });
      const principal = { user: 'alice', budget: 3 };
      const results = await Promise.all(Array.from({ length: 10 }, () => meter.reserve(principal, read)));
      expect(results.filter((r) => r.ok)).toHaveLength(3);
      expect(results.find((r) => !r.ok)).toMatchObject({ status: 402, code: 'budget_exhausted' });
      await Promise.all(results.map((r) => (r.ok ? r.commit() : null)));
      expect(await meter.charged('alice')).toBe(3);
    });

    it('keeps the budget across a second meter over the store (a restart), with the message naming the user', async () => {
      const store = await make();
      const first = createMeter({ store, cost: (c) => (c.kind === 'mutate' ? 3 : 1) });
      const held = await first.reserve({ user: 'alice', budget: 4 }, write);
      if (!held.ok) throw new Error('expected a reservation');
      await held.commit();
      await held.commit();
      await held.release();
      const restarted = createMeter({ store, cost: (c) => (c.kind === 'mutate' ? 3 : 1) });
      expect(await restarted.charged('alice')).toBe(3);
      const blocked = await restarted.reserve({ user: 'alice', budget: 4 }, write);
      expect(blocked).toMatchObject({ ok: false, status: 402, code: 'budget_exhausted' });
      expect(blocked.ok === false && blocked.message).toBe('User "alice" is over budget: 3 of its 4 units are used and "a.write" costs 3. Nothing was run.');
      const last = await restarted.reserve({ user: 'alice', budget: 4 }, read);
      expect(last.ok).toBe(true);
      if (last.ok) await last.release();
      expect(await restarted.charged('alice')).toBe(3);
    });

    it('frees the hold of a call whose process died, after holdMs', async () => {
      const store = await make();
      let now = 0;
      const dead = createMeter({ store, now: () => now, holdMs: 1_000 });
      expect((await dead.reserve({ user: 'alice', budget: 1 }, read)).ok).toBe(true);
      const restarted = createMeter({ store, now: () => now, holdMs: 1_000 });
      expect((await restarted.reserve({ user: 'alice', budget: 1 }, read)).ok).toBe(false);
      now = 1_000;
      expect((await restarted.reserve({ user: 'alice', budget: 1 }, read)).ok).toBe(true);
    });

    it('limits requests per minute per user with 429; a call the budget blocks does not count', async () => {
      let now = 0;
      const meter = createMeter({ store: await make(), requestsPerMinute: 2, now: () => now });
      expect((await meter.reserve({ user: 'a', budget: 0 }, read)).ok).toBe(false);
      expect((await meter.reserve({ user: 'a' }, read)).ok).toBe(true);
      expect((await meter.reserve({ user: 'a' }, read)).ok).toBe(true);
      const limited = await meter.reserve({ user: 'a' }, read);
      expect(limited).toMatchObject({ ok: false, status: 429, code: 'rate_limited', retryAfterSeconds: 30 });
      expect(limited.ok === false && limited.message).toBe('User "a" made more than 2 requests in a minute. Retry after 30 s.');
      expect((await meter.reserve({ user: 'b' }, read)).ok).toBe(true);
      now = 30_000;
      expect((await meter.reserve({ user: 'a' }, read)).ok).toBe(true);
    });

    it('keeps request buckets: a new one is full, a take gives whole tokens only, and it refills at the limit a minute', async () => {
      const store = await make();
      const take = store.takeRequests!.bind(store);
      expect(await take('alice', 4, 10, 0)).toEqual({ granted: 4, left: 6 });
      expect(await take('alice', 8, 10, 0)).toEqual({ granted: 6, left: 0 });
      expect(await take('alice', 1, 10, 0)).toEqual({ granted: 0, left: 0 });
      // 9 s at 10 a minute is 1.5 tokens: one whole token is given, half a token stays.
      expect(await take('alice', 3, 10, 9_000)).toEqual({ granted: 1, left: 0.5 });
      expect(await take('bob', 1, 10, 9_000)).toEqual({ granted: 1, left: 9 });
      // Never more than the limit, however long it rested.
      expect(await take('alice', 50, 10, 10_000_000)).toEqual({ granted: 10, left: 0 });
      // A clock behind the bucket's refills nothing.
      expect(await take('alice', 1, 10, 0)).toEqual({ granted: 0, left: 0 });
    });

    it('never gives more tokens than the bucket holds to takes racing each other', async () => {
      const store = await make();
      const grants = await Promise.all(Array.from({ length: 30 }, () => store.takeRequests!('alice', 3, 50, 0)));
      expect(grants.reduce((sum, g) => sum + g.granted, 0)).toBe(50);
    });

    it('two meters on one store (two instances) together allow one request limit, not two', async () => {
      const store = await make();
      const now = () => 0;
      const a = createMeter({ store, requestsPerMinute: 100, now });
      const b = createMeter({ store, requestsPerMinute: 100, now });
      const results = [];
      for (let i = 0; i < 300; i++) results.push(await (i % 2 ? a : b).reserve({ user: 'alice' }, read));
      expect(results.filter((r) => r.ok)).toHaveLength(100);
      const refused = results.filter((r) => !r.ok);
      expect(refused[0]).toMatchObject({ status: 429, code: 'rate_limited', retryAfterSeconds: 1 });
      // Another user has a bucket of their own.
      expect((await a.reserve({ user: 'bob' }, read)).ok).toBe(true);
    });
  });
}
