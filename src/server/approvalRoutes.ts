import { Hono } from 'hono';
import type { Job, JobStore } from '../runtime/jobs';
import { hasScope, type Principal } from '../runtime/principal';
import type { ServerApprovals } from './doorApprovals';
import { errorResponse } from './http';
import { publicJob } from './restRoutes';

/** The scope a key needs to decide, on REST, a job that waits for a person's approval. */
export const APPROVE_SCOPE = 'approve';

export interface ApprovalRoutesOptions {
  approvals: ServerApprovals;
  jobs: JobStore;
  /** The caller, as the host's `authenticate` said; null answers 401. */
  principal(request: Request): Promise<Principal | null>;
  /** Who may see a job: another principal's job is one that is not there (404). */
  canReadJob(principal: Principal, job: Job): boolean;
  /** How long an approve waits for the run before it answers 202 with the job. */
  waitMs: number;
}

/**
 * `POST /v1/jobs/{id}/approve` and `/decline`: a principal whose key carries
 * the `approve` scope decides a job that waits for a person (403 without it;
 * another user's job is 404, as on `GET /v1/jobs/{id}`). The decision goes
 * through the job's approval row when it has one, the chat's own decide
 * path, so the row, the run and the job agree; the answer is the job: 200
 * when it has ended, 202 with `Location` while it runs.
 */
export function approvalRoutes(options: ApprovalRoutesOptions): Hono {
  const { approvals, jobs } = options;
  const app = new Hono();

  const decideRoute = (approved: boolean) => async (c: { req: { raw: Request; param(name: string): string } }) => {
    const principal = await options.principal(c.req.raw);
    if (!principal) return errorResponse(401, 'unauthorized', 'Send an API key as "Authorization: Bearer <key>".', undefined, { 'www-authenticate': 'Bearer' });
    const id = c.req.param('id');
    const job = await jobs.get(id);
    if (!job || !options.canReadJob(principal, job)) return errorResponse(404, 'unknown_job', `No job "${id}" for this key.`);
    if (!hasScope(principal, APPROVE_SCOPE)) {
      const where = job.approval?.threadId ? ` A person can decide it in the chat (thread "${job.approval.threadId}").` : '';
      return errorResponse(403, 'approve_scope_required', `Only a key with the "${APPROVE_SCOPE}" scope may ${approved ? 'approve' : 'decline'} a job here; this one does not have it.${where}`);
    }
    const decided = approvals.decide(job, approved, 'rest');
    decided.catch((error) => console.error('[chatsurface] deciding an approval failed:', error));
    // The run may take long: past the wait, the answer is the job as it stands, and polling goes on.
    const outcome = await Promise.race([decided, new Promise<null>((resolve) => (setTimeout(resolve, options.waitMs, null) as { unref?: () => void }).unref?.())]);
    if (outcome && !outcome.ok) return errorResponse(outcome.status, outcome.code, outcome.message);
    const current = (await jobs.get(id)) ?? job;
    const running = current.status === 'queued' || current.status === 'running';
    return Response.json(publicJob(current), { status: running ? 202 : 200, headers: running ? { location: `/v1/jobs/${id}`, 'retry-after': '2' } : {} });
  };

  app.post('/v1/jobs/:id/approve', decideRoute(true));
  app.post('/v1/jobs/:id/decline', decideRoute(false));
  return app;
}
