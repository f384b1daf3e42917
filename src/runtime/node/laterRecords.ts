import { parseStoredJob, type Job } from '../jobs';

/** How long a record taken by `putLater` waits for its batch at most. */
const LATER_MS = 20;
/** Records waiting for their batch at most: past it, `putLater` refuses (the door then writes before it answers). */
const LATER_AT_MOST = 10_000;
/** After a batch that could not be written: the first try again, doubled each time up to the last. */
const RETRY_MS = [250, 30_000] as const;

/** The records a job store took to write later (`JobStore.putLater`), and what it asks of them. */
export interface LaterRecords {
  /** Takes `job`'s record for the next batch; false when it cannot now (a batch failed and waits, or too many wait). */
  take(job: Job): boolean;
  /** The record of `id` while it waits (a copy, as a read from the store would be). */
  get(id: string): Job | undefined;
  /** Resolves once every record taken before it is written; rejects when the batch that held one failed. */
  flush(): Promise<void>;
}

/**
 * Records written together within 20 ms of being taken, through `put` (the
 * store's own ordered writes); until then the store answers for them from
 * here. A batch that cannot be written stays and is tried again, ever less
 * often (250 ms, doubling up to 30 s); meanwhile `take` refuses, so the door
 * writes before it answers and says so when it cannot.
 * @example
 * const later = laterRecords((job) => writeNow(job));
 * if (!later.take(job)) await writeNow(job);
 */
export function laterRecords(put: (job: Job) => Promise<void>): LaterRecords {
  const waiting = new Map<string, Job>();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let inFlight: Promise<void> | null = null;
  let retryMs = 0;
  // Records taken so far, and of those, written (in order): a flush waits for what was taken before it, not after.
  let taken = 0;
  let written = 0;
  const schedule = (ms: number) => {
    if (timer) return;
    timer = setTimeout(() => {
      timer = undefined;
      void write().catch(() => undefined);
    }, ms);
    // A store that keeps failing (closed, gone) does not keep the process alive; a batch's own 20 ms does.
    if (retryMs) timer.unref?.();
  };
  const write = (): Promise<void> =>
    (inFlight ??= (async () => {
      clearTimeout(timer);
      timer = undefined;
      const batch = [...waiting.values()];
      const upTo = taken;
      try {
        await Promise.all(batch.map(put));
        written = upTo;
        // A record taken again meanwhile (a newer one of the same job) stays for the next batch.
        for (const job of batch) if (waiting.get(job.id) === job) waiting.delete(job.id);
        if (retryMs) console.error('[chatsurface] the job records that waited for the database are written.');
        retryMs = 0;
      } catch (error) {
        if (!retryMs) console.error(`[chatsurface] ${waiting.size} job records could not be written; they are kept and tried again:`, error);
        retryMs = retryMs ? Math.min(retryMs * 2, RETRY_MS[1]) : RETRY_MS[0];
        throw error;
      } finally {
        inFlight = null;
        if (waiting.size) schedule(retryMs || LATER_MS);
      }
    })());
  return {
    take(job) {
      if (retryMs || (waiting.size >= LATER_AT_MOST && !waiting.has(job.id))) return false;
      waiting.set(job.id, job);
      taken++;
      schedule(LATER_MS);
      return true;
    },
    get(id) {
      const job = waiting.get(id);
      return job && parseStoredJob(JSON.stringify(job));
    },
    async flush() {
      const target = taken;
      while (written < target) await (inFlight ?? write());
    },
  };
}
