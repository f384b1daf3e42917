import type { CapabilityContext, CapabilityDescriptor } from '../runtime/capability';
import { createDoor, reviveDoorResponse, type Door, type DoorApprovals, type DoorResponse } from '../runtime/doors/door';
import { createExecutor, type Executor } from '../runtime/doors/executor';
import { createIdempotencyCache, type IdempotencyCache, type IdempotencyStore } from '../runtime/doors/idempotency';
import { exposedOnMcp } from '../runtime/doors/mcpTools';
import type { Meter } from '../runtime/doors/meter';
import { UNMETERED } from '../runtime/host/chatCalls';
import type { ThreadHost } from '../runtime/host/threadHost';
import type { Job, JobStore } from '../runtime/jobs';
import type { PostconditionProbes } from '../runtime/postconditions';
import type { Principal } from '../runtime/principal';
import type { Coordination } from '../runtime/stores/coordination';
import { endInterruptedJobs } from './chatDoor';

/** The key of a cancel that names a job rather than a thread's turn (MCP tasks/cancel). */
const JOB_CANCEL = 'job';

/** The three doors on one executor and one job store: the chat's, REST's and MCP's. */
export interface ServerDoors {
  executor: Executor;
  chat: Door;
  rest: Door;
  mcp: Door;
  /** Finished REST and MCP answers, kept so a retry replays. */
  idempotency: IdempotencyCache<DoorResponse>;
  /** Stops a job here, or asks the instance that runs it. */
  cancelJob(id: string, reason?: string): boolean;
  /** Unhooks from the other instances' cancels and reaps. */
  unhook(): void;
}

export interface ServerDoorsOptions {
  host: ThreadHost;
  jobs: JobStore & { unfinished(): Promise<Job[]>; settleWaiting(job: Job): Promise<boolean>; waiting(): Promise<Job[]> };
  idempotencyStore: IdempotencyStore;
  coordination?: Coordination;
  probes?: PostconditionProbes;
  /** The REST and MCP meter. */
  meter: Meter;
  /** The chat's meter. @default unmetered */
  chatMeter?: Meter;
  /** How the chat waits on a slow capability. */
  chatWait: { intervalMs: number; timeoutMs: number };
  restWaitMs: number;
  mcp: { mutates: readonly string[]; waitMs: number };
  /** REST and MCP: when a job's record is written (see `DoorOptions.record`). @default every record at once */
  record?: { afterMs: number; keepInlineReads: boolean };
  /** Where REST and MCP calls of a capability that requires confirmation wait for a person. */
  approvals?: DoorApprovals;
}

/** The executor, the doors over the host's registry, and (with several instances) cancels passed between them. */
export function createServerDoors(options: ServerDoorsOptions): ServerDoors {
  const { host, jobs, coordination } = options;
  const registry = host.registry;
  const executor = createExecutor({ registry, jobs, ...(options.probes ? { probes: options.probes } : {}) });
  const unhook = coordination
    ? [
        // A cancel sent to another instance reaches the job where it runs; a dead instance's jobs end as interrupted.
        coordination.onCancel((key, id) => void executor.cancel(id, key === JOB_CANCEL ? 'Cancelled by the MCP client (tasks/cancel).' : 'Cancelled by the user.')),
        coordination.onReap(() => void endInterruptedJobs(jobs).catch((error) => console.error('[chatsurface] closing a dead instance\'s jobs failed:', error))),
      ]
    : [];
  const cancelJob = (id: string, reason?: string): boolean => {
    if (executor.cancel(id, reason)) return true;
    coordination?.requestCancel(JOB_CANCEL, id).catch((error) => console.error('[chatsurface] could not pass a cancel on to the other instances:', error));
    return false;
  };
  const chat = createDoor({ name: 'chat', registry, meter: options.chatMeter ?? UNMETERED, executor, jobs, wait: options.chatWait });
  // Finished answers are kept in the database, so a retry after a restart replays instead of running again.
  const idempotency = createIdempotencyCache<DoorResponse>({ store: options.idempotencyStore, keep: (r) => r.kind !== 'refused', revive: reviveDoorResponse });
  // A sub-thread skill called over REST or MCP runs in a thread of the caller's own (issue 15).
  const runSkillThread = (p: Principal, d: CapabilityDescriptor, args: unknown, ctx: CapabilityContext) =>
    host.runSkillThread(p, { capability: d.name, task: (args as { task?: unknown } | null)?.task, signal: ctx.signal });
  const common = { registry, meter: options.meter, executor, jobs, idempotency, runSkillThread, ...(options.record ? { record: options.record } : {}), ...(options.approvals ? { approvals: options.approvals } : {}) };
  const rest = createDoor({ name: 'rest', ...common, wait: { intervalMs: 250, timeoutMs: options.restWaitMs } });
  const mcp = createDoor({
    name: 'mcp',
    ...common,
    exposes: (d) => exposedOnMcp(d, options.mcp.mutates),
    wait: { intervalMs: 250, timeoutMs: options.mcp.waitMs },
  });
  return {
    executor,
    chat,
    rest,
    mcp,
    idempotency,
    cancelJob,
    unhook() {
      for (const off of unhook) off();
    },
  };
}
