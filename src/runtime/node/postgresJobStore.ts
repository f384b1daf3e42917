import type { Job, JobStore } from '../jobs';
import type { PostgresDatabase } from './postgres';

/** The JobStore on PostgreSQL, plus what a restarting server needs (as on SQLite). */
export interface PostgresJobStore extends JobStore {
  /** Jobs still `queued` or `running`, oldest first: after a restart, these were cut short. */
  unfinished(): Promise<Job[]>;
}

/**
 * Jobs kept in PostgreSQL (the `JobStore` of the runtime): every instance on
 * the database, and a restarted one, answers `GET /v1/jobs/{id}` for every job.
 * @example
 * const jobs = createPostgresJobStore(await openPostgres(process.env.DATABASE_URL!));
 */
export function createPostgresJobStore(db: PostgresDatabase): PostgresJobStore {
  const parse = (rows: { body: string }[]) => rows.map((row) => JSON.parse(row.body) as Job);
  return {
    async put(job) {
      await db.query(
        `INSERT INTO jobs (id, thread_id, status, created_at, body) VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (id) DO UPDATE SET status = excluded.status, body = excluded.body`,
        [job.id, job.threadId, job.status, Math.floor(job.createdAt), JSON.stringify(job)],
      );
    },
    async get(id) {
      const { rows } = await db.query<{ body: string }>('SELECT body FROM jobs WHERE id = $1', [id]);
      return rows[0] && (JSON.parse(rows[0].body) as Job);
    },
    async list({ threadId, limit = 100 } = {}) {
      const n = Number.isNaN(limit) ? 0 : Math.max(0, Math.min(Math.floor(limit), 10_000));
      const { rows } =
        threadId === undefined
          ? await db.query<{ body: string }>('SELECT body FROM jobs ORDER BY created_at DESC, ord DESC LIMIT $1', [n])
          : await db.query<{ body: string }>('SELECT body FROM jobs WHERE thread_id = $1 ORDER BY created_at DESC, ord DESC LIMIT $2', [threadId, n]);
      return parse(rows);
    },
    async unfinished() {
      const { rows } = await db.query<{ body: string }>("SELECT body FROM jobs WHERE status IN ('queued', 'running') ORDER BY created_at, ord");
      return parse(rows);
    },
  };
}
