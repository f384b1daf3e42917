import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineCapability } from '../capability';
import { textResult } from '../envelope';
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

    it('limits requests per minute per user with 429 in this process; a call the budget blocks does not count', async () => {
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
  });
}
