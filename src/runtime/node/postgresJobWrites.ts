import { FINISHED_STATUSES, type Job } from '../jobs';
import type { PostgresDatabase } from './postgres';

const FINISHED = new Set<string>(FINISHED_STATUSES);
/** Unfinished jobs remembered as written at most (beyond, the oldest are forgotten: their next records take the INSERT's fallback). */
const OPEN_HINTS = 10_000;
/** PostgreSQL's unique_violation. */
const UNIQUE_VIOLATION = '23505';
const JOB_ROWS = `SELECT id, thread_id, status, created_at, body, $6::text FROM unnest($1::text[], $2::text[], $3::text[], $4::bigint[], $5::text[]) AS u(id, thread_id, status, created_at, body)`;
const INSERT_JOBS = `INSERT INTO jobs (id, thread_id, status, created_at, body, owner) ${JOB_ROWS}`;
const UPSERT_JOBS = `INSERT INTO jobs (id, thread_id, status, created_at, body, owner) ${JOB_ROWS} ON CONFLICT (id) DO UPDATE SET status = excluded.status, body = excluded.body`;

/**
 * Job records written to PostgreSQL in batches: the records put while the event loop turns go in one statement
 * (one round trip and one commit for many requests), one statement at a time, so a job's records land in the
 * order they were put. Each put resolves once its record is committed. A job first put finished is new: a
 * plain INSERT, cheaper than the upsert (which it becomes if it meets a row another process wrote).
 */
export function batchedJobWrites(db: PostgresDatabase, instanceId: string | null): (job: Job) => Promise<void> {
  // Jobs whose unfinished record this writer wrote: their next records update a row. A hint only.
  const open = new Set<string>();
  const write = async (sql: string, jobs: Job[]) => {
    if (!jobs.length) return;
    // The instance that first wrote a job runs it (and is the one whose death ends it).
    await db.query(sql, [jobs.map((j) => j.id), jobs.map((j) => j.threadKey), jobs.map((j) => j.status), jobs.map((j) => Math.floor(j.createdAt)), jobs.map((j) => JSON.stringify(j)), instanceId]);
  };
  const insertOrUpsert = async (jobs: Job[]) => {
    try {
      await write(INSERT_JOBS, jobs);
    } catch (error) {
      if ((error as { code?: unknown }).code !== UNIQUE_VIOLATION) throw error;
      await write(UPSERT_JOBS, jobs);
    }
  };
  let pending: { job: Job; settle: (error?: unknown) => void }[] = [];
  let writing = false;
  const writeAll = async () => {
    while (pending.length) {
      const batch = pending;
      pending = [];
      // A job put twice in one batch: its last record (one statement may not update a row twice).
      const last = new Map<string, { job: Job; known: boolean }>();
      for (const { job } of batch) {
        const known = open.has(job.id) || (last.get(job.id)?.known ?? false) || !FINISHED.has(job.status);
        if (FINISHED.has(job.status)) open.delete(job.id);
        else {
          open.add(job.id);
          // The oldest hint goes first (a job settled elsewhere never comes back to remove its own).
          if (open.size > OPEN_HINTS) open.delete(open.values().next().value!);
        }
        last.delete(job.id);
        last.set(job.id, { job, known });
      }
      const fresh: Job[] = [];
      const known: Job[] = [];
      for (const entry of last.values()) (entry.known ? known : fresh).push(entry.job);
      try {
        // Different jobs in each: the two statements may run at once (both over before the next batch).
        const failed = (await Promise.allSettled([insertOrUpsert(fresh), write(UPSERT_JOBS, known)])).find((r): r is PromiseRejectedResult => r.status === 'rejected');
        if (failed) throw failed.reason;
        for (const { settle } of batch) settle();
      } catch (error) {
        for (const { settle } of batch) settle(error);
      }
    }
    writing = false;
  };
  return (job) =>
    new Promise<void>((resolve, reject) => {
      pending.push({ job, settle: (error) => (error === undefined ? resolve() : reject(error)) });
      if (writing) return;
      writing = true;
      setImmediate(() => void writeAll());
    });
}
