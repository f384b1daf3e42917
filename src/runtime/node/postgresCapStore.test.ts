import { expect, it } from 'vitest';
import { describePostgres, testPostgres } from '../../test/postgres';
import { capStoreSuite } from '../stores/capStore.suite';
import { createPostgresCapStore } from './postgresCapStore';

const pg = await testPostgres();

describePostgres(pg, () => {
  capStoreSuite('PostgreSQL', async () => createPostgresCapStore(await pg.open()));

  it('two instances on one database share one cap: racing claims from both never pass it', async () => {
    const target = await pg.createDatabase();
    const a = createPostgresCapStore(await pg.open(target));
    const b = createPostgresCapStore(await pg.open(target));
    const limits = { perSpace: 1_000, perAddress: 7, windowMs: 60_000 };
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? a : b).claim({ kind: 'thread', item: `t${i}`, space: `s${i % 3}`, address: '198.51.100.7', at: 0 }, limits)));
    expect(results.filter((r) => r.ok)).toHaveLength(7);
  });
});
