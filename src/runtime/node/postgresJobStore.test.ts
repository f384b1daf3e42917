import { expect, it } from 'vitest';
import { describePostgres, testPostgres } from '../../test/postgres';
import type { Job } from '../jobs';
import { jobStoreSuite } from '../jobStore.suite';
import { createPostgresJobStore } from './postgresJobStore';

const pg = await testPostgres();
const job = (id: string, patch: Partial<Job> = {}): Job => ({ id, capability: 'report.build', threadId: 't1', status: 'queued', createdAt: 1, updatedAt: 1, ...patch });

describePostgres(pg, () => {
  jobStoreSuite('PostgreSQL', async () => createPostgresJobStore(await pg.open()), { unfinished: true });
  // With an instance: its jobs are unfinished for the others only once it is dead (here it never had a heartbeat).
  jobStoreSuite('PostgreSQL, one of several instances', async () => createPostgresJobStore(await pg.open(), { instance: { id: 'inst_a', leaseMs: 1_000 } }), { unfinished: true });

  it('shows every job to another instance on the database, and the ones left unfinished to a restarted one', async () => {
    const target = await pg.createDatabase();
    const first = createPostgresJobStore(await pg.open(target));
    await first.put(job('done', { status: 'ready' }));
    await first.put(job('cut', { status: 'running' }));
    await first.put(job('waiting', { status: 'queued', createdAt: 2 }));
    const other = createPostgresJobStore(await pg.open(target));
    expect((await other.get('done'))?.status).toBe('ready');
    expect((await other.list()).map((j) => j.id)).toEqual(['waiting', 'cut', 'done']);
    expect((await other.unfinished()).map((j) => j.id)).toEqual(['cut', 'waiting']);
  });
});
