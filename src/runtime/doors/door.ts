import type { CapabilityContext, CapabilityDescriptor } from '../capability';
import { type CapabilityResult } from '../envelope';
import { errorResult } from '../results';
import { formatIssues, toFieldIssues, type Emit, type FieldIssue, type ThreadEvent } from '../events';
import { issuesInWords } from '../invoke';
import { storedJob, type Job, type JobStore } from '../jobs';
import type { Registry } from '../registry';
import type { Principal } from '../principal';
import { awaitJob } from './awaitJob';
import { isTerminal, type Executor } from './executor';
import { fingerprint, type IdempotencyCache } from './idempotency';
import type { Meter } from './meter';

/** The three ways into the registry. */
export type DoorName = 'chat' | 'rest' | 'mcp';

/** Why a door refused a call; nothing ran. Serialised by each door in its own wire format. */
export interface DoorError {
  /** The HTTP status a REST client sees: 400, 401, 402, 404, 409, 429. */
  status: number;
  code: string;
  message: string;
  issues?: FieldIssue[];
  retryAfterSeconds?: number;
}

/** What came out of a door call. */
export type DoorResponse =
  /** It ran to the end: `job.status` is `done`, `failed` or `cancelled`; `result` is the envelope. */
  | { kind: 'done'; jobId: string; result: CapabilityResult; job: Job; replayed: boolean }
  /** Still running when the wait ended, or waiting for a person's approval (`job.status` is `waiting`): follow the job. */
  | { kind: 'running'; jobId: string; job: Job; replayed: boolean }
  | { kind: 'refused'; error: DoorError };

/** One call through a door. */
export interface DoorCall {
  capability: string;
  /** The decoded arguments (the transport parsed the body). */
  args: unknown;
  /** Who calls, as the host's `authenticate(request)` says: resolved when the door reaches that step; null is refused with 401. */
  principal: Principal | null | (() => Principal | null | Promise<Principal | null>);
  /** True when the request carried credentials that did not check out (the 401 says so). */
  badCredentials?: boolean;
  /** A retry with the same key gets the first answer and is not charged again. */
  idempotencyKey?: string | null;
  /** Chat only: the thread the invocation shows in (`key`: its `threadKey`, the job's). */
  thread?: { key: string; emit: Emit; turnId?: string; invocationId?: string; callId?: string; signal?: AbortSignal };
  /** Hears the invocation's lifecycle events (progress for MCP notifications). */
  observe?: (event: ThreadEvent) => void;
  /** Waits at most this long for this call (less than the door's bound: an MCP client that takes tasks). @default the door's `wait.timeoutMs` */
  waitMs?: number;
  /** Chat only: the caller's registry (the shared one with the principal's own capabilities over it, `ThreadHostOptions.capabilitiesOf`). @default the door's */
  registry?: Registry;
  /** REST and MCP: where a capability that requires confirmation asks a person (see `DoorApprovals`). @default the principal's thread the approvals name */
  ask?: ApprovalAsk;
  /** A person approved this call: it runs as the waiting job `jobId` (its record keeps `keep`), without asking again. */
  approved?: { jobId: string; threadKey: string; keep: Pick<Job, 'approval' | 'createdAt'> };
}

/** Where a call that needs a person's approval asks for it: an approval row in one of the principal's threads, or the MCP client's own user. */
export type ApprovalAsk = { in: 'thread'; threadId?: string } | { in: 'client' };

/**
 * REST and MCP: a capability that requires confirmation never runs on a
 * key's or a cookie's say-so alone. `hold` answers for such a call (a job
 * that waits for a person, or a refusal) and null for any other.
 */
export interface DoorApprovals {
  hold(request: { door: DoorName; descriptor: CapabilityDescriptor; args: unknown; principal: Principal; ask: ApprovalAsk | undefined }): Promise<DoorResponse | null>;
}

