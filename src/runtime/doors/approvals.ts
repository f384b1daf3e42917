import type { CapabilityDescriptor } from '../capability';
import type { Job, JobApproval } from '../jobs';
import type { Principal } from '../principal';
import { canonicalJson } from '../canonicalJson';

// A capability that requires confirmation (`requires_user_confirmation`) never runs on a key's or a
// cookie's say-so alone: called through REST or MCP, it becomes a job that waits for a person. These
// are that job's records and words; the server wires them to the chat's approval rows (server/doorApprovals.ts).

/** How long a job waits for a person before it expires (24 hours). */
export const DEFAULT_APPROVAL_EXPIRY_MS = 24 * 60 * 60 * 1000;

/** The thread an approval row goes to when the call names none: the chat's first thread. */
export const DEFAULT_APPROVAL_THREAD = 'main';

/** True for a capability that must wait for a person on REST and MCP: a mutate with `requires_user_confirmation`. */
export function needsPerson(descriptor: Pick<CapabilityDescriptor, 'kind' | 'requires_user_confirmation'>): boolean {
  return descriptor.kind === 'mutate' && descriptor.requires_user_confirmation === true;
}

const APPROVAL_PREFIX = 'approval_';

/** The id of the approval row that decides a waiting job (`approval_inv_…`): the row names its job. */
export function approvalIdOf(jobId: string): string {
  return `${APPROVAL_PREFIX}${jobId}`;
}

/** The job an approval row decides, or null for a row that is not a door's (a chip's `approval_…`). */
export function jobIdOfApproval(approvalId: string): string | null {
  return approvalId.startsWith(`${APPROVAL_PREFIX}inv_`) ? approvalId.slice(APPROVAL_PREFIX.length) : null;
}

/** The two doors whose calls wait for a person. */
export type AskingDoor = 'rest' | 'mcp';

/** The door a waiting job came from, by its key (`rest:<user>`, `mcp:<user>`). */
export function doorOfJob(job: Pick<Job, 'threadKey'>): AskingDoor {
  return job.threadKey.startsWith('mcp:') ? 'mcp' : 'rest';
}

/** What the door is called in words. */
export const DOOR_WORDS: Record<AskingDoor, string> = { rest: 'the REST API', mcp: 'an MCP client' };

const when = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

/** The sentence a waiting job carries: what it waits for, where a person approves it, when it expires. */
export function waitingMessage(job: Pick<Job, 'id'>, title: string, expiresAt: number, threadId: string | undefined): string {
  const where = threadId
    ? `a person approves or denies it in the chat (the approval row in thread "${threadId}"), or a key with the approve scope sends POST /v1/jobs/${job.id}/approve`
    : 'the MCP client asks its user; a key with the approve scope may also send POST /v1/jobs/' + job.id + '/approve';
  return `${title} needs a person's approval before it runs, and nothing has run yet: ${where}. Follow it with GET /v1/jobs/${job.id}. Unless someone approves it by ${when(expiresAt)}, it expires and does not run.`;
}

/** Why the approval row is there, for the person who reads it in the chat. */
export function rowReason(door: AskingDoor, title: string): string {
  return `Asked for through ${DOOR_WORDS[door]}, not in this chat. ${title} requires your approval before it runs: approve it only if you or your program asked for it.`;
}

/** A new job that waits for a person: nothing runs until one approves it. */
export function waitingJob(request: {
  id: string;
  descriptor: Pick<CapabilityDescriptor, 'name' | 'title'>;
  door: AskingDoor;
  principal: Principal;
  args: unknown;
  threadId?: string;
  now: number;
  expireAfterMs: number;
}): Job {
  const { id, descriptor, door, principal, args, threadId, now } = request;
  const expiresAt = now + request.expireAfterMs;
  const approval: JobApproval = {
    state: 'waiting',
    message: waitingMessage({ id }, descriptor.title, expiresAt, threadId),
    expiresAt,
    ...(threadId !== undefined ? { threadId, approvalId: approvalIdOf(id) } : {}),
  };
  return { id, capability: descriptor.name, threadKey: `${door}:${principal.user}`, status: 'waiting', approval, held: { args, principal }, createdAt: now, updatedAt: now };
}

/** Where a decision came from, in words. */
const VIA_WORDS: Record<NonNullable<JobApproval['decidedVia']>, string> = {
  chat: 'in the chat',
  rest: 'through the REST API',
  mcp: "in the MCP client's approval form",
};

/**
 * The job once a person decided: approved, it is `queued` and keeps what it runs with (`held`)
 * until its run starts; declined, it ends `cancelled` and nothing ran.
 */
export function decidedJob(job: Job, approved: boolean, via: NonNullable<JobApproval['decidedVia']>, now: number, title = job.capability): Job {
  const approval: JobApproval = {
    ...job.approval!,
    state: approved ? 'approved' : 'declined',
    decidedVia: via,
    decidedAt: now,
    message: approved ? `Approved ${VIA_WORDS[via]}; it runs now.` : `Declined ${VIA_WORDS[via]}; it did not run.`,
  };
  if (approved) return { ...job, status: 'queued', approval, updatedAt: now };
  const { held: _held, ...rest } = job;
  return { ...rest, status: 'cancelled', approval, error: { code: 'declined', message: `${title} was declined ${VIA_WORDS[via]}, so it did not run.` }, updatedAt: now };
}

/** The job once nobody approved it in time: `cancelled`, nothing ran. */
export function expiredJob(job: Job, now: number, title = job.capability): Job {
  const { held: _held, ...rest } = job;
  const message = `Nobody approved it by ${when(job.approval!.expiresAt)}, so it expired and did not run.`;
  return { ...rest, status: 'cancelled', approval: { ...job.approval!, state: 'expired', message }, error: { code: 'expired', message: `${title}: ${message}` }, updatedAt: now };
}

/** Why a job can no longer be decided, in words (it is not waiting). */
export function notWaitingMessage(job: Job): string {
  if (job.approval?.state === 'expired') return `Job ${job.id} expired before anyone approved it; it did not run. Call the capability again to ask again.`;
  if (job.approval?.state === 'declined') return `Job ${job.id} was already declined; it did not run.`;
  if (job.approval?.state === 'approved') return `Job ${job.id} was already approved; it runs or has run (status ${job.status}).`;
  return `Job ${job.id} is not waiting for approval (status ${job.status}).`;
}

/** True when a waiting job's time is up at `now`. */
export function isExpired(job: Job, now: number): boolean {
  return job.status === 'waiting' && job.approval !== undefined && now >= job.approval.expiresAt;
}

/** The same request: one capability with the same arguments (an agent that asks again gets the job that already waits). */
export function sameRequest(job: Job, capability: string, args: unknown): boolean {
  return job.capability === capability && job.held !== undefined && canonicalJson(job.held.args) === canonicalJson(args);
}
