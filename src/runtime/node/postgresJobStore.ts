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

const FINISHED = new Set<string>(FINISHED_STATUSES);
/** Unfinished jobs remembered as written at most (beyond, the oldest are forgotten: their next records take the INSERT's fallback). */
const OPEN_HINTS = 10_000;
/**
 * A whole pass (every thread counted, every finished row's age looked at) at least this often, or as often as the
 * retention's age if it is shorter; the sweeps between count only the threads this store finished a job on.
 */
const FULL_SWEEP_MS = 600_000;
/** Threads remembered between sweeps at most: past it, the next sweep counts every thread. */
const TOUCHED_AT_MOST = 10_000;
/** Threads whose sweep floor is remembered at most (the oldest forgotten first: its next sweep walks the whole thread). */
const FLOORS_AT_MOST = 10_000;
/** How long a record taken by `putLater` waits for its batch at most. */
const LATER_MS = 20;
/** Records waiting for their batch at most: past it, `putLater` refuses (the door then writes before it answers). */
const LATER_AT_MOST = 10_000;
/** After a batch that could not be written: the first try again, doubled each time up to the last. */
const RETRY_MS = [250, 30_000] as const;
/** PostgreSQL's unique_violation. */
const UNIQUE_VIOLATION = '23505';
const JOB_ROWS = `SELECT id, thread_id, status, created_at, body, $6::text FROM unnest($1::text[], $2::text[], $3::text[], $4::bigint[], $5::text[]) AS u(id, thread_id, status, created_at, body)`;
const INSERT_JOBS = `INSERT INTO jobs (id, thread_id, status, created_at, body, owner) ${JOB_ROWS}`;
const UPSERT_JOBS = `INSERT INTO jobs (id, thread_id, status, created_at, body, owner) ${JOB_ROWS} ON CONFLICT (id) DO UPDATE SET status = excluded.status, body = excluded.body`;

/**
 * Jobs kept in PostgreSQL (the `JobStore` of the runtime): every instance on
 * the database, and a restarted one, answers `GET /v1/jobs/{id}` for every job.
 * The records put while the event loop turns are written in one statement
 * (a job's first record, when it is already finished, a plain INSERT); each
 * `put` resolves once its record is committed. A sweep counts only the
 * threads this store finished jobs on since the last one, each down to where
 * its last sweep stopped; every 10 minutes (or the retention's age, if
 * shorter) a whole pass counts every thread and drops what is past its age.
 * @example
 * const jobs = createPostgresJobStore(await openPostgres(process.env.DATABASE_URL!));
 */
