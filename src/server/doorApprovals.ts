import {
  approvalIdOf,
  decidedJob,
  DEFAULT_APPROVAL_EXPIRY_MS,
  DEFAULT_APPROVAL_THREAD,
  doorOfJob,
  expiredJob,
  isExpired,
  jobIdOfApproval,
  needsPerson,
  notWaitingMessage,
  rowReason,
  sameRequest,
  waitingJob,
  type AskingDoor,
} from '../runtime/doors/approvals';
import type { Door, DoorApprovals, DoorResponse } from '../runtime/doors/door';
import type { Executor } from '../runtime/doors/executor';
import { chatResult } from '../runtime/host/chatCalls';
import { NothingWaitingError, ThreadLimitError, type DoorApprovalHook, type DoorApprovalRun, type RunCapability, type ThreadHost } from '../runtime/host/threadHost';
import { createId } from '../runtime/ids';
import type { Job, JobApproval, JobStore } from '../runtime/jobs';
import type { Principal } from '../runtime/principal';
import { spaceOf } from '../runtime/principal';
import { THREAD_ID, THREAD_ID_RULE } from '../runtime/threadId';

/** When a capability that requires confirmation is called through REST or MCP: where it waits, and for how long. */
export interface ApprovalOptions {
  /** The principal's thread whose approval row decides a call that names none (REST: the `ChatSurface-Approval-Thread` header). @default 'main' */
  thread?: string;
  /** How long a job waits for a person before it expires (and never runs). @default 86400000 (24 hours) */
  expireAfterMs?: number;
}

type ApprovalJobs = JobStore & { settleWaiting(job: Job): Promise<boolean>; waiting(): Promise<Job[]> };

/** The outcome of a decision made on REST or in an MCP client's form. */
export type DecideOutcome = { ok: true; job: Job; response?: DoorResponse } | { ok: false; status: 409; code: 'not_waiting'; message: string };

/** The server's side of confirmation on every door. */
export interface ServerApprovals {
  /** The REST and MCP doors' gate: such a call becomes a job that waits for a person. */
  readonly gate: DoorApprovals;
  /** The thread host's hook: a person's decision on the approval row of such a job. */
  readonly hook: DoorApprovalHook;
  /**
   * Decides a waiting job on REST (`POST /v1/jobs/{id}/approve`) or in the MCP client's form: through
   * its approval row when it has one (the same decide path as the chat), else at once. Resolves when
   * the run has ended or the door's wait is over.
   */
  decide(job: Job, approved: boolean, via: 'rest' | 'mcp'): Promise<DecideOutcome>;
  /** Ends every job whose wait is over (expired, nothing ran); returns how many. */
  sweep(): Promise<number>;
  /** Stops the expiry sweep. */
  close(): void;
}

export interface ServerApprovalsOptions extends ApprovalOptions {
  jobs: ApprovalJobs;
  /** Asked for on use: the host is made with the hook, the doors with the gate. */
  host(): ThreadHost;
  doors(): { rest: Door; mcp: Door; executor: Executor };
  now?: () => number;
}

const sameOwner = (a: Principal, b: Principal) => a.user === b.user && spaceOf(a) === spaceOf(b);

/**
 * Confirmation on every door (issue 43): a REST or MCP call of a capability that requires
 * confirmation is held as a job that waits for a person; its approval row in the principal's
 * thread (the row a chip gets) or the MCP client's form decides it, or a key with the approve
 * scope on REST. Whichever decision comes first is taken, once (the job store's atomic
 * `settleWaiting`); the job then runs through its own door and executor, under its own id.
 */
