import { Cancellation } from '../cancellation';
import type { CapabilityResult } from '../envelope';
import type { Emit, ThreadEvent, ThreadEventInput } from '../events';
import { createId } from '../ids';
import { invoke, type InvokeInternals, type InvokeOptions } from '../invoke';
import { jobEnded, type Job, type JobStore } from '../jobs';
import type { PostconditionProbes } from '../postconditions';
import type { Registry } from '../registry';

/** One call of the executor: the same for chat, REST and MCP. */
export interface ExecuteRequest {
  capability: string;
  args: unknown;
  /** The key of the thread the job belongs to (`threadKey(ref)`; `rest:<user>` / `mcp:<user>` for the doors without a thread). */
  threadKey: string;
  /** Where lifecycle events go (a thread's log); without it only the job record is kept. */
  emit?: Emit;
  signal?: AbortSignal;
  /** @default a fresh `inv_…` id; it is also the job id */
  invocationId?: string;
  turnId?: string;
  /** The model's tool call that asked for it. */
  callId?: string;
  /** A skill gives its instructions as the result (REST, MCP: no prompt slab there). */
  skillInstructions?: boolean;
  /** With `skillInstructions`: how a sub-thread skill runs (see `InvokeOptions.runSkillThread`). */
  runSkillThread?: InvokeOptions['runSkillThread'];
  /** Hears each lifecycle event of this invocation (the MCP door turns progress into notifications). */
  observe?: (event: ThreadEvent) => void;
  /** Probes for this call, over the executor's own. */
  probes?: PostconditionProbes;
  /** Where to find the capability for this call (a principal's own over the shared ones). @default the executor's registry */
  registry?: Registry;
  /** When the job's record is written. @default the queued record at once, before anything runs (the chat) */
  record?: JobRecordPolicy;
  /** Fields every record of this job keeps (an approved job: its approval and when it was asked for). */
  keep?: Pick<Job, 'approval' | 'createdAt'>;
  /** `args` as the door validated them against the capability's input (see `InvokeOptions.checkedArgs`). */
  checkedArgs?: { data: unknown };
}

/**
 * A job's record written only once the job has run a while (REST and MCP):
 * a job that ends within `afterMs` writes one record, its last (or none
 * with `keepInline: false`); a longer one writes its record then, and from
 * then on as usual. `Execution.persist` writes it at once (a 202, a task).
 */
export interface JobRecordPolicy {
  afterMs: number;
  /** Keep the record of a job that ended within `afterMs`. */
  keepInline: boolean;
  /** That record may be written after the answer, with the store's next batch (`JobStore.putLater`: a read's). */
  later?: boolean;
}

/** A running (or finished) execution. */
export interface Execution {
  /** Equal to the invocation id. */
  jobId: string;
  /** The envelope, once the job is terminal and its record is stored. Never rejects. */
  settled: Promise<CapabilityResult>;
  /** The job as this process last recorded it (in memory: nothing is read back from the store). */
  job(): Job;
  /**
   * Writes the job's record now if it waits (see `JobRecordPolicy`), and
   * resolves once every write so far has landed; rejects when one failed
   * (the store is away: the answer must not name a job nobody can find).
   */
  persist(): Promise<void>;
}

export interface Executor {
  /** Records a job, runs the capability through `invoke`, and keeps the job up to date from its events. */
  execute(request: ExecuteRequest): Execution;
  /** Aborts a running job of this process; false when it is not running here. */
  cancel(jobId: string, reason?: string): boolean;
  /** Aborts every job running in this process and waits until each has settled (a server shutting down). */
  cancelAll(reason: string): Promise<void>;
  /** The envelope of a job running in this process, once it ends; undefined when it does not run here. */
  settled(jobId: string): Promise<CapabilityResult> | undefined;
  /** Jobs running in this process. */
  readonly running: number;
}

export interface ExecutorOptions {
  registry: Registry;
  jobs: JobStore;
  /** How postconditions look at the workspace (the host's row counter, a file lister). */
  probes?: PostconditionProbes;
  /** @default Date.now */
  now?: () => number;
}

/** True for `done`, `failed` and `cancelled`. */
export function isTerminal(status: Job['status']): boolean {
  return jobEnded(status);
}

/** The job store as one job sees it: each record of `jobId` written with `keep` over it. */
function keeping(jobs: JobStore, jobId: string, keep: Pick<Job, 'approval' | 'createdAt'>): JobStore {
  const kept = (job: Job): Job => (job.id === jobId ? { ...job, ...keep } : job);
  return { ...jobs, put: (job) => jobs.put(kept(job)), ...(jobs.putLater ? { putLater: (job: Job) => jobs.putLater!(kept(job)) } : {}), get: (id) => jobs.get(id), list: (o) => jobs.list(o) };
}

/**
 * The one executor behind every door. A `queued` job record goes to the store
 * before anything runs; `invoke` then keeps it (running, progress, done /
 * failed / cancelled, violations), so `GET /v1/jobs/{id}` and a chat card show
 * the same thing. With a thread's `emit`, a `capability.queued` event carrying
 * the job id comes first, so the card knows its job.
 * @example
 * const executor = createExecutor({ registry, jobs });
 * const { jobId, settled } = executor.execute({ capability: 'math.add', args: { a: 1, b: 2 }, threadKey: 'rest:demo' });
 */
