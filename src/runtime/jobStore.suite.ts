import { describe, expect, it } from 'vitest';
import type { Job, JobStore } from './jobs';

/** A store that also finds the jobs a restart cut short (SQLite, PostgreSQL). */
export interface RestartableJobStore extends JobStore {
  unfinished(): Promise<Job[]>;
}

export interface JobStoreSuiteOptions {
  /** The store has `unfinished()` (a server's store): its case runs. @default false */
  unfinished?: boolean;
}

/**
 * What every `JobStore` must do; run from each store's test file with a
 * factory giving a fresh, empty store.
 * @example
 * jobStoreSuite('SQLite', () => createSqliteJobStore(openWorkspaceDatabase(':memory:')), { unfinished: true });
 */
export function jobStoreSuite(name: string, make: () => JobStore | Promise<JobStore>, options: JobStoreSuiteOptions = {}): void {
  const job = (id: string, patch: Partial<Job> = {}): Job => ({ id, capability: 'report.build', threadKey: 't1', status: 'queued', createdAt: 1, updatedAt: 1, ...patch });

  describe(`JobStore: ${name}`, () => {
    it('puts, updates and gets a job with its progress, result, error and violations', async () => {
      const jobs = await make();
      expect(await jobs.get('a')).toBeUndefined();
      await jobs.put(job('a'));
      expect(await jobs.get('a')).toEqual(job('a'));
      await jobs.put(job('a', { status: 'running', progress: { progress: 1, total: 3, message: 'One' }, updatedAt: 2 }));
      expect(await jobs.get('a')).toEqual(job('a', { status: 'running', progress: { progress: 1, total: 3, message: 'One' }, updatedAt: 2 }));
      const done = job('a', {
        status: 'done',
        progress: { progress: 3, total: 3 },
        result: { content: [{ type: 'text', text: 'ok \u2028 ü' }], structuredContent: { rows: 3 } },
        violations: [{ postcondition: 'file exists', expected: 'out.csv', actual: 'nothing', message: 'out.csv is missing' }],
        updatedAt: 3,
      });
      await jobs.put(done);
      expect(await jobs.get('a')).toEqual(done);
      await jobs.put(job('b', { status: 'failed', error: { code: 'handler_error', message: 'Boom.' } }));
      expect((await jobs.get('b'))?.error).toEqual({ code: 'handler_error', message: 'Boom.' });
      expect(await jobs.get('missing')).toBeUndefined();
    });

    it('lists newest first, per thread, within a limit, an updated job keeping its place', async () => {
      const jobs = await make();
      await jobs.put(job('old', { createdAt: 1 }));
      await jobs.put(job('new', { createdAt: 3 }));
      await jobs.put(job('mid', { createdAt: 2, threadKey: 't2' }));
      await jobs.put(job('old', { createdAt: 1, status: 'done', updatedAt: 9 }));
      expect((await jobs.list()).map((j) => j.id)).toEqual(['new', 'mid', 'old']);
      expect((await jobs.list({ threadKey: 't1' })).map((j) => j.id)).toEqual(['new', 'old']);
      expect((await jobs.list({ threadKey: 't3' })).map((j) => j.id)).toEqual([]);
      expect((await jobs.list({ limit: 1 })).map((j) => j.id)).toEqual(['new']);
      expect((await jobs.list({ threadKey: 't1', limit: 1 })).map((j) => j.id)).toEqual(['new']);
      expect((await jobs.list()).find((j) => j.id === 'old')).toMatchObject({ status: 'done', updatedAt: 9 });
    });

    it('settles a waiting job once however many deciders race, and lists what still waits (never as cut short)', async () => {
      const jobs = await make();
      if (!jobs.settleWaiting || !jobs.waiting) throw new Error(`${name}: a server's job store settles waiting jobs`);
      const held = { args: { table: 'staging' }, principal: { user: 'alice' } };
      await jobs.put(job('w1', { status: 'waiting', createdAt: 1, held, approval: { state: 'waiting', message: 'Waits.', expiresAt: 9 } }));
      await jobs.put(job('w2', { status: 'waiting', createdAt: 2 }));
      await jobs.put(job('q', { status: 'queued', createdAt: 3 }));
      expect((await jobs.waiting()).map((j) => j.id)).toEqual(['w1', 'w2']);
      expect((await jobs.waiting())[0]).toMatchObject({ held, approval: { state: 'waiting', expiresAt: 9 } });
      if (options.unfinished) expect((await (jobs as RestartableJobStore).unfinished()).map((j) => j.id)).toEqual(['q']);
      const tries = await Promise.all([1, 2, 3].map((n) => jobs.settleWaiting!(job('w1', { status: n === 1 ? 'queued' : 'cancelled', updatedAt: 10 + n }))));
      expect(tries.filter(Boolean)).toHaveLength(1);
      const settled = await jobs.get('w1');
      expect(settled!.updatedAt).toBe(10 + tries.indexOf(true) + 1);
      expect(await jobs.settleWaiting(job('q', { status: 'done' }))).toBe(false);
      expect(await jobs.settleWaiting(job('nope', { status: 'done' }))).toBe(false);
      expect(await jobs.get('q')).toMatchObject({ status: 'queued' });
      expect(await jobs.get('nope')).toBeUndefined();
      expect((await jobs.waiting()).map((j) => j.id)).toEqual(['w2']);
    });

    it('hands out copies: changing what came back changes nothing stored', async () => {
      const jobs = await make();
      await jobs.put(job('a', { progress: { progress: 1, total: 2 } }));
      const got = (await jobs.get('a'))!;
      got.status = 'failed';
      got.progress!.progress = 2;
      const listed = (await jobs.list())[0]!;
      listed.threadKey = 'elsewhere';
      expect(await jobs.get('a')).toEqual(job('a', { progress: { progress: 1, total: 2 } }));
    });

    it.skipIf(!options.unfinished)('finds the jobs still queued or running, oldest first', async () => {
      const jobs = (await make()) as RestartableJobStore;
      expect(typeof jobs.unfinished).toBe('function');
      await jobs.put(job('done', { status: 'done', createdAt: 1 }));
      await jobs.put(job('waiting', { status: 'queued', createdAt: 3 }));
      await jobs.put(job('cut', { status: 'running', createdAt: 2 }));
      await jobs.put(job('failed', { status: 'failed', createdAt: 4 }));
      await jobs.put(job('stopped', { status: 'cancelled', createdAt: 5 }));
      expect((await jobs.unfinished()).map((j) => j.id)).toEqual(['cut', 'waiting']);
      await jobs.put(job('cut', { status: 'done', createdAt: 2 }));
      expect((await jobs.unfinished()).map((j) => j.id)).toEqual(['waiting']);
    });

    it.skipIf(!options.unfinished)('sweeps finished jobs past their age and past the newest N per principal, never a running one', async () => {
      const jobs = await make();
      expect(typeof jobs.sweep).toBe('function');
      const now = 1_000_000;
      // rest:a: six finished (one of them old), one running since long ago; rest:b: two finished.
      for (let i = 0; i < 5; i++) await jobs.put(job(`a${i}`, { threadKey: 'rest:a', status: i % 2 ? 'failed' : 'done', createdAt: now - 100 + i }));
      await jobs.put(job('a-old', { threadKey: 'rest:a', status: 'cancelled', createdAt: now - 5_000 }));
      await jobs.put(job('a-running', { threadKey: 'rest:a', status: 'running', createdAt: now - 9_000 }));
      await jobs.put(job('b0', { threadKey: 'rest:b', status: 'done', createdAt: now - 10 }));
      await jobs.put(job('b-old', { threadKey: 'rest:b', status: 'done', createdAt: now - 2_000 }));
      expect(await jobs.sweep!({ maxAgeMs: 1_000, perPrincipal: 3 }, now)).toBe(4);
      expect((await jobs.list({ threadKey: 'rest:a' })).map((j) => j.id)).toEqual(['a4', 'a3', 'a2', 'a-running']);
      expect((await jobs.list({ threadKey: 'rest:b' })).map((j) => j.id)).toEqual(['b0']);
      // Nothing more to sweep: the bound holds.
      expect(await jobs.sweep!({ maxAgeMs: 1_000, perPrincipal: 3 }, now)).toBe(0);
    });
  });
}