export function createServerApprovals(options: ServerApprovalsOptions): ServerApprovals {
  const { jobs, now = Date.now } = options;
  const expireAfterMs = options.expireAfterMs ?? DEFAULT_APPROVAL_EXPIRY_MS;
  const defaultThread = options.thread ?? DEFAULT_APPROVAL_THREAD;
  const titleOf = (name: string) => options.host().registry.get(name)?.title ?? name;
  /**
   * Jobs this process decided on REST or in an MCP form and is now closing the row of: only its own
   * decide call's hook runs such a job (in the thread), and if the row is gone it runs it directly.
   * Another instance's chat click on the same row finds the job decided and only closes the row.
   */
  const handoff = new Map<string, { approved: boolean; ran: boolean }>();

  /** Runs an approved job through its own door: in a thread (events to its log) or on its own. */
  const runJob = async (job: Job, thread?: Parameters<RunCapability>[2]): Promise<DoorResponse> => {
    const held = job.held!;
    const { rest, mcp } = options.doors();
    const response = await (doorOfJob(job) === 'mcp' ? mcp : rest).call({
      capability: job.capability,
      args: held.args,
      principal: held.principal,
      approved: { jobId: job.id, threadKey: job.threadKey, keep: { approval: job.approval!, createdAt: job.createdAt } },
      ...(thread
        ? { thread: { key: thread.threadKey, emit: thread.emit, ...(thread.signal ? { signal: thread.signal } : {}), ...(thread.turnId ? { turnId: thread.turnId } : {}) } }
        : {}),
    });
    if (response.kind === 'refused') {
      // Refused when it came to run (the meter, a capability since removed): the job says why instead of staying queued.
      const { code, message } = response.error;
      const { held: _held, ...rest } = job;
      await jobs.put({ ...rest, status: 'failed', error: { code, message }, updatedAt: now() });
    }
    return response;
  };

  const runner = (job: Job): DoorApprovalRun => ({
    invocationId: job.id,
    run: async (name, _args, o) => {
      const response = await runJob(job, o);
      const stopped = response.kind === 'running' && o.signal?.aborted ? options.doors().executor.settled(response.jobId) : undefined;
      if (stopped) return stopped;
      return chatResult(response, titleOf(name), name, { emit: o.emit, invocationId: job.id });
    },
  });

  const expire = async (job: Job): Promise<boolean> => {
    if (!(await jobs.settleWaiting(expiredJob(job, now(), titleOf(job.capability))))) return false;
    if (job.held) await closeRow(job, false, job.held.principal);
    return true;
  };

  /** Resolves a job's approval row through the host's decide path; true when that decide ran the job (its hook took the hand-off). */
  const closeRow = async (job: Job, approve: boolean, principal: Principal): Promise<boolean> => {
    const { threadId, approvalId } = job.approval ?? {};
    if (!threadId || !approvalId) return false;
    const mine = { approved: approve, ran: false };
    handoff.set(job.id, mine);
    try {
      await options.host().decide(principal, { threadId, id: approvalId, decision: approve ? 'approve' : 'deny' });
    } catch (error) {
      if (!(error instanceof NothingWaitingError)) throw error;
    } finally {
      handoff.delete(job.id);
    }
    return mine.ran;
  };

  const gate = holdGate({ jobs, host: options.host, now, thread: defaultThread, expireAfterMs });

  const hook: DoorApprovalHook = {
    async decided(principal, approvalId, approved) {
      const jobId = jobIdOfApproval(approvalId);
      const job = jobId ? await jobs.get(jobId) : undefined;
      if (!job || job.approval?.approvalId !== approvalId) return null;
      if (job.held && !sameOwner(job.held.principal, principal)) return null;
      if (job.status === 'waiting') {
        if (isExpired(job, now())) {
          await jobs.settleWaiting(expiredJob(job, now(), titleOf(job.capability)));
          return { ended: notWaitingMessage({ ...job, status: 'cancelled', approval: { ...job.approval, state: 'expired' } }) };
        }
        const decided = decidedJob(job, approved, 'chat', now(), titleOf(job.capability));
        if (!(await jobs.settleWaiting(decided))) {
          const current = await jobs.get(job.id);
          return { ended: current ? notWaitingMessage(current) : `Job ${job.id} is gone.` };
        }
        return approved ? runner(decided) : { settled: 'denied' };
      }
      // Decided on REST, in an MCP form or by the sweep: the row follows the job's decision.
      const mine = handoff.get(job.id);
      if (mine?.approved && job.held) {
        mine.ran = true;
        return runner(job);
      }
      const state = job.approval.state;
      if (state === 'approved') return { settled: 'approved' };
      if (state === 'declined' || state === 'expired') return { settled: 'denied' };
      return { ended: notWaitingMessage(job) };
    },
  };

  const decide: ServerApprovals['decide'] = async (job, approved, via) => {
    if (job.status !== 'waiting') return { ok: false, status: 409, code: 'not_waiting', message: notWaitingMessage(job) };
    if (isExpired(job, now())) {
      await expire(job);
      return { ok: false, status: 409, code: 'not_waiting', message: notWaitingMessage({ ...job, status: 'cancelled', approval: { ...job.approval!, state: 'expired' } as JobApproval }) };
    }
    const decided = decidedJob(job, approved, via, now(), titleOf(job.capability));
    if (!(await jobs.settleWaiting(decided))) {
      const current = (await jobs.get(job.id)) ?? job;
      return { ok: false, status: 409, code: 'not_waiting', message: notWaitingMessage(current) };
    }
    // Its approval row closes through the chat's own decide path, which runs it there (a card in the
    // thread); this decider won the job, so if that did not run it (no row), it runs it here, once.
    const ran = job.held ? await closeRow(decided, approved, job.held.principal) : false;
    let response: DoorResponse | undefined;
    if (!ran && approved) response = await runJob(decided);
    return { ok: true, job: (await jobs.get(job.id)) ?? decided, ...(response ? { response } : {}) };
  };

  const sweep = async () => {
    let ended = 0;
    for (const job of await jobs.waiting()) if (isExpired(job, now()) && (await expire(job))) ended++;
    return ended;
  };
  const every = Math.min(60_000, Math.max(20, Math.floor(expireAfterMs / 4)));
  const timer = setInterval(() => void sweep().catch((error) => console.error('[chatsurface] ending expired approvals failed:', error)), every);
  (timer as { unref?: () => void }).unref?.();

  return { gate, hook, decide, sweep, close: () => clearInterval(timer) };
}

