import { expect, it, vi } from 'vitest';
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

  it('writes a finished record over a row it did not write itself (another instance\'s, or its own finished one), in one tick with new jobs', async () => {
    const target = await pg.createDatabase();
    const first = createPostgresJobStore(await pg.open(target));
    await first.put(job('theirs', { status: 'running' }));
    await first.put(job('again', { status: 'done', updatedAt: 1 }));
    const other = createPostgresJobStore(await pg.open(target));
    // One tick: a new job, one the first instance left running, one finished twice, and a queued job and its end.
    await Promise.all([
      other.put(job('new', { status: 'done' })),
      other.put(job('theirs', { status: 'failed', updatedAt: 5 })),
      other.put(job('again', { status: 'done', updatedAt: 6 })),
      other.put(job('both', { status: 'queued' })),
      other.put(job('both', { status: 'done', updatedAt: 7 })),
    ]);
    expect(await first.get('new')).toMatchObject({ status: 'done' });
    expect(await first.get('theirs')).toMatchObject({ status: 'failed', updatedAt: 5 });
    expect(await first.get('again')).toMatchObject({ status: 'done', updatedAt: 6 });
    expect(await first.get('both')).toMatchObject({ status: 'done', updatedAt: 7 });
    expect((await first.list()).map((j) => j.id).sort()).toEqual(['again', 'both', 'new', 'theirs']);
  });

  it('sweeps past the count only the threads it finished jobs on since the last sweep, and every thread every 10 minutes', async () => {
    const target = await pg.createDatabase();
    const jobs = createPostgresJobStore(await pg.open(target));
    const other = createPostgresJobStore(await pg.open(target));
    const retention = { maxAgeMs: 1e9, perPrincipal: 2 };
    const now = 1_000_000;
    expect(await jobs.sweep!(retention, now)).toBe(0); // the first sweep: every thread
    // rest:a, finished here: five finished and one running; rest:b, finished on another instance: four.
    for (let i = 0; i < 5; i++) await jobs.put(job(`a${i}`, { threadKey: 'rest:a', status: 'done', createdAt: now - 100 + i }));
    await jobs.put(job('a-running', { threadKey: 'rest:a', status: 'running', createdAt: now - 500 }));
    for (let i = 0; i < 4; i++) await other.put(job(`b${i}`, { threadKey: 'rest:b', status: 'done', createdAt: now - 100 + i }));
    expect(await jobs.sweep!(retention, now)).toBe(3);
    expect((await jobs.list({ threadKey: 'rest:a' })).map((j) => j.id)).toEqual(['a4', 'a3', 'a-running']);
    expect(await jobs.list({ threadKey: 'rest:b' })).toHaveLength(4); // another instance's thread: its own sweeps count it
    for (let minute = 1; minute < 10; minute++) expect(await jobs.sweep!(retention, now + minute * 60_000)).toBe(0);
    expect(await jobs.sweep!(retention, now + 600_000)).toBe(2); // ten minutes after the last whole pass: every thread
    expect((await jobs.list({ threadKey: 'rest:b' })).map((j) => j.id)).toEqual(['b3', 'b2']);
  });

  it('counts a thread again only down to where its last sweep stopped: a job that began before and ends after waits for the next whole pass', async () => {
    const jobs = createPostgresJobStore(await pg.open(await pg.createDatabase()));
    const retention = { maxAgeMs: 1e9, perPrincipal: 2 };
    const now = 1_000_000;
    expect(await jobs.sweep!(retention, now)).toBe(0); // the first: every thread
    await jobs.put(job('long', { threadKey: 'rest:a', status: 'running', createdAt: now - 1_000 }));
    for (let i = 0; i < 4; i++) await jobs.put(job(`a${i}`, { threadKey: 'rest:a', status: 'done', createdAt: now - 100 + i }));
    expect(await jobs.sweep!(retention, now)).toBe(2); // a0 and a1: the floor is now a1's time
    for (let i = 4; i < 7; i++) await jobs.put(job(`a${i}`, { threadKey: 'rest:a', status: 'done', createdAt: now - 100 + i }));
    await jobs.put(job('long', { threadKey: 'rest:a', status: 'done', createdAt: now - 1_000, updatedAt: 2 }));
    // a2, a3 and a4 are past the newest two; the long job, older than the floor, is not looked at.
    expect(await jobs.sweep!(retention, now)).toBe(3);
    expect((await jobs.list({ threadKey: 'rest:a' })).map((j) => j.id)).toEqual(['a6', 'a5', 'long']);
    expect(await jobs.sweep!(retention, now + 60_000)).toBe(0);
    expect(await jobs.sweep!(retention, now + 600_000)).toBe(1); // the whole pass: the long job too
    expect((await jobs.list({ threadKey: 'rest:a' })).map((j) => j.id)).toEqual(['a6', 'a5']);
  });

  it('drops finished jobs past their age on the whole pass, as often as the age when it is shorter than 10 minutes', async () => {
    const jobs = createPostgresJobStore(await pg.open(await pg.createDatabase()));
    const retention = { maxAgeMs: 60_000, perPrincipal: 100 };
    const now = 1_000_000;
    expect(await jobs.sweep!(retention, now)).toBe(0);
    await jobs.put(job('old', { threadKey: 'rest:a', status: 'done', createdAt: now - 30_000 }));
    await jobs.put(job('still', { threadKey: 'rest:a', status: 'running', createdAt: now - 30_000 }));
    await jobs.put(job('new', { threadKey: 'rest:a', status: 'done', createdAt: now + 50_000 }));
    expect(await jobs.sweep!(retention, now + 40_000)).toBe(0); // within the minute: the count only, and it holds
    expect(await jobs.sweep!(retention, now + 60_000)).toBe(1); // a minute on: the whole pass, and 'old' is 90 s old
    expect((await jobs.list({ threadKey: 'rest:a' })).map((j) => j.id)).toEqual(['new', 'still']);
  });

  it("writes a record taken by putLater with the next batch: this store knows it at once, another once it is written, and a flush writes what waits", async () => {
    const target = await pg.createDatabase();
    const jobs = createPostgresJobStore(await pg.open(target));
    const other = createPostgresJobStore(await pg.open(target));
    expect(jobs.putLater!(job('r1', { threadKey: 'rest:a', status: 'done' }))).toBe(true);
    expect(jobs.putLater!(job('r2', { threadKey: 'rest:a', status: 'done' }))).toBe(true);
    expect(await jobs.get('r1')).toMatchObject({ id: 'r1', status: 'done' });
    expect(await other.get('r1')).toBeUndefined(); // not written yet
    // The list is the table's: what waits is written first.
    expect((await jobs.list({ threadKey: 'rest:a' })).map((j) => j.id).sort()).toEqual(['r1', 'r2']);
    expect(await other.get('r2')).toMatchObject({ id: 'r2' });
    // Unasked: the batch's 20 ms, then the database's own time (long under load, so polled).
    jobs.putLater!(job('r3', { threadKey: 'rest:a', status: 'done' }));
    await vi.waitFor(async () => expect(await other.get('r3')).toMatchObject({ id: 'r3' }), { timeout: 10_000, interval: 20 });
    jobs.putLater!(job('r4', { threadKey: 'rest:a', status: 'done' }));
    await jobs.flush!();
    expect(await other.get('r4')).toMatchObject({ id: 'r4' });
  });

  it('keeps the records it could not write and writes them once the database answers again; meanwhile it takes no more', async () => {
    const db = await pg.open(await pg.createDatabase());
    let away = false;
    const flaky = { ...db, query: ((text: string, values?: unknown[]) => (away ? Promise.reject(new Error('connect ECONNREFUSED')) : db.query(text, values))) as typeof db.query };
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const jobs = createPostgresJobStore(flaky);
    away = true;
    expect(jobs.putLater!(job('kept', { threadKey: 'rest:a', status: 'done' }))).toBe(true);
    await expect(jobs.flush!()).rejects.toThrow('ECONNREFUSED');
    expect(logged).toHaveBeenCalledWith('[chatsurface] 1 job records could not be written; they are kept and tried again:', expect.any(Error));
    // Until it is written, the next read's record is put (and the door says the database is away).
    expect(jobs.putLater!(job('next', { threadKey: 'rest:a', status: 'done' }))).toBe(false);
    expect(await jobs.get('kept')).toMatchObject({ id: 'kept' });
    away = false;
    // The first try again comes 250 ms on, unasked; the database's own time under load is polled.
    await vi.waitFor(async () => expect((await db.query<{ id: string }>('SELECT id FROM jobs')).rows.map((r) => r.id)).toEqual(['kept']), { timeout: 10_000, interval: 25 });
    expect(jobs.putLater!(job('next', { threadKey: 'rest:a', status: 'done' }))).toBe(true);
    logged.mockRestore();
  });
});
