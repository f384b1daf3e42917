import { trackedJobResult } from '../doors/awaitJob';
import { createDoor, type Door, type DoorResponse } from '../doors/door';
import { createExecutor, type Executor } from '../doors/executor';
import type { Meter } from '../doors/meter';
import { type CapabilityResult } from '../envelope';
import { errorResult } from '../results';
import type { Emit } from '../events';
import { createId } from '../ids';
import { defaultJobStore } from '../jobs';
import type { PostconditionProbes } from '../postconditions';
import type { Registry } from '../registry';
import type { RunCapability } from './hostTypes';

// How a chat's capability call leaves the thread host: through the chat door (validation, meter,
// the doors' executor and its job), in the page as on a server, so one chip writes one sequence of
// events on both. Browser-safe; the page loads it with the turn parts (`./turnParts`), on first use.

/** No meter: the chat door of a page, and of a server that passes no `chatMeter`. */
export const UNMETERED: Meter = { reserve: () => ({ ok: true, commit() {}, release() {} }) };

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
 * The host's `runCapability` over a chat door: each call goes through the
 * door as the principal, in the thread, with the registry the host passes
 * (the principal's own capabilities over the shared ones). The door and its
 * executor are asked for on each call, so they may be made after the host.
 */
export function runThroughDoor(chat: () => { door: Door; executor: Executor }): RunCapability {
  return async (name, args, options) => {
    const { door, executor } = chat();
    const response = await door.call({
      capability: name,
      args,
      principal: options.principal,
      registry: options.registry,
      thread: {
        key: options.threadKey,
        emit: options.emit,
        ...(options.turnId ? { turnId: options.turnId } : {}),
        ...(options.invocationId ? { invocationId: options.invocationId } : {}),
        ...(options.callId ? { callId: options.callId } : {}),
        ...(options.signal ? { signal: options.signal } : {}),
      },
    });
    // Stopped by the user: the same signal cancelled the job, which ends at once with its own envelope.
    const stopped = response.kind === 'running' && options.signal?.aborted ? executor.settled(response.jobId) : undefined;
    if (stopped) return stopped;
    return chatResult(response, options.registry.get(name)?.title ?? name, name, options);
  };
}

/**
 * The page's capability calls: a chat door over the doors' executor with
 * jobs in memory (`defaultJobStore(registry)`, where `invoke` kept them) and
 * no meter, the same path as a server's chat.
 * @example
 * const host = createThreadHost({ capabilities, runCapability: localChatCalls({ registry }) });
 */
export function localChatCalls({ registry, probes }: { registry: Registry; probes?: PostconditionProbes }): RunCapability {
  const jobs = defaultJobStore(registry);
  const executor = createExecutor({ registry, jobs, ...(probes ? { probes } : {}) });
  const door = createDoor({ name: 'chat', registry, meter: UNMETERED, executor, jobs });
  return runThroughDoor(() => ({ door, executor }));
}
