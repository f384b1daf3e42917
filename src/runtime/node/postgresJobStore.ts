import { parseStoredJob, type Job, type JobStore } from '../jobs';
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
 * @example
 * const jobs = createPostgresJobStore(await openPostgres(process.env.DATABASE_URL!));
 */
export function createPostgresJobStore(db: PostgresDatabase, options: PostgresJobStoreOptions = {}): PostgresJobStore {
  const parse = (rows: { body: string }[]) => rows.map((row) => parseStoredJob(row.body));
  const { instance } = options;
  return {
    async put(job) {
      // The instance that first wrote a job runs it (and is the one whose death ends it).
      await db.query(
        `INSERT INTO jobs (id, thread_id, status, created_at, body, owner) VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT (id) DO UPDATE SET status = excluded.status, body = excluded.body`,
        [job.id, job.threadKey, job.status, Math.floor(job.createdAt), JSON.stringify(job), instance?.id ?? null],
      );
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
