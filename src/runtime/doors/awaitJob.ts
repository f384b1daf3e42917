import type { CapabilityResult } from '../envelope';
import type { Job, JobStore } from '../jobs';
import { isTerminal, type Execution } from './executor';

export interface AwaitJobOptions {
  /** How often the job record is read. @default 1500 */
  intervalMs?: number;
  /** How long to wait in all before handing the job to a tracked card. @default 300000 */
  timeoutMs?: number;
  /** Stops waiting (the job keeps running). */
  signal?: AbortSignal;
}

export type AwaitedJob = { status: 'settled'; result: CapabilityResult } | { status: 'running'; job: Job };

/**
 * Waits for a job the way the chat does: the record is polled every
 * `intervalMs` until it is terminal or `timeoutMs` has passed. When the job
 * runs in this process its own completion ends the wait at once, so a fast
 * capability answers inline with no polling delay.
 * @example
 * const outcome = await awaitJob(jobs, execution, { intervalMs: 1500, timeoutMs: 300_000 });
 * if (outcome.status === 'running') showTrackedCard(outcome.job);
 */
export async function awaitJob(jobs: JobStore, execution: Pick<Execution, 'jobId'> & Partial<Pick<Execution, 'settled' | 'job'>>, options: AwaitJobOptions = {}): Promise<AwaitedJob> {
  const { intervalMs = 1_500, timeoutMs = 300_000, signal } = options;
  const deadline = Date.now() + timeoutMs;
  if (execution.settled && execution.job) {
    // This process runs the job and keeps its record: nothing to read from the store, only its end or the deadline to wait for.
    return endOrDeadline(execution.settled, execution.job, timeoutMs, signal);
  }
  const settled = execution.settled?.then((result) => ({ status: 'settled' as const, result }));
  // A job of this process is read from the store only after a first interval: most end before it.
  let first = settled !== undefined;
  for (;;) {
    const job = first ? undefined : await jobs.get(execution.jobId);
    first = false;
    if (job && isTerminal(job.status)) {
      // A job of this process: its envelope is exact (error results included).
      if (settled) return settled;
      return { status: 'settled', result: job.result ?? errorEnvelope(job) };
    }
    const left = deadline - Date.now();
    if (left <= 0 || signal?.aborted) {
      return { status: 'running', job: job ?? (await jobs.get(execution.jobId)) ?? runningStub(execution.jobId) };
    }
    const woke = await Promise.race([sleep(Math.min(intervalMs, left), signal), ...(settled ? [settled] : [])]);
    if (woke !== undefined) return woke;
  }
}

/** What the model (and the card) reads when a job outlasts the wait: it is still running and tracked. */
export function trackedJobResult(job: Job, title: string): CapabilityResult {
  const pct = job.progress?.total ? ` (${Math.round((100 * job.progress.progress) / job.progress.total)}% so far)` : '';
  return {
    content: [{ type: 'text', text: `${title} is still running${pct}. It continues as a tracked job; its card shows the result when it finishes.` }],
    structuredContent: { job_id: job.id, status: job.status },
    display_hint: { summary: `${title} continues in the background` },
  };
}

function errorEnvelope(job: Job): CapabilityResult {
  return { content: [{ type: 'text', text: job.error?.message ?? `Job ${job.id} ${job.status}.` }], isError: true };
}

function runningStub(id: string): Job {
  const t = Date.now();
  return { id, capability: '', threadKey: '', status: 'running', createdAt: t, updatedAt: t };
}

/** The job's end, or at the deadline (or `signal`) the job as it stands; one timer, gone when the job ends first. */
function endOrDeadline(settled: Promise<CapabilityResult>, job: () => Job, ms: number, signal?: AbortSignal): Promise<AwaitedJob> {
  return new Promise((resolve) => {
    const deadline = () => {
      clearTimeout(id);
      signal?.removeEventListener('abort', deadline);
      resolve({ status: 'running', job: job() });
    };
    const id = setTimeout(deadline, ms);
    signal?.addEventListener('abort', deadline, { once: true });
    void settled.then((result) => {
      clearTimeout(id);
      signal?.removeEventListener('abort', deadline);
      resolve({ status: 'settled', result });
    });
  });
}

function sleep(ms: number, signal?: AbortSignal): Promise<undefined> {
  return timer(ms, signal).done;
}

/** Resolves after `ms`, on `signal`'s abort, or at `cancel()`, whichever comes first; the timer goes with it. */
function timer(ms: number, signal?: AbortSignal): { done: Promise<undefined>; cancel(): void } {
  let cancel!: () => void;
  const done = new Promise<undefined>((resolve) => {
    const id = setTimeout(end, ms);
    signal?.addEventListener('abort', end, { once: true });
    function end() {
      clearTimeout(id);
      signal?.removeEventListener('abort', end);
      resolve(undefined);
    }
    cancel = end;
  });
  return { done, cancel };
}
