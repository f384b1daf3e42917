import { FINISHED_STATUSES, parseStoredJob, type Job, type JobStore } from '../jobs';
import type { PostgresDatabase } from './postgres';
import { aliveSql } from './postgresCoordination';
import { batchedJobWrites } from './postgresJobWrites';
import { laterRecords } from './laterRecords';

/** The JobStore on PostgreSQL, plus what a restarting server needs (as on SQLite). */
export interface PostgresJobStore extends JobStore {
  /**
   * Jobs still `queued` or `running`, oldest first, whose instance is not
   * alive (with `instance`; else all of them): these were cut short.
   */
  unfinished(): Promise<Job[]>;
  settleWaiting(job: Job): Promise<boolean>;
  waiting(): Promise<Job[]>;
}

export interface PostgresJobStoreOptions {
  /** The instance that runs the jobs this store writes, among several on the database (see `createPostgresCoordination`). */
  instance?: { id: string; leaseMs: number };
}

const FINISHED = new Set<string>(FINISHED_STATUSES);
/**
 * A whole pass (every thread counted, every finished row's age looked at) at least this often, or as often as the
 * retention's age if it is shorter; the sweeps between count only the threads this store finished a job on.
 */
const FULL_SWEEP_MS = 600_000;
/** Threads remembered between sweeps at most: past it, the next sweep counts every thread. */
const TOUCHED_AT_MOST = 10_000;
/** Threads whose sweep floor is remembered at most (the oldest forgotten first: its next sweep walks the whole thread). */
const FLOORS_AT_MOST = 10_000;

/**
 * Jobs kept in PostgreSQL (the `JobStore` of the runtime): every instance on
 * the database, and a restarted one, answers `GET /v1/jobs/{id}` for every job.
 * The records put while the event loop turns are written in one statement
 * (a job's first record, when it is already finished, a plain INSERT); each
 * `put` resolves once its record is committed; a read's one record taken by
 * `putLater` goes with a batch within 20 ms (`laterRecords`). A sweep counts only the
 * threads this store finished jobs on since the last one, each down to where
 * its last sweep stopped; every 10 minutes (or the retention's age, if
 * shorter) a whole pass counts every thread and drops what is past its age.
 * @example
 * const jobs = createPostgresJobStore(await openPostgres(process.env.DATABASE_URL!));
 */
