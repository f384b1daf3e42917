import { FINISHED_STATUSES, parseStoredJob, type Job, type JobStore, type JobRetention } from '../jobs';
import type { WorkspaceDatabase } from './sqliteDatabase';
import { sqliteHandle } from './sqliteHandle';
import { checkDatabaseFile } from './sqliteFileGuard';

/** The JobStore on SQLite, plus what a restarting server needs. */
export interface SqliteJobStore extends JobStore {
  /** Jobs still `queued` or `running`: after a restart, these were cut short. */
  unfinished(): Promise<Job[]>;
  settleWaiting(job: Job): Promise<boolean>;
  waiting(): Promise<Job[]>;
}

/** The finished statuses as an SQL list. */
export const FINISHED_SQL = FINISHED_STATUSES.map((s) => `'${s}'`).join(', ');

/**
 * Jobs kept in the workspace database (the `JobStore` of the runtime): a
 * restarted server still answers `GET /v1/jobs/{id}` for every job. The
 * records put while the event loop turns are written together, in one
 * transaction (one commit for many requests); each `put` resolves once its
 * record is committed, and a read sees every record put before it.
 * @example
 * const jobs = createSqliteJobStore(openWorkspaceDatabase('data/workspace.db'));
 */
export function createSqliteJobStore(database: WorkspaceDatabase): SqliteJobStore {
  const db = sqliteHandle(database);
  const upsert = db.prepare(
    `INSERT INTO jobs (id, thread_id, status, created_at, body) VALUES (@id, @threadId, @status, @createdAt, @body)
     ON CONFLICT (id) DO UPDATE SET status = excluded.status, body = excluded.body`,
  );
  const byId = db.prepare('SELECT body FROM jobs WHERE id = ?').pluck();
  const recent = db.prepare('SELECT body FROM jobs ORDER BY created_at DESC, rowid DESC LIMIT ?').pluck();
  const recentOfThread = db.prepare('SELECT body FROM jobs WHERE thread_id = ? ORDER BY created_at DESC, rowid DESC LIMIT ?').pluck();
  const open = db.prepare("SELECT body FROM jobs WHERE status IN ('queued', 'running') ORDER BY created_at").pluck();
  const waiting = db.prepare("SELECT body FROM jobs WHERE status = 'waiting' ORDER BY created_at").pluck();
  const settle = db.prepare("UPDATE jobs SET status = @status, body = @body WHERE id = @id AND status = 'waiting'");
  const parse = (rows: unknown[]) => (rows as string[]).map(parseStoredJob);
  const tooOld = db.prepare(`DELETE FROM jobs WHERE status IN (${FINISHED_SQL}) AND created_at < ?`);
  const beyondCount = db.prepare(
    `DELETE FROM jobs WHERE rowid IN (SELECT rowid FROM (SELECT rowid, row_number() OVER (PARTITION BY thread_id ORDER BY created_at DESC, rowid DESC) AS n
       FROM jobs WHERE status IN (${FINISHED_SQL})) WHERE n > ?)`,
  );
  const sweep = db.transaction((retention: JobRetention, now: number) => tooOld.run(Math.floor(now - retention.maxAgeMs)).changes + beyondCount.run(Math.max(0, Math.floor(retention.perPrincipal))).changes);

  const writeAll = db.transaction((jobs: Job[]) => {
    for (const job of jobs) upsert.run({ id: job.id, threadId: job.threadKey, status: job.status, createdAt: job.createdAt, body: JSON.stringify(job) });
  });
  // The records waiting for this turn's commit, and the promise their puts wait on.
  let pending: Job[] = [];
  let batch: { promise: Promise<void>; settle: (error?: unknown) => void } | null = null;
  const flush = () => {
    const waiting = batch;
    const jobs = pending;
    batch = null;
    pending = [];
    if (!waiting) return;
    try {
      checkDatabaseFile(db);
      writeAll.immediate(jobs);
      waiting.settle();
    } catch (error) {
      waiting.settle(error);
    }
  };
  const newBatch = () => {
    let settle!: (error?: unknown) => void;
    const promise = new Promise<void>((resolve, reject) => (settle = (error) => (error === undefined ? resolve() : reject(error))));
    setImmediate(flush);
    return { promise, settle };
  };

  return {
    put(job) {
      pending.push(job);
      batch ??= newBatch();
      return batch.promise;
    },
    async get(id) {
      flush();
      const body = byId.get(id) as string | undefined;
      return body === undefined ? undefined : parseStoredJob(body);
    },
    async list({ threadKey, limit = 100 } = {}) {
      flush();
      const n = Math.max(0, Math.min(Math.floor(limit), 10_000));
      return parse(threadKey === undefined ? recent.all(n) : recentOfThread.all(threadKey, n));
    },
    async unfinished() {
      flush();
      return parse(open.all());
    },
    async sweep(retention, now) {
      flush();
      checkDatabaseFile(db);
      return sweep.immediate(retention, now);
    },
    async settleWaiting(job) {
      flush();
      checkDatabaseFile(db);
      return settle.run({ id: job.id, status: job.status, body: JSON.stringify(job) }).changes === 1;
    },
    async waiting() {
      flush();
      return parse(waiting.all());
    },
  };
}
