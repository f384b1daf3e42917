import { trackedJobResult } from '../runtime/doors/awaitJob';
import type { DoorResponse } from '../runtime/doors/door';
import { errorResult, type CapabilityResult } from '../runtime/envelope';
import type { EventLog } from '../runtime/eventLog';
import type { Emit } from '../runtime/events';
import { createId } from '../runtime/ids';
import type { Job } from '../runtime/jobs';
import type { SqliteJobStore } from '../runtime/node/sqliteJobStore';

/** The chat's view of a door response: the envelope, a tracked-card note, or an error row. */
export function chatResult(response: DoorResponse, title: string, name: string, options: { emit: Emit; invocationId?: string }): CapabilityResult {
  switch (response.kind) {
    case 'done':
      return response.result;
    case 'running':
      return trackedJobResult(response.job, title);
    case 'refused': {
      const { code, message, issues } = response.error;
      options.emit({
        type: 'capability.error',
        invocation_id: options.invocationId ?? createId('inv'),
        capability: name,
        title,
        error: { code, message, ...(issues ? { issues } : {}) },
        recoverable: code !== 'unknown_capability',
      });
      return errorResult(message);
    }
    default:
      return response satisfies never;
  }
}

/** Jobs a killed server left queued or running can never finish: mark them failed and end their cards. */
export async function endInterruptedJobs(jobs: SqliteJobStore, logFor: (threadId: string) => EventLog): Promise<void> {
  for (const job of await jobs.unfinished()) {
    const error = { code: 'interrupted', message: 'The server stopped while this was running, so it did not finish. Run it again.' };
    const ended: Job = { ...job, status: 'failed', error, updatedAt: Date.now() };
    await jobs.put(ended);
    if (/^(rest|mcp):/.test(job.threadId) || !job.threadId) continue;
    logFor(job.threadId).emit({ type: 'capability.error', invocation_id: job.id, capability: job.capability, error, recoverable: true });
  }
}

