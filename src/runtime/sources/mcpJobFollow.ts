import { CapabilityFailure, type CapabilityContext } from '../capability';
import type { CapabilityResult } from '../envelope';
import type { McpConnection } from './mcpConnection';

/*
 * A call the server answered "still running as a job" (the kit's own MCP door does, to a client
 * without tasks: a tool error whose `_meta["chatsurface/job"]` names the job and a resource to
 * read it by): the card follows the job by reading that resource until it ends, instead of
 * showing the answer as a failure.
 */

/** The `_meta` key of the job a still-running answer names. */
export const RUNNING_JOB_META = 'chatsurface/job';

/** What a still-running answer says of its job. */
export interface RunningJob {
  id: string;
  status: 'queued' | 'running' | 'waiting';
  /** The MCP resource that reads the job's record. */
  resource: string;
}

/** The job a still-running answer names, or null for any other result. */
export function runningJob(result: CapabilityResult): RunningJob | null {
  if (result.isError !== true) return null;
  const job = (result._meta as Record<string, unknown> | undefined)?.[RUNNING_JOB_META] as Record<string, unknown> | undefined;
  if (!job || typeof job.id !== 'string' || typeof job.resource !== 'string') return null;
  if (job.status !== 'queued' && job.status !== 'running' && job.status !== 'waiting') return null;
  return { id: job.id, status: job.status, resource: job.resource };
}

/** A job's record as its resource reads (`GET /v1/jobs/{id}`'s body). */
interface JobRecord {
  status?: unknown;
  progress?: { progress?: unknown; total?: unknown; message?: unknown };
  result?: unknown;
  error?: { code?: unknown; message?: unknown };
}

export interface FollowOptions {
  server: string;
  tool: string;
  /** Between two reads. @default 1000 */
  pollMs?: number;
}

/**
 * Reads the job's resource until the job ends: its progress goes to the card, its result is the
 * call's; a failed or cancelled job is a failure in words. Stop ends the following (the job runs
 * on at the server, which has no way to stop it from here) and rejects with the signal's reason.
 */
export async function followJob(connection: McpConnection, job: RunningJob, ctx: Pick<CapabilityContext, 'signal' | 'progress'>, options: FollowOptions): Promise<CapabilityResult> {
  const { server, tool, pollMs = 1_000 } = options;
  let shown = -1;
  if (job.status === 'waiting') ctx.progress(0, undefined, `Waiting for a person's approval on "${server}".`);
  for (;;) {
    await pause(pollMs, ctx.signal);
    const contents = await connection.readResource(job.resource);
    const text = contents.find((c): c is typeof c & { text: string } => typeof (c as { text?: unknown }).text === 'string')?.text;
    let record: JobRecord;
    try {
      record = JSON.parse(text ?? '') as JobRecord;
    } catch {
      throw new CapabilityFailure('mcp_error', `The MCP server "${server}" said ${tool} runs on as job ${job.id}, but its record could not be read.`, true);
    }
    const p = record.progress;
    if (p && typeof p.progress === 'number' && p.progress > shown) {
      shown = p.progress;
      ctx.progress(p.progress, typeof p.total === 'number' && p.total > 0 ? p.total : undefined, typeof p.message === 'string' ? p.message : undefined);
    }
    switch (record.status) {
      case 'done':
        return record.result as CapabilityResult;
      case 'failed': {
        const why = typeof record.error?.message === 'string' ? `: ${record.error.message}` : '.';
        throw new CapabilityFailure(typeof record.error?.code === 'string' ? record.error.code : 'job_failed', `The MCP server "${server}" could not finish ${tool} (job ${job.id})${why}`, false);
      }
      case 'cancelled':
        throw new CapabilityFailure('job_cancelled', `The MCP server "${server}" cancelled ${tool} (job ${job.id}) before it finished.`, true);
      default:
    }
  }
}

/** Waits `ms`, or rejects with the signal's reason when it aborts first. */
function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', stop);
      resolve();
    }, ms);
    const stop = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    signal?.addEventListener('abort', stop, { once: true });
  });
}
