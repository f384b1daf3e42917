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
});
