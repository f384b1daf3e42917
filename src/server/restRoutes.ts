import { Hono } from 'hono';
import type { Principal } from '../runtime/principal';
import { parseThreadKey } from '../runtime/stores/eventStore';
import type { Door, DoorResponse } from '../runtime/doors/door';
import { openApiDocument, type OpenApiOptions } from '../runtime/doors/openapi';
import type { Job, JobStore } from '../runtime/jobs';
import type { Registry } from '../runtime/registry';
import { doorErrorResponse, errorResponse, jsonResponse, readJson } from './http';

export interface RestRoutesOptions {
  door: Door;
  registry: Registry;
  jobs: JobStore;
  /** The caller, as the host's `authenticate` said; null answers 401. */
  principal(request: Request): Promise<Principal | null>;
  openapi: OpenApiOptions;
  /** Who may read a job. @default its own REST/MCP jobs, and chat jobs */
  canReadJob?: (principal: Principal, job: Job) => boolean;
}

/** The request header that names the caller's thread for an approval row (default: the approvals' thread, `main`). */
export const APPROVAL_THREAD_HEADER = 'chatsurface-approval-thread';

/** A principal sees the jobs it started through REST or MCP, and those of its own chat threads. */
export function defaultCanReadJob(principal: Principal, job: Job): boolean {
  const door = /^(rest|mcp):(.*)$/.exec(job.threadKey);
  if (door) return door[2] === principal.user;
  const thread = parseThreadKey(job.threadKey);
  return thread !== null && thread.user === principal.user && thread.space === (principal.space ?? 'default');
}

/** A job as REST shows it (the internal thread key, and what a waiting job will run with, left out). */
export function publicJob(job: Job): Omit<Job, 'threadKey' | 'held'> {
  const { threadKey: _thread, held: _held, ...rest } = job;
  return rest;
}

/**
 * The REST door: `POST /v1/capabilities/{name}` (bearer key, optional
 * `Idempotency-Key`), `GET /v1/jobs/{id}`, and the OpenAPI 3.1 document.
 * The envelope is the body of a 200; a job still running after the wait is a
 * 202 with `Location: /v1/jobs/{id}`.
 */
export function restRoutes(options: RestRoutesOptions): Hono {
  const { door, registry, jobs, canReadJob = defaultCanReadJob } = options;
  const app = new Hono();

  // Behind a principal like every /v1 route: the document names every capability of the workspace.
  app.get('/v1/openapi.json', async (c) => {
    if (!(await options.principal(c.req.raw))) return errorResponse(401, 'unauthorized', 'Send an API key as "Authorization: Bearer <key>" to read the REST door\'s OpenAPI document.', undefined, { 'www-authenticate': 'Bearer' });
    const serverUrl = options.openapi.serverUrl ?? new URL(c.req.url).origin;
    return c.json(openApiDocument(registry.describe(), { ...options.openapi, serverUrl }));
  });

  app.post('/v1/capabilities/:name', async (c) => {
    const raw = await readJson(c);
    if (!raw.ok) return raw.response;
    const response = await door.call({
      capability: c.req.param('name'),
      args: raw.value,
      principal: () => options.principal(c.req.raw),
      badCredentials: c.req.header('authorization') !== undefined,
      idempotencyKey: c.req.header('idempotency-key') ?? null,
      // A capability that requires confirmation waits for a person: its approval row goes to this thread of the caller's.
      ask: { in: 'thread', ...(c.req.header(APPROVAL_THREAD_HEADER) !== undefined ? { threadId: c.req.header(APPROVAL_THREAD_HEADER)! } : {}) },
    });
    return restResponse(response);
  });

  app.get('/v1/jobs/:id', async (c) => {
    const principal = await options.principal(c.req.raw);
    if (!principal) return errorResponse(401, 'unauthorized', 'Send an API key as "Authorization: Bearer <key>".', undefined, { 'www-authenticate': 'Bearer' });
    const id = c.req.param('id');
    const job = await jobs.get(id);
    if (!job || !canReadJob(principal, job)) return errorResponse(404, 'unknown_job', `No job "${id}" for this key.`);
    return c.json(publicJob(job));
  });

  return app;
}

/** A door response on the wire: 200 envelope, 202 job, or a JSON error. */
export function restResponse(response: DoorResponse): Response {
  if (response.kind === 'refused') return doorErrorResponse(response.error);
  const headers: Record<string, string> = { 'x-job-id': response.jobId };
  if (response.replayed) headers['idempotent-replayed'] = 'true';
  if (response.kind === 'running') {
    headers.location = `/v1/jobs/${response.jobId}`;
    headers['retry-after'] = '2';
    return jsonResponse(publicJob(response.job), 202, headers);
  }
  const { job, result } = response;
  // A tool-level error is part of the envelope (isError), as on MCP; a crash or a bad result is a 500.
  if (job.status === 'done' || job.error?.code === 'tool_error') return jsonResponse(result, 200, headers);
  if (job.error?.code === 'invalid_arguments') return errorResponse(400, 'invalid_arguments', job.error.message, job.error.issues, headers);
  if (job.status === 'cancelled') return errorResponse(409, 'cancelled', job.error?.message ?? 'The job was cancelled.', undefined, headers);
  return errorResponse(500, job.error?.code ?? 'handler_error', job.error?.message ?? 'The capability failed.', job.error?.issues, headers);
}
