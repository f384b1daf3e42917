import type { CapabilityResult } from '../envelope';
import type { Job } from '../jobs';
import { boundResult } from './mcpTools';

/** The MCP Tasks extension's identifier (2026-07-28: a client declares it in its per-request capabilities). */
export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

/** A task as `tasks/get` and a task-creating `tools/call` return it (Tasks extension, 2026-07-28). */
export interface McpTask {
  taskId: string;
  status: 'working' | 'input_required' | 'completed' | 'cancelled' | 'failed';
  statusMessage?: string;
  /** ISO 8601. */
  createdAt: string;
  lastUpdatedAt: string;
  /** null: the task is kept as long as its job record. */
  ttlMs: number | null;
  pollIntervalMs?: number;
  /** Present when `completed`: the call's `CallToolResult` (2026-07-28 shape, `resultType: 'complete'`). */
  result?: CapabilityResult & { resultType: 'complete' };
}

/** True when a request's client capabilities include the Tasks extension. */
export function clientSupportsTasks(capabilities: unknown): boolean {
  const extensions = (capabilities as { extensions?: Record<string, unknown> } | undefined)?.extensions;
  return typeof extensions === 'object' && extensions !== null && TASKS_EXTENSION in extensions;
}

/** The MCP resource that reads a job's record (`resources/read`), as `GET /v1/jobs/{id}` does. */
export function jobResourceUri(jobId: string): string {
  return `chatsurface://jobs/${jobId}`;
}

/**
 * What a client without task support is told when a call outlasts the wait. It goes out as a
 * tool error (`isError: true`), which MCP does not check against the tool's output schema, so
 * strict clients accept it; the words say it has not failed and where its result will be.
 */
export function followJobText(jobId: string): string {
  return (
    `Still running: job ${jobId}. It has not failed; it did not finish within this call's wait and runs on, so do not call the tool again. ` +
    `Follow it with GET /v1/jobs/${jobId} (same key) or read the resource ${jobResourceUri(jobId)}; the result appears there when the job is done.`
  );
}

/** The `_meta` key of a result that names its job (`{ id, status }`, plus where to follow it while it runs). */
export const JOB_META_KEY = 'chatsurface/job';

/**
 * A job record as an MCP task: the task id is the job id, so `tasks/get`
 * and `GET /v1/jobs/{id}` read the same record. Queued and running are
 * `working` (with the progress message); done is `completed` with the
 * result; a failed job is `completed` with an `isError` result saying why
 * (the extension keeps `failed` for JSON-RPC errors); cancelled is
 * `cancelled`.
 * @example
 * taskOfJob(await jobs.get('inv_abc'), 1000);
 * // → { taskId: 'inv_abc', status: 'working', statusMessage: 'Crawling (2/5)', … }
 */
export function taskOfJob(job: Job, pollIntervalMs: number, outputLimit = Infinity): McpTask {
  const base = { taskId: job.id, createdAt: new Date(job.createdAt).toISOString(), lastUpdatedAt: new Date(job.updatedAt).toISOString(), ttlMs: null };
  switch (job.status) {
    case 'waiting':
      return { ...base, status: 'working', statusMessage: job.approval?.message ?? 'Waiting for a person to approve it.', pollIntervalMs };
    case 'queued':
    case 'running': {
      const progress = job.progress;
      const counted = progress && progress.total !== undefined ? ` (${progress.progress}/${progress.total})` : '';
      const statusMessage = progress?.message ? `${progress.message}${counted}` : job.status === 'queued' ? 'Queued.' : `Running${counted}.`;
      return { ...base, status: 'working', statusMessage, pollIntervalMs };
    }
    case 'done':
      return { ...base, status: 'completed', result: { ...boundResult(job.result ?? { content: [] }, outputLimit, job.id), resultType: 'complete' } };
    case 'failed': {
      const message = job.error?.message ?? 'The capability failed.';
      const result: CapabilityResult = job.result?.isError ? job.result : { content: [{ type: 'text', text: message }], isError: true };
      return { ...base, status: 'completed', statusMessage: message, result: { ...boundResult(result, outputLimit, job.id), resultType: 'complete' } };
    }
    case 'cancelled':
      return { ...base, status: 'cancelled', statusMessage: job.error?.message ?? 'Cancelled.' };
    default:
      return job.status satisfies never;
  }
}