export function createPostgresJobStore(db: PostgresDatabase, options: PostgresJobStoreOptions = {}): PostgresJobStore {
  const parse = (rows: { body: string }[]) => rows.map((row) => parseStoredJob(row.body));
  const { instance } = options;
  // Jobs whose unfinished record this store wrote: their next records update a row. A job first put
  // finished (a fast REST or MCP call's one record) is new: a plain INSERT, cheaper than the upsert.
  // A hint only: a plain INSERT that meets a row (a job another process wrote) becomes the upsert.
  const open = new Set<string>();
  // Threads that finished a job since the last sweep: only these can have gone past the count. Every so often (and first) all of them.
  let touched: Set<string> | 'all' = 'all';
  let lastFull = -Infinity;
  // Per thread, the newest created_at a sweep past the count deleted: every finished row older than it is gone, so
  // the next sweep of that thread walks its index down to there and no further. Without it the walk would go on through
  // every row deleted since the last VACUUM (dead index entries: tens of thousands a minute on a busy principal),
  // each sweep slower than the one before. A row older than the floor that finishes later (a long job) waits for the
  // tenth sweep, which counts every thread whole.
  const floors = new Map<string, number>();
  const remember = (rows: { thread_id: string; floor: string }[]) => {
    for (const { thread_id, floor } of rows) {
      floors.delete(thread_id);
      floors.set(thread_id, Number(floor));
      if (floors.size > FLOORS_AT_MOST) floors.delete(floors.keys().next().value!);
    }
  };
  const write = async (sql: string, jobs: Job[]) => {
    if (!jobs.length) return;
    // The instance that first wrote a job runs it (and is the one whose death ends it).
    await db.query(sql, [jobs.map((j) => j.id), jobs.map((j) => j.threadKey), jobs.map((j) => j.status), jobs.map((j) => Math.floor(j.createdAt)), jobs.map((j) => JSON.stringify(j)), instance?.id ?? null]);
  };
  const insertOrUpsert = async (jobs: Job[]) => {
    try {
      await write(INSERT_JOBS, jobs);
    } catch (error) {
      if ((error as { code?: unknown }).code !== UNIQUE_VIOLATION) throw error;
      await write(UPSERT_JOBS, jobs);
    }
  };
  // The records put while the event loop turns go in one statement (one round trip and one commit for
  // many requests); one statement at a time, so a job's records land in the order they were put.
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
  const enqueue = (job: Job) => {
    if (touched !== 'all' && FINISHED.has(job.status)) {
      touched.add(job.threadKey);
      if (touched.size > TOUCHED_AT_MOST) touched = 'all';
    }
    return new Promise<void>((resolve, reject) => {
      pending.push({ job, settle: (error) => (error === undefined ? resolve() : reject(error)) });
      if (writing) return;
      writing = true;
      setImmediate(() => void writeAll());
    });
  };

  // Records taken by putLater (answered reads): written together within LATER_MS, in the same ordered queue as every
  // put. Until then this store answers for them from here. A batch that cannot be written stays and is tried again,
  // ever less often; meanwhile putLater refuses, so the door writes before it answers and says when it cannot.
  const later = new Map<string, Job>();
  let laterTimer: ReturnType<typeof setTimeout> | undefined;
  let laterWrite: Promise<void> | null = null;
  let retryMs = 0;
  // Records taken so far, and of those, written (in order): a flush waits for what was taken before it, not after.
  let taken = 0;
  let written = 0;
  const writeLater = (): Promise<void> =>
    (laterWrite ??= (async () => {
      clearTimeout(laterTimer);
      laterTimer = undefined;
      const batch = [...later.values()];
      const upTo = taken;
      try {
        await Promise.all(batch.map(enqueue));
        written = upTo;
        // A job taken again meanwhile (it will not be, but a newer record must not go) stays for the next batch.
        for (const job of batch) if (later.get(job.id) === job) later.delete(job.id);
        if (retryMs) console.error(`[chatsurface] the job records that waited for the database are written.`);
        retryMs = 0;
      } catch (error) {
        if (!retryMs) console.error(`[chatsurface] ${later.size} job records could not be written; they are kept and tried again:`, error);
        retryMs = retryMs ? Math.min(retryMs * 2, RETRY_MS[1]) : RETRY_MS[0];
        throw error;
      } finally {
        laterWrite = null;
        if (later.size && !laterTimer) laterTimer = setTimeout(() => void writeLater().catch(() => undefined), retryMs || LATER_MS);
      }
    })());
  const flush = async () => {
    const target = taken;
    while (written < target) await (laterWrite ?? writeLater());
  };
  return {
    put: enqueue,
    putLater(job) {
      if (retryMs || (later.size >= LATER_AT_MOST && !later.has(job.id))) return false;
      later.set(job.id, job);
      taken++;
      laterTimer ??= setTimeout(() => void writeLater().catch(() => undefined), LATER_MS);
      return true;
    },
    flush,
    async get(id) {
      const waiting = later.get(id);
      if (waiting) return parseStoredJob(JSON.stringify(waiting));
      const { rows } = await db.query<{ body: string }>('SELECT body FROM jobs WHERE id = $1', [id]);
      return rows[0] && parseStoredJob(rows[0].body);
    },
    async list({ threadKey, limit = 100 } = {}) {
      // What waits for its batch is written first: the list is the table's.
      await flush();
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
      const threads = [...(touched === 'all' ? [] : touched)];
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