export interface DoorOptions {
  name: DoorName;
  registry: Registry;
  meter: Meter;
  executor: Executor;
  jobs: JobStore;
  /** Required for idempotency keys to be honoured. */
  idempotency?: IdempotencyCache<DoorResponse>;
  /** Which capabilities this door serves (MCP: reads plus opted-in mutates). @default every one */
  exposes?: (descriptor: CapabilityDescriptor) => boolean;
  /**
   * REST and MCP: runs a SKILL.md capability that launches a sub-thread in a thread of the
   * caller's own and answers with that thread's id and outcome (the thread host's `runSkillThread`).
   * @default none: such a skill gives its instructions, as any skill does there
   */
  runSkillThread?: (principal: Principal, descriptor: CapabilityDescriptor, args: unknown, ctx: CapabilityContext) => Promise<CapabilityResult>;
  /** How the door waits for the job: poll cadence and bound. @default { intervalMs: 1500, timeoutMs: 300000 } */
  wait?: { intervalMs?: number; timeoutMs?: number };
  /**
   * REST and MCP: a job's record is written once it has run `afterMs` (then
   * kept up to date), or when it ends: a call answered within `afterMs`
   * writes one record, or none for a read with `keepInlineReads: false` (its
   * answer still names the job; `GET /v1/jobs/{id}` does not know it). A
   * read's one record goes with the store's next batch, after the answer, where
   * the store can (`JobStore.putLater`).
   * @default every record at once (the chat)
   */
  record?: { afterMs: number; keepInlineReads: boolean };
  /** REST and MCP: where a capability that requires confirmation waits for a person. @default none: it runs (the chat asks on its own) */
  approvals?: DoorApprovals;
}

export interface Door {
  readonly name: DoorName;
  call(request: DoorCall): Promise<DoorResponse>;
}

const KEY = /^[\x21-\x7e]{1,255}$/;

/**
 * The one adapter shape every door uses: parse (is there such a verb on this
 * door?) → validate against the input schema → authenticate → meter gate →
 * the shared executor → wait for the job → the envelope. Refusals say why and
 * run nothing; a success is charged once, however many retries share its
 * idempotency key.
 * @example
 * const rest = createDoor({ name: 'rest', registry, authenticate, meter, executor, jobs, idempotency });
 * const response = await rest.call({ capability: 'records.list', args: {}, token });
 */