export function createPostgresJobStore(db: PostgresDatabase, options: PostgresJobStoreOptions = {}): PostgresJobStore {
  const parse = (rows: { body: string }[]) => rows.map((row) => parseStoredJob(row.body));
  const { instance } = options;
  // Threads that finished a job since the last sweep: only these can have gone past the count. Every so often (and first) all of them.
  let touched: Set<string> | 'all' = 'all';
  let lastFull = -Infinity;
  // Per thread, the newest created_at a sweep past the count deleted: every finished row older than it is gone, so
  // the next sweep of that thread walks its index down to there and no further. Without it the walk would go on through
  // every row deleted since the last VACUUM (dead index entries: tens of thousands a minute on a busy principal),
  // each sweep slower than the one before. A row older than the floor that finishes later (a long job) waits for the
  // next whole pass, which counts every thread whole.
  const floors = new Map<string, number>();
  const remember = (rows: { thread_id: string; floor: string }[]) => {
    for (const { thread_id, floor } of rows) {
      floors.delete(thread_id);
      floors.set(thread_id, Number(floor));
      if (floors.size > FLOORS_AT_MOST) floors.delete(floors.keys().next().value!);
    }
  };
  const write = batchedJobWrites(db, instance?.id ?? null);
  const enqueue = (job: Job) => {
    if (touched !== 'all' && FINISHED.has(job.status)) {
      touched.add(job.threadKey);
      if (touched.size > TOUCHED_AT_MOST) touched = 'all';
    }
    return write(job);
  };

  const later = laterRecords(enqueue);
  return {
    put: enqueue,
    putLater: later.take,
    flush: later.flush,
    async get(id) {
      const waiting = later.get(id);
      if (waiting) return waiting;
      const { rows } = await db.query<{ body: string }>('SELECT body FROM jobs WHERE id = $1', [id]);
      return rows[0] && parseStoredJob(rows[0].body);
    },
    async list({ threadKey, limit = 100 } = {}) {
      // What waits for its batch is written first: the list is the table's.
      await later.flush();
      const n = Number.isNaN(limit) ? 0 : Math.max(0, Math.min(Math.floor(limit), 10_000));
      const { rows } =
        threadKey === undefined
          ? await db.query<{ body: string }>('SELECT body FROM jobs ORDER BY created_at DESC, ord DESC LIMIT $1', [n])
          : await db.query<{ body: string }>('SELECT body FROM jobs WHERE thread_id = $1 ORDER BY created_at DESC, ord DESC LIMIT $2', [threadKey, n]);
      return parse(rows);
    },
    async unfinished() {
      const { rows } = instance
        ? await db.query<{ body: string }>(
            `SELECT body FROM jobs WHERE status IN ('queued', 'running') AND (owner IS NULL OR NOT ${aliveSql('jobs.owner', 1)}) ORDER BY created_at, ord`,
            [instance.leaseMs],
          )
        : await db.query<{ body: string }>("SELECT body FROM jobs WHERE status IN ('queued', 'running') ORDER BY created_at, ord");
      return parse(rows);
    },
    async sweep(retention, now) {
      // Statements without a transaction: each deletes only finished rows, and a row another instance deletes first is simply gone.
      const keep = Math.max(0, Math.floor(retention.perPrincipal));
      const full = touched === 'all' || now - lastFull >= Math.min(FULL_SWEEP_MS, retention.maxAgeMs);
      const threads = touched === 'all' || full ? [] : [...touched];
      touched = new Set();
      if (full) lastFull = now;
      // What went, per thread: its count, and the floor of that thread's next sweep.
      const gone = (deleted: string) => `WITH gone AS (${deleted} RETURNING thread_id, created_at) SELECT thread_id, max(created_at)::text AS floor, count(*)::int AS n FROM gone GROUP BY thread_id`;
      const { rows } = full
        ? // The whole pass: one scan of the table, the rows past the count of their thread or past their age.
          await db.query<{ thread_id: string; floor: string; n: number }>(
            gone(`DELETE FROM jobs WHERE ctid = ANY(ARRAY(SELECT ctid FROM (SELECT ctid, created_at, row_number() OVER (PARTITION BY thread_id ORDER BY created_at DESC, ord DESC) AS n
               FROM jobs WHERE status = ANY($1)) ranked WHERE n > $2 OR created_at < $3))`),
            [FINISHED_STATUSES, keep, Math.floor(now - retention.maxAgeMs)],
          )
        : threads.length
          ? await db.query<{ thread_id: string; floor: string; n: number }>(
              // The rows found on the thread index, from the newest down to the thread's floor, deleted where they lie
              // (by ctid, in the same statement): no join with the whole table, no walk through what is already gone.
              gone(`DELETE FROM jobs WHERE ctid = ANY(ARRAY(SELECT past.ctid FROM unnest($3::text[], $4::bigint[]) AS t(thread_id, floor)
                 CROSS JOIN LATERAL (SELECT ctid FROM jobs WHERE jobs.thread_id = t.thread_id AND jobs.created_at >= t.floor AND status = ANY($1) ORDER BY created_at DESC, ord DESC OFFSET $2) past))`),
              [FINISHED_STATUSES, keep, threads, threads.map((t) => floors.get(t) ?? Number.MIN_SAFE_INTEGER)],
            )
          : { rows: [] };
      // Every finished row older than what went is gone too (past the count, or past the age): the floors hold.
      remember(rows);
      return rows.reduce((sum, row) => sum + row.n, 0);
    },
    async settleWaiting(job) {
      // The instance that acts on the approval runs the job: it becomes the job's owner.
      const { rowCount } = await db.query("UPDATE jobs SET status = $2, body = $3, owner = $4 WHERE id = $1 AND status = 'waiting'", [job.id, job.status, JSON.stringify(job), instance?.id ?? null]);
      return rowCount === 1;
    },
    async waiting() {
      const { rows } = await db.query<{ body: string }>("SELECT body FROM jobs WHERE status = 'waiting' ORDER BY created_at, ord");
      return parse(rows);
    },
  };
}
