import { expect, it } from 'vitest';
import { describePostgres, testPostgres } from '../../test/postgres';
import type { Job } from '../jobs';
import { jobStoreSuite } from '../jobStore.suite';
import { createPostgresJobStore } from './postgresJobStore';

const pg = await testPostgres();
const job = (id: string, patch: Partial<Job> = {}): Job => ({ id, capability: 'report.build', threadKey: 't1', status: 'queued', createdAt: 1, updatedAt: 1, ...patch });

describePostgres(pg, () => {
  jobStoreSuite('PostgreSQL', async () => createPostgresJobStore(await pg.open()), { unfinished: true });
  // With an instance: its jobs are unfinished for the others only once it is dead (here it never had a heartbeat).
  jobStoreSuite('PostgreSQL, one of several instances', async () => createPostgresJobStore(await pg.open(), { instance: { id: 'inst_a', leaseMs: 1_000 } }), { unfinished: true });

  it('shows every job to another instance on the database, and the ones left unfinished to a restarted one', async () => {
    const target = await pg.createDatabase();
    const first = createPostgresJobStore(await pg.open(target));
    await first.put(job('done', { status: 'done' }));
    await first.put(job('cut', { status: 'running' }));
    await first.put(job('waiting', { status: 'queued', createdAt: 2 }));
    const other = createPostgresJobStore(await pg.open(target));
    expect((await other.get('done'))?.status).toBe('done');
    expect((await other.list()).map((j) => j.id)).toEqual(['waiting', 'cut', 'done']);
    expect((await other.unfinished()).map((j) => j.id)).toEqual(['cut', 'waiting']);
  });

  it('reads a row an older version wrote (`ready`, `threadId`) in today\'s words', async () => {
    const db = await pg.open(await pg.createDatabase());
    const old = { id: 'old', capability: 'report.build', threadId: 'default/alice/t1', status: 'ready', createdAt: 1, updatedAt: 2, result: { content: [] } };
    await db.query('INSERT INTO jobs (id, thread_id, status, created_at, body) VALUES ($1, $2, $3, $4, $5)', ['old', old.threadId, 'ready', 1, JSON.stringify(old)]);
    const jobs = createPostgresJobStore(db);
    const expected = { id: 'old', capability: 'report.build', threadKey: 'default/alice/t1', status: 'done', createdAt: 1, updatedAt: 2, result: { content: [] } };
    expect(await jobs.get('old')).toEqual(expected);
    expect(await jobs.list({ threadKey: 'default/alice/t1' })).toEqual([expected]);
    expect(await jobs.unfinished()).toEqual([]);
  });
});
