import { expect, it } from 'vitest';
import { z } from 'zod';
import { describePostgres, testPostgres } from '../../test/postgres';
import { defineCapability } from '../capability';
import { createMeter } from '../doors/meter';
import { meterStoreSuite } from '../doors/meterStore.suite';
import { textResult } from '../results';
import { createPostgresMeterStore } from './postgresMeterStore';

const pg = await testPostgres();
const read = defineCapability({ name: 'a.read', title: 'Read', description: 'Reads.', input: z.object({}), handler: () => textResult('ok') });

describePostgres(pg, () => {
  meterStoreSuite('PostgreSQL', async () => createPostgresMeterStore(await pg.open()));

  it('shares one budget between two instances on the database, never overspending', async () => {
    const target = await pg.createDatabase();
    const a = createMeter({ store: createPostgresMeterStore(await pg.open(target)) });
    const b = createMeter({ store: createPostgresMeterStore(await pg.open(target)) });
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? a : b).reserve({ user: 'alice', budget: 7 }, read)));
    expect(results.filter((r) => r.ok)).toHaveLength(7);
    // Commits and holds racing from both instances: the books add up, and the budget still holds.
    await Promise.all([...results.map((r) => (r.ok ? r.commit() : null)), ...Array.from({ length: 6 }, (_, i) => (i % 2 ? a : b).reserve({ user: 'alice', budget: 7 }, read))]);
    expect(await a.charged('alice')).toBe(7);
    expect(await b.reserve({ user: 'alice', budget: 7 }, read)).toMatchObject({ ok: false, status: 402 });
  });

  it('takes from an existing bucket in one statement, racing takes from two instances never getting more than it holds', async () => {
    const target = await pg.createDatabase();
    const a = createPostgresMeterStore(await pg.open(target));
    const b = createPostgresMeterStore(await pg.open(target));
    // The bucket exists (its first take created it), 100 tokens at most; then 60 takes of 3 race from both.
    expect(await a.takeRequests!('alice', 1, 100, 0)).toEqual({ granted: 1, left: 99 });
    const grants = await Promise.all(Array.from({ length: 60 }, (_, i) => (i % 2 ? a : b).takeRequests!('alice', 3, 100, 0)));
    expect(grants.reduce((sum, g) => sum + g.granted, 0)).toBe(99);
    expect(Math.min(...grants.map((g) => g.left))).toBe(0);
    // 30 s later, half the limit has come back, whichever instance asks.
    expect(await b.takeRequests!('alice', 80, 100, 30_000)).toEqual({ granted: 50, left: 0 });
  });

  it('commits in one statement: a batch of charges (a hold never written) adds its units, a held call moves its hold', async () => {
    const store = createPostgresMeterStore(await pg.open());
    await store.commit({ id: 'charge_1', user: 'alice', units: 3, expiresAt: 0 });
    await store.commit({ id: 'charge_2', user: 'alice', units: 2, expiresAt: 0 });
    expect(await store.charged('alice')).toBe(5);
    expect(await store.hold({ id: 'h1', user: 'alice', units: 4, expiresAt: 10_000 }, 10, 0)).toEqual({ ok: true });
    expect(await store.hold({ id: 'h2', user: 'alice', units: 2, expiresAt: 10_000 }, 10, 0)).toMatchObject({ ok: false, charged: 5, held: 4 });
    await store.commit({ id: 'h1', user: 'alice', units: 4, expiresAt: 10_000 });
    // 9 charged, no hold left: one more unit fits, two do not.
    expect(await store.hold({ id: 'h3', user: 'alice', units: 2, expiresAt: 10_000 }, 10, 0)).toMatchObject({ ok: false, charged: 9, held: 0 });
    expect(await store.hold({ id: 'h4', user: 'alice', units: 1, expiresAt: 10_000 }, 10, 0)).toEqual({ ok: true });
  });
});