export function createDoor(options: DoorOptions): Door {
  const { name, registry, meter, executor, jobs, idempotency, exposes = () => true } = options;
  const wait = { intervalMs: options.wait?.intervalMs ?? 1_500, timeoutMs: options.wait?.timeoutMs ?? 300_000 };

  const refuse = (status: number, code: string, message: string, extra: Partial<DoorError> = {}): DoorResponse => ({
    kind: 'refused',
    error: { status, code, message, ...extra },
  });

  /** Meter gate → executor → wait. */
  const run = async (descriptor: CapabilityDescriptor, args: unknown, principal: Principal, call: DoorCall, checked: unknown): Promise<DoorResponse> => {
    const held = await meter.reserve(principal, descriptor);
    if (!held.ok) {
      return refuse(held.status, held.code, held.message, held.retryAfterSeconds !== undefined ? { retryAfterSeconds: held.retryAfterSeconds } : {});
    }
    // Counted against the request limit, charged nothing: a call that needs a person waits for one.
    const waiting = options.approvals && !call.approved ? await options.approvals.hold({ door: name, descriptor, args, principal, ask: call.ask }) : null;
    if (waiting) {
      held.release();
      return waiting;
    }
    const thread = call.thread;
    const approved = call.approved;
    const execution = executor.execute({
      capability: descriptor.name,
      args,
      threadKey: approved?.threadKey ?? thread?.key ?? `${name}:${principal.user}`,
      ...(approved ? { invocationId: approved.jobId, keep: approved.keep } : {}),
      ...(thread ? { emit: thread.emit } : {}),
      ...(thread?.signal ? { signal: thread.signal } : {}),
      ...(thread?.invocationId && !approved ? { invocationId: thread.invocationId } : {}),
      ...(thread?.turnId ? { turnId: thread.turnId } : {}),
      ...(thread?.callId ? { callId: thread.callId } : {}),
      // An external agent has no active-skills slab: a skill's instructions are its result.
      ...(name !== 'chat' ? { skillInstructions: true } : {}),
      ...(name !== 'chat' && options.runSkillThread ? { runSkillThread: (d: CapabilityDescriptor, a: unknown, ctx: CapabilityContext) => options.runSkillThread!(principal, d, a, ctx) } : {}),
      ...(call.observe ? { observe: call.observe } : {}),
      ...(call.registry ? { registry: call.registry } : {}),
      ...(options.record ? { record: { afterMs: options.record.afterMs, keepInline: descriptor.kind !== 'read' || options.record.keepInlineReads, later: descriptor.kind === 'read' } } : {}),
      // Validated above (the `validate` step): not parsed again.
      checkedArgs: { data: checked },
    });
    // Charged once per execution, when it has succeeded; whoever waits for it. The job is the one this process wrote, not read back.
    const final = execution.settled.then(async (result) => {
      // Its record is stored (a failed write is the store's error, as a read of it would have been).
      await execution.persist();
      const written = execution.job();
      const job = written && isTerminal(written.status) ? written : lostJob(execution.jobId, descriptor.name, result);
      if (job.status === 'done') held.commit();
      else held.release();
      return job;
    });
    final.catch(() => held.release());
    const bound = call.waitMs !== undefined ? { ...wait, timeoutMs: Math.min(wait.timeoutMs, call.waitMs), intervalMs: Math.min(wait.intervalMs, Math.max(10, call.waitMs)) } : wait;
    const outcome = await awaitJob(jobs, execution, { ...bound, ...(thread?.signal ? { signal: thread.signal } : {}) });
    if (outcome.status === 'running') {
      // Whoever follows the job (GET /v1/jobs/{id}, tasks/get, a retry) finds its record before this answer goes out.
      await execution.persist();
      return { kind: 'running', jobId: execution.jobId, job: execution.job() ?? outcome.job, replayed: false };
    }
    return { kind: 'done', jobId: execution.jobId, result: outcome.result, job: await final, replayed: false };
  };

  return {
    name,
    async call(call) {
      // parse
      const descriptor = (call.registry ?? registry).get(call.capability);
      if (!descriptor || !exposes(descriptor)) {
        return refuse(404, 'unknown_capability', `No capability named "${call.capability}" is served here.`);
      }
      // validate
      const parsed = descriptor.input.safeParse(call.args ?? {});
      if (!parsed.success) {
        const issues = toFieldIssues(parsed.error.issues);
        // The chat door's refusal is read by a person in the transcript; REST and MCP keep the field paths a program reads.
        const why = options.name === 'chat' ? issuesInWords(descriptor, issues) : `${formatIssues(parsed.error.issues)}.`;
        return refuse(400, 'invalid_arguments', `${descriptor.title} was not run: ${why}`, { issues });
      }
      // authenticate
      const principal = typeof call.principal === 'function' ? await call.principal() : call.principal;
      if (!principal) {
        return refuse(401, 'unauthorized', call.badCredentials ? 'The API key is not valid.' : 'Send an API key as "Authorization: Bearer <key>".');
      }
      const key = call.idempotencyKey;
      if (key === undefined || key === null || !idempotency) return run(descriptor, call.args ?? {}, principal, call, parsed.data);
      if (!KEY.test(key)) {
        return refuse(400, 'invalid_idempotency_key', 'Idempotency-Key must be 1–255 visible ASCII characters.');
      }
      // `claim` also asks a store that answers later (PostgreSQL) whether a finished answer is kept.
      const entry = await idempotency.claim(principal.user, key, fingerprint(descriptor.name, call.args ?? {}), () => run(descriptor, call.args ?? {}, principal, call, parsed.data));
      if (entry.conflict) {
        return refuse(409, 'idempotency_conflict', `Idempotency-Key "${key}" was already used with a different request; use a new key for a new request.`);
      }
      const response = await entry.value;
      if (response.kind === 'refused') {
        // Nothing ran: a later retry (after a top-up, after the rate window) may run.
        if (!entry.replayed) idempotency.forget(principal.user, key);
        return response;
      }
      if (!entry.replayed) return response;
      return replay(response, jobs);
    },
  };
}

/**
 * A door's answer as an idempotency store kept it (JSON), back as an answer:
 * its job in today's words (a record from 0.1 says `ready`, `threadId`).
 */
export function reviveDoorResponse(stored: unknown): DoorResponse {
  const response = stored as DoorResponse;
  return response.kind === 'refused' ? response : { ...response, job: storedJob(response.job) };
}

/** A replay: the first answer, brought up to date when its job has finished since. */
async function replay(response: Exclude<DoorResponse, { kind: 'refused' }>, jobs: JobStore): Promise<DoorResponse> {
  if (response.kind === 'running') {
    const job = await jobs.get(response.jobId);
    if (job && isTerminal(job.status)) {
      return { kind: 'done', jobId: job.id, result: job.result ?? errorResult(job.error?.message ?? `Job ${job.id} ${job.status}.`), job, replayed: true };
    }
    return { ...response, job: job ?? response.job, replayed: true };
  }
  return { ...response, replayed: true };
}

/** The record when the store lost it (a failing store must not lose the caller's result). */
function lostJob(id: string, capability: string, result: CapabilityResult): Job {
  const t = Date.now();
  return { id, capability, threadKey: '', status: result.isError ? 'failed' : 'done', result, createdAt: t, updatedAt: t };
}
