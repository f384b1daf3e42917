import { INTERRUPTED } from '../runtime/interrupted';
import type { Job, JobStore } from '../runtime/jobs';

/**
 * Jobs a killed server left queued or running can never finish: mark them
 * failed. Their cards are closed by the thread host's recovery, which closes
 * everything a thread had open.
 */
export async function endInterruptedJobs(jobs: Pick<JobStore, 'put'> & { unfinished(): Promise<Job[]> }): Promise<void> {
  for (const job of await jobs.unfinished()) {
    const error = { code: 'interrupted', message: INTERRUPTED.invocation };
    const ended: Job = { ...job, status: 'failed', error, updatedAt: Date.now() };
    await jobs.put(ended);
  }
}

