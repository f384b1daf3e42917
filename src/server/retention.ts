import type { IdempotencyStore } from '../runtime/doors/idempotency';
import { DEFAULT_JOB_RETENTION, FINISHED_STATUSES, type Job, type JobRetention, type JobStore } from '../runtime/jobs';

/** How long the server keeps finished jobs, and how often it sweeps them and the expired idempotent answers. */
export interface RetentionOptions extends Partial<JobRetention> {
  /** A sweep at least this often. @default 600000 (10 min) */
  sweepMs?: number;
  /**
   * A sweep, too, after this many jobs have finished since the last one, so
   * a busy server stays within `perPrincipal` + `sweepEveryJobs` finished
   * jobs per principal whatever its rate (and what finishes while a sweep
   * runs, until the next). @default 1000
   */
  sweepEveryJobs?: number;
}

/** A job store whose finished jobs are swept, with the idempotency store, on one schedule. */
export interface SweptJobStore<S extends JobStore> {
  jobs: S;
  /** Sweeps now: finished jobs past the retention, and expired idempotent answers. Resolves with the jobs deleted. */
  sweep(): Promise<number>;
  /** Stops the timer (the server closing); a sweep in flight is awaited, and the records the store holds for its next batch are written. */
  stop(): Promise<void>;
}

const FINISHED = new Set<string>(FINISHED_STATUSES);

/**
 * Keeps `jobs` within its retention: a sweep every `sweepMs`, and after every
 * `sweepEveryJobs` finished jobs written through the returned store. Each
 * sweep also purges the idempotency store's expired answers (the two tables
 * that grow with every REST and MCP call, on the same schedule). One sweep
 * runs at a time; a failed one is reported and the next tries again.
 * @example
 * const { jobs, stop } = sweptJobs(createSqliteJobStore(db), createSqliteIdempotencyStore(db), { perPrincipal: 500 });
 */
export function sweptJobs<S extends JobStore>(
  store: S,
  idempotency: Pick<IdempotencyStore, 'purge'> | undefined,
  options: RetentionOptions = {},
  now: () => number = Date.now,
): SweptJobStore<S> {
  const retention: JobRetention = { maxAgeMs: options.maxAgeMs ?? DEFAULT_JOB_RETENTION.maxAgeMs, perPrincipal: options.perPrincipal ?? DEFAULT_JOB_RETENTION.perPrincipal };
  const every = Math.max(1, options.sweepEveryJobs ?? 1_000);
  let finished = 0;
  let running: Promise<number> | null = null;
  /** Jobs past the count finished while a sweep ran: another follows it (what the running one started from did not hold them). */
  let again = false;

  const start = (): Promise<number> =>
    (running ??= (async () => {
      try {
        // Records the store still holds for its next batch are written first: the sweep counts them.
        await store.flush?.();
        const t = now();
        const [deleted] = await Promise.all([store.sweep?.(retention, t) ?? 0, idempotency?.purge(t)]);
        return deleted;
      } catch (error) {
        console.error('[chatsurface] sweeping finished jobs failed:', error);
        return 0;
      } finally {
        running = null;
        if (again) {
          again = false;
          void start();
        }
      }
    })());
  // Asked for now: after the sweep in flight (which may have begun before what is to be swept), one of its own.
  const sweep = (): Promise<number> => (running ? running.then(start) : start());

  const timer = setInterval(() => void start(), options.sweepMs ?? 600_000);
  timer.unref?.();

  const put = (job: Job): Promise<void> => {
    let written: Promise<void>;
    try {
      written = store.put(job);
    } catch (error) {
      // A store that throws at once fails like one that rejects.
      return Promise.reject(error);
    }
    if (!FINISHED.has(job.status)) return written;
    // Counted once written; the sweep runs off the request path.
    return written.then(() => counted(job));
  };
  const counted = (job: Job) => {
    if (!FINISHED.has(job.status)) return;
    if (++finished >= every) {
      finished = 0;
      if (running) again = true;
      else void start();
    }
  };
  // A record the store writes with its next batch counts once taken (a sweep before it lands misses it; the next counts it).
  const putLater = (job: Job): boolean => {
    if (!store.putLater!(job)) return false;
    counted(job);
    return true;
  };
  const jobs = { ...store, put, ...(store.putLater ? { putLater } : {}) };
  return {
    jobs,
    sweep,
    async stop() {
      clearInterval(timer);
      await running;
      // The records of answered reads still waiting for their batch.
      await store.flush?.().catch((error: unknown) => console.error('[chatsurface] writing the last job records failed:', error));
    },
  };
}