/** The REST and MCP doors' gate: a call of a capability that requires confirmation becomes a job that waits, with its approval row when it asks in a thread. */
function holdGate(ctx: { jobs: ApprovalJobs; host(): ThreadHost; now(): number; thread: string; expireAfterMs: number }): DoorApprovals {
  const { jobs, now, expireAfterMs } = ctx;
  return {
    async hold({ door, descriptor, args, principal, ask }) {
      if (door === 'chat' || !needsPerson(descriptor)) return null;
      const threadId = ask?.in === 'client' ? undefined : (ask?.threadId ?? ctx.thread);
      if (threadId !== undefined && !THREAD_ID.test(threadId)) {
        return { kind: 'refused', error: { status: 400, code: 'invalid_thread', message: `The approval thread "${threadId.slice(0, 40)}" is not a thread id. ${THREAD_ID_RULE}.` } };
      }
      if (door === 'mcp' && threadId !== undefined) {
        // An agent that asks again gets the job that already waits, not a second row for the person.
        const open = (await jobs.list({ threadKey: `mcp:${principal.user}`, limit: 50 })).find((j) => j.status === 'waiting' && j.approval?.threadId === threadId && sameRequest(j, descriptor.name, args) && !isExpired(j, now()));
        if (open) return { kind: 'running', jobId: open.id, job: open, replayed: false };
      }
      const job = waitingJob({ id: createId('inv'), descriptor, door, principal, args, ...(threadId !== undefined ? { threadId } : {}), now: now(), expireAfterMs });
      await jobs.put(job);
      if (threadId !== undefined) {
        try {
          await ctx.host().requestApproval(principal, { threadId, id: approvalIdOf(job.id), capability: descriptor.name, args, reason: rowReason(door as AskingDoor, descriptor.title) });
        } catch (error) {
          const message = error instanceof ThreadLimitError ? error.message : 'The approval could not be shown in the chat.';
          await jobs.settleWaiting({ ...job, held: undefined, status: 'cancelled', error: { code: 'not_asked', message }, updatedAt: now() }).catch(() => undefined);
          if (error instanceof ThreadLimitError) return { kind: 'refused', error: { status: 429, code: 'thread_limit', message: `${descriptor.title} needs a person's approval in the chat, but: ${error.message}` } };
          throw error;
        }
      }
      return { kind: 'running', jobId: job.id, job, replayed: false };
    },
  };
}
