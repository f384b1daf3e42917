import { expect, it } from 'vitest';
import { describePostgres, testPostgres } from '../../test/postgres';
import { createIdempotencyCache } from '../doors/idempotency';
import { idempotencyStoreSuite } from '../doors/idempotencyStore.suite';
import { createPostgresIdempotencyStore } from './postgresIdempotencyStore';

const pg = await testPostgres();

describePostgres(pg, () => {
  idempotencyStoreSuite('PostgreSQL', async () => createPostgresIdempotencyStore(await pg.open()));
  idempotencyStoreSuite('PostgreSQL, one of several instances', async () => createPostgresIdempotencyStore(await pg.open(), { instance: { id: 'inst_a', leaseMs: 1_000 } }));

  it('lets another instance on the database replay a finished answer', async () => {
    const target = await pg.createDatabase();
    const store = createPostgresIdempotencyStore(await pg.open(target));
    const first = createIdempotencyCache<{ kind: string; jobId: string }>({ store });
    const ran = await first.claim('alice', 'k', 'fp', async () => ({ kind: 'done', jobId: 'job_1' }));
    await (ran.conflict ? null : ran.value);
    // The cache writes the answer in the background.
    for (let i = 0; i < 400 && !(await store.get('alice', 'k')); i++) await new Promise((resolve) => setTimeout(resolve, 5));

    const other = createIdempotencyCache<{ kind: string; jobId: string }>({ store: createPostgresIdempotencyStore(await pg.open(target)) });
    let runs = 0;
    const replay = await other.claim('alice', 'k', 'fp', async () => ({ kind: 'done', jobId: `job_${++runs + 1}` }));
    expect(replay).toMatchObject({ conflict: false, replayed: true });
    expect(await (replay.conflict ? null : replay.value)).toEqual({ kind: 'done', jobId: 'job_1' });
    expect(runs).toBe(0);
  });

  it('keeps an answer with an endless TTL', async () => {
    const store = createPostgresIdempotencyStore(await pg.open());
    await store.put('a', 'k', { fingerprint: 'fp', response: 1, createdAt: 5, expiresAt: Infinity });
    expect(await store.get('a', 'k')).toEqual({ fingerprint: 'fp', response: 1, createdAt: 5, expiresAt: Number.MAX_SAFE_INTEGER });
    expect(await store.purge(Date.now())).toBe(0);
  });
});
