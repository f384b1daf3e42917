import { parseStoredJob, type Job, type JobStore } from '../jobs';
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

/**
 * Jobs kept in the workspace database (the `JobStore` of the runtime): a
 * restarted server still answers `GET /v1/jobs/{id}` for every job.
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

  return {
    async put(job) {
      checkDatabaseFile(db);
      upsert.run({ id: job.id, threadId: job.threadKey, status: job.status, createdAt: job.createdAt, body: JSON.stringify(job) });
    },
    async get(id) {
      const body = byId.get(id) as string | undefined;
      return body === undefined ? undefined : parseStoredJob(body);
    },
    async list({ threadKey, limit = 100 } = {}) {
      const n = Math.max(0, Math.min(Math.floor(limit), 10_000));
      return parse(threadKey === undefined ? recent.all(n) : recentOfThread.all(threadKey, n));
    },
    async unfinished() {
      return parse(open.all());
    },
    async settleWaiting(job) {
      checkDatabaseFile(db);
      return settle.run({ id: job.id, status: job.status, body: JSON.stringify(job) }).changes === 1;
    },
    async waiting() {
      return parse(waiting.all());
    },
  };
}
