import { FINISHED_STATUSES, parseStoredJob, type Job, type JobStore } from '../jobs';
import type { WorkspaceDatabase } from './sqliteDatabase';
import { sqliteHandle } from './sqliteHandle';
import { checkDatabaseFile } from './sqliteFileGuard';
import { laterRecords } from './laterRecords';

/** The JobStore on SQLite, plus what a restarting server needs. */
export interface SqliteJobStore extends JobStore {
  /** Jobs still `queued` or `running`: after a restart, these were cut short. */
  unfinished(): Promise<Job[]>;
  settleWaiting(job: Job): Promise<boolean>;
  waiting(): Promise<Job[]>;
}

/** The finished statuses as an SQL list. */
export const FINISHED_SQL = FINISHED_STATUSES.map((s) => `'${s}'`).join(', ');
const FINISHED = new Set<string>(FINISHED_STATUSES);
/** Rows a sweep deletes per transaction. */
const SWEEP_CHUNK = 200;
/** Every this many sweeps, every thread is counted (not only those that finished a job since the last one). */
const FULL_SWEEP_EVERY = 10;

/** True when no two of `jobs` share an id. */
function distinctIds(jobs: readonly Job[]): boolean {
  const ids = new Set<string>();
  for (const job of jobs) {
    if (ids.has(job.id)) return false;
    ids.add(job.id);
  }
  return true;
}

/**
 * Jobs kept in the workspace database (the `JobStore` of the runtime): a
 * restarted server still answers `GET /v1/jobs/{id}` for every job. The
 * records put while the event loop turns are written together, in one
 * transaction (one commit for many requests); each `put` resolves once its
 * record is committed, and a read sees every record put before it. A read's
 * one record taken by `putLater` is committed with those of the next 20 ms.
 * @example
 * const jobs = createSqliteJobStore(openWorkspaceDatabase('data/workspace.db'));
 */
export function createSqliteJobStore(database: WorkspaceDatabase): SqliteJobStore {
  const db = sqliteHandle(database);
  const upsert = db.prepare(
    `INSERT INTO jobs (id, thread_id, status, created_at, body) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (id) DO UPDATE SET status = excluded.status, body = excluded.body`,
  );
  const byId = db.prepare('SELECT body FROM jobs WHERE id = ?').pluck();
  const recent = db.prepare('SELECT body FROM jobs ORDER BY created_at DESC, rowid DESC LIMIT ?').pluck();
  const recentOfThread = db.prepare('SELECT body FROM jobs WHERE thread_id = ? ORDER BY created_at DESC, rowid DESC LIMIT ?').pluck();
  const open = db.prepare("SELECT body FROM jobs WHERE status IN ('queued', 'running') ORDER BY created_at").pluck();
  const waiting = db.prepare("SELECT body FROM jobs WHERE status = 'waiting' ORDER BY created_at").pluck();
  const settle = db.prepare("UPDATE jobs SET status = @status, body = @body WHERE id = @id AND status = 'waiting'");
  const parse = (rows: unknown[]) => (rows as string[]).map(parseStoredJob);
  // The sweep finds what goes first (by age on the time index, by count per thread on the thread index), then deletes it in small transactions.
  const tooOld = db.prepare(`SELECT rowid FROM jobs WHERE created_at < ? AND status IN (${FINISHED_SQL})`).pluck();
  // In the thread index's own order (no sort): jobs of one millisecond go oldest first there, so one of them may outlive another at the cut.
  const beyondCountOf = db.prepare(`SELECT rowid FROM jobs WHERE thread_id = ? AND status IN (${FINISHED_SQL}) ORDER BY created_at DESC LIMIT -1 OFFSET ?`).pluck();
  const crowded = db.prepare(`SELECT thread_id FROM jobs WHERE status IN (${FINISHED_SQL}) GROUP BY thread_id HAVING count(*) > ?`).pluck();
  const deleteRow = db.prepare('DELETE FROM jobs WHERE rowid = ?');
  const deleteRows = db.transaction((rowids: unknown[]) => rowids.reduce<number>((n, rowid) => n + deleteRow.run(rowid).changes, 0));
  // Threads that finished a job since the last sweep: only these can have gone past the count. Every so often (and first) all of them.
  let touched: Set<string> | 'all' = 'all';
  let sweeps = 0;

  const writeAll = db.transaction((jobs: Job[]) => {
    // A job put more than once in the turn (queued, running, done) is written once, as it was put last, in the order of the first puts.
    // Most turns put each job once (a read answered inline writes one record): then they are written as they are.
    const last = jobs.length > 1 && !distinctIds(jobs) ? new Map(jobs.map((job, i) => [job.id, i])) : null;
    for (let i = 0; i < jobs.length; i++) {
      let job = jobs[i]!;
      if (last) {
        const at = last.get(job.id);
        if (at === undefined) continue; // written already
        last.delete(job.id);
        job = jobs[at]!;
      }
      upsert.run(job.id, job.threadKey, job.status, job.createdAt, JSON.stringify(job));
    }
  });
  // The records waiting for this turn's commit, and the promise their puts wait on.
  let pending: Job[] = [];
  let batch: { promise: Promise<void>; settle: (error?: unknown) => void } | null = null;
  // Commits the records put this turn now (a read must see every record put before it).
  const commitPending = () => {
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
    setImmediate(commitPending);
    return { promise, settle };
  };

  const put = (job: Job) => {
    if (touched !== 'all' && FINISHED.has(job.status)) touched.add(job.threadKey);
    pending.push(job);
    batch ??= newBatch();
    return batch.promise;
  };
  // A read's one record, written with the records of the next 20 ms in one transaction (see laterRecords).
  const later = laterRecords(put);

  return {
    put,
    putLater: later.take,
    flush: later.flush,
    async get(id) {
      const waits = later.get(id);
      if (waits) return waits;
      commitPending();
      const body = byId.get(id) as string | undefined;
      return body === undefined ? undefined : parseStoredJob(body);
    },
    async list({ threadKey, limit = 100 } = {}) {
      await later.flush();
      commitPending();
      const n = Math.max(0, Math.min(Math.floor(limit), 10_000));
      return parse(threadKey === undefined ? recent.all(n) : recentOfThread.all(threadKey, n));
    },
    async unfinished() {
      commitPending();
      return parse(open.all());
    },
    async sweep(retention, now) {
      commitPending();
      checkDatabaseFile(db);
      const keep = Math.max(0, Math.floor(retention.perPrincipal));
      sweeps++;
      const threads = touched === 'all' || sweeps % FULL_SWEEP_EVERY === 0 ? (crowded.all(keep) as string[]) : [...touched];
      touched = new Set();
      const doomed = new Set<unknown>(tooOld.all(Math.floor(now - retention.maxAgeMs)));
      for (const thread of threads) for (const rowid of beyondCountOf.all(thread, keep)) doomed.add(rowid);
      // A few hundred rows per transaction, the event loop turning between them: no request waits for the whole sweep.
      const rowids = [...doomed];
      let deleted = 0;
      for (let i = 0; i < rowids.length; i += SWEEP_CHUNK) {
        if (i > 0) await new Promise((resolve) => setImmediate(resolve));
        checkDatabaseFile(db);
        deleted += deleteRows.immediate(rowids.slice(i, i + SWEEP_CHUNK));
      }
      return deleted;
    },
    async settleWaiting(job) {
      commitPending();
      checkDatabaseFile(db);
      return settle.run({ id: job.id, status: job.status, body: JSON.stringify(job) }).changes === 1;
    },
    async waiting() {
      commitPending();
      return parse(waiting.all());
    },
  };
}
