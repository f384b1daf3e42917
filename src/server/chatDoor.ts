import { trackedJobResult } from '../runtime/doors/awaitJob';
import type { DoorResponse } from '../runtime/doors/door';
import { errorResult, type CapabilityResult } from '../runtime/envelope';
import type { Emit } from '../runtime/events';
import { INTERRUPTED } from '../runtime/interrupted';
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

/**
 * Jobs a killed server left queued or running can never finish: mark them
 * failed. Their cards are closed by the thread host's recovery, which closes
 * everything a thread had open.
 */
export async function endInterruptedJobs(jobs: SqliteJobStore): Promise<void> {
  for (const job of await jobs.unfinished()) {
    const error = { code: 'interrupted', message: INTERRUPTED.invocation };
    const ended: Job = { ...job, status: 'failed', error, updatedAt: Date.now() };
    await jobs.put(ended);
  }
}

