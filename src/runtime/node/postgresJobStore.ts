import { FINISHED_STATUSES, parseStoredJob, type Job, type JobStore } from '../jobs';
import type { PostgresDatabase } from './postgres';
import { aliveSql } from './postgresCoordination';

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

/**
 * Jobs kept in PostgreSQL (the `JobStore` of the runtime): every instance on
 * the database, and a restarted one, answers `GET /v1/jobs/{id}` for every job.
 * The records put while the event loop turns are written in one statement;
 * each `put` resolves once its record is committed.
 * @example
 * const jobs = createPostgresJobStore(await openPostgres(process.env.DATABASE_URL!));
 */
export function createPostgresJobStore(db: PostgresDatabase, options: PostgresJobStoreOptions = {}): PostgresJobStore {
  const parse = (rows: { body: string }[]) => rows.map((row) => parseStoredJob(row.body));
  const { instance } = options;
  // The records put while the event loop turns go in one statement (one round trip and one commit for
  // many requests); one statement at a time, so a job's records land in the order they were put.
  let pending: { job: Job; settle: (error?: unknown) => void }[] = [];
  let writing = false;
  const writeAll = async () => {
    while (pending.length) {
      const batch = pending;
      pending = [];
      // A job put twice in one batch: its last record (one statement may not update a row twice).
      const last = new Map<string, Job>();
      for (const { job } of batch) {
        last.delete(job.id);
        last.set(job.id, job);
      }
      const jobs = [...last.values()];
      try {
        // The instance that first wrote a job runs it (and is the one whose death ends it).
        await db.query(
          `INSERT INTO jobs (id, thread_id, status, created_at, body, owner)
             SELECT id, thread_id, status, created_at, body, $6::text FROM unnest($1::text[], $2::text[], $3::text[], $4::bigint[], $5::text[]) AS u(id, thread_id, status, created_at, body)
           ON CONFLICT (id) DO UPDATE SET status = excluded.status, body = excluded.body`,
          [jobs.map((j) => j.id), jobs.map((j) => j.threadKey), jobs.map((j) => j.status), jobs.map((j) => Math.floor(j.createdAt)), jobs.map((j) => JSON.stringify(j)), instance?.id ?? null],
        );
        for (const { settle } of batch) settle();
      } catch (error) {
        for (const { settle } of batch) settle(error);
      }
    }
    writing = false;
  };
  return {
    put(job) {
      return new Promise<void>((resolve, reject) => {
        pending.push({ job, settle: (error) => (error === undefined ? resolve() : reject(error)) });
        if (writing) return;
        writing = true;
        setImmediate(() => void writeAll());
      });
    },
    async get(id) {
      const { rows } = await db.query<{ body: string }>('SELECT body FROM jobs WHERE id = $1', [id]);
      return rows[0] && parseStoredJob(rows[0].body);
    },
    async list({ threadKey, limit = 100 } = {}) {
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
      // Two statements, no transaction: each deletes only finished rows, and a row another instance deletes first is simply gone.
      const old = await db.query('DELETE FROM jobs WHERE status = ANY($1) AND created_at < $2', [FINISHED_STATUSES, Math.floor(now - retention.maxAgeMs)]);
      const beyond = await db.query(
        `DELETE FROM jobs WHERE id IN (SELECT id FROM (SELECT id, row_number() OVER (PARTITION BY thread_id ORDER BY created_at DESC, ord DESC) AS n
           FROM jobs WHERE status = ANY($1)) ranked WHERE n > $2)`,
        [FINISHED_STATUSES, Math.max(0, Math.floor(retention.perPrincipal))],
      );
      return (old.rowCount ?? 0) + (beyond.rowCount ?? 0);
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