export function createExecutor({ registry, jobs: allJobs, probes, now = Date.now }: ExecutorOptions): Executor {
  const controllers = new Map<string, Cancellation>();
  const inFlight = new Map<string, Promise<CapabilityResult>>();

  return {
    get running() {
      return controllers.size;
    },
    cancel(jobId, reason = 'Cancelled.') {
      const controller = controllers.get(jobId);
      controller?.abort(new Error(reason));
      return controller !== undefined;
    },
    async cancelAll(reason) {
      for (const controller of controllers.values()) controller.abort(new Error(reason));
      await Promise.all([...inFlight.values()]);
    },
    settled: (jobId) => inFlight.get(jobId),
    execute(request) {
      const jobId = request.invocationId ?? createId('inv');
      const jobs = request.keep ? keeping(allJobs, jobId, request.keep) : allJobs;
      const callRegistry = request.registry ?? registry;
      const descriptor = callRegistry.get(request.capability);
      const created = now();
      const record = jobRecord(jobs, request.record);
      // The queued record is written first (or held, with a policy); from then on `invoke` keeps the job (running, progress, the end).
      const queued = record.store
        .put({ id: jobId, capability: request.capability, threadKey: request.threadKey, status: 'queued', createdAt: created, updatedAt: created })
        .catch(reportStoreError);

      let seq = 0;
      // Without a thread the events go only to `observe` (stamped for it); with neither, nowhere, and nothing is copied.
      const emitter = request.emit ?? (request.observe ? (input: ThreadEventInput) => ({ ...input, seq: ++seq, ts: now() }) as ThreadEvent : unheard);
      const emit: Emit = request.observe
        ? (input) => {
            const event = emitter(input);
            if ('invocation_id' in event && event.invocation_id === jobId) request.observe!(event);
            return event;
          }
        : emitter;

      if (request.emit) {
        emit({
          type: 'capability.queued',
          invocation_id: jobId,
          capability: request.capability,
          title: descriptor?.title ?? request.capability,
          args: request.args,
          job_id: jobId,
          ...(descriptor?.actor ? { actor: descriptor.actor } : {}),
          ...(request.turnId ? { turn_id: request.turnId } : {}),
        });
      }

      // A cancel here, or the caller's signal: its AbortSignal is made only if the handler asks for one.
      const controller = new Cancellation();
      controllers.set(jobId, controller);
      const signal = request.signal ? AbortSignal.any([controller.signal, request.signal]) : undefined;
      const settled = queued
        .then(() =>
          invoke(request.capability, request.args, {
            registry: callRegistry,
            emit,
            jobs: record.store,
            ...(probes || request.probes ? { probes: { ...probes, ...request.probes } } : {}),
            threadKey: request.threadKey,
            ...(signal ? { signal } : { cancellation: controller }),
            invocationId: jobId,
            ...(request.turnId ? { turnId: request.turnId } : {}),
            ...(request.callId ? { callId: request.callId } : {}),
            ...(request.skillInstructions ? { skillInstructions: true } : {}),
            ...(request.runSkillThread ? { runSkillThread: request.runSkillThread } : {}),
            ...(request.checkedArgs ? { checkedArgs: request.checkedArgs } : {}),
          } satisfies InvokeOptions & InvokeInternals),
        )
        .finally(() => {
          controllers.delete(jobId);
          inFlight.delete(jobId);
        });
      inFlight.set(jobId, settled);
      return { jobId, settled, job: record.latest, persist: record.persist };
    },
  };
}

/**
 * One job's writes: each record is kept in memory as the latest, and goes to
 * the store in order, at once or as `policy` says.
 */
function jobRecord(jobs: JobStore, policy: JobRecordPolicy | undefined) {
  let latest: Job | undefined;
  let writing = policy === undefined;
  /** The job ended within the policy's time and nothing waits to be written: its record is not kept, or the store's next batch has it. */
  let dropped = false;
  let failure: { error: unknown } | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let chain: Promise<void> = Promise.resolve();
  let pending = 0;
  const write = (): Promise<void> => {
    const job = latest!;
    // In order: the first write starts at once, the next after the one before it.
    const done = pending === 0 ? Promise.resolve(jobs.put(job)) : chain.then(() => jobs.put(job));
    pending++;
    chain = done.then(
      () => void pending--,
      (error: unknown) => {
        failure ??= { error };
        pending--;
      },
    );
    return done;
  };
  const begin = (): Promise<void> => {
    clearTimeout(timer);
    writing = true;
    return write();
  };
  const store: JobStore = {
    put(job) {
      latest = job;
      if (writing) return write();
      if (jobEnded(job.status)) {
        clearTimeout(timer);
        dropped = !policy!.keepInline || (policy!.later === true && jobs.putLater?.(job) === true);
        return dropped ? Promise.resolve() : begin();
      }
      timer ??= setTimeout(() => void begin().catch(reportStoreError), policy!.afterMs);
      return Promise.resolve();
    },
    get: (id) => jobs.get(id),
    list: (options) => jobs.list(options),
  };
  return {
    store,
    latest: (): Job => latest!,
    async persist(): Promise<void> {
      if (!writing && !dropped && latest) void begin().catch(() => undefined);
      await chain;
      if (failure) throw failure.error;
    },
  };
}

/** The emit of a job no thread shows and nobody observes (REST, MCP without progress): its events go nowhere. */
const unheard: Emit = (input) => input as ThreadEvent;

function reportStoreError(error: unknown): void {
  // A store that cannot write must not break the invocation the user is watching.
  console.error('[chatsurface] job store write failed:', error);
}
