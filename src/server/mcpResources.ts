import { ResourceNotFoundError, type ListResourcesResult, type ListResourceTemplatesResult, type ReadResourceResult, type Resource } from '@modelcontextprotocol/server';
import { jobResourceUri } from '../runtime/doors/mcpTasks';
import type { Job, JobStore } from '../runtime/jobs';
import type { Principal } from '../runtime/principal';
import { publicJob } from './restRoutes';

/** The resource template of a job record: `chatsurface://jobs/{id}`. */
export const JOB_RESOURCE_TEMPLATE = 'chatsurface://jobs/{id}';

/** Jobs `resources/list` names, newest first (older ones are read by id through the template). */
const LISTED_JOBS = 50;

const JOB_URI = /^chatsurface:\/\/jobs\/([A-Za-z0-9_-]{1,128})$/;

export interface JobResourcesDeps {
  jobs: JobStore;
  /** Who may read a job: the REST door's rule (`defaultCanReadJob` unless the host set its own). */
  canReadJob(principal: Principal, job: Job): boolean;
  /** A capability's title, for the listing. */
  title(capability: string): string;
}

function resourceOfJob(job: Job, title: string): Resource {
  return {
    uri: jobResourceUri(job.id),
    name: job.id,
    title: `${title}: ${job.status}`,
    description: `The job record of a ${title} call (${job.status}), as GET /v1/jobs/${job.id} shows it: status, progress, result or error.`,
    mimeType: 'application/json',
  };
}

/**
 * `resources/list`: the principal's most recent calls through REST and MCP (`rest:<user>`,
 * `mcp:<user>`), newest first, each as `chatsurface://jobs/{id}`; only jobs the host's rule lets
 * it read. A chat thread's jobs are not listed but read by id like any other.
 */
export async function listJobResources(deps: JobResourcesDeps, principal: Principal): Promise<ListResourcesResult> {
  const lists = await Promise.all(['mcp', 'rest'].map((door) => deps.jobs.list({ threadKey: `${door}:${principal.user}`, limit: LISTED_JOBS })));
  const jobs = lists
    .flat()
    .filter((job) => deps.canReadJob(principal, job))
    .sort((a, b) => b.createdAt - a.createdAt)
    .slice(0, LISTED_JOBS);
  return { resources: jobs.map((job) => resourceOfJob(job, deps.title(job.capability))) };
}

/** `resources/templates/list`: the one template, any readable job by id. */
export function jobResourceTemplates(): ListResourceTemplatesResult {
  return {
    resourceTemplates: [
      {
        uriTemplate: JOB_RESOURCE_TEMPLATE,
        name: 'job',
        title: 'A capability call (job)',
        description: 'A job record by its id (inv_…): the same record GET /v1/jobs/{id} shows, with the result once the call is done.',
        mimeType: 'application/json',
      },
    ],
  };
}

/**
 * `resources/read`: the job record as JSON text, the body `GET /v1/jobs/{id}` answers. Another
 * principal's job, or one that is not there, is "not found" (-32602 with the URI), as on REST.
 */
export async function readJobResource(deps: JobResourcesDeps, principal: Principal, uri: string): Promise<ReadResourceResult> {
  const id = JOB_URI.exec(uri)?.[1];
  const job = id ? await deps.jobs.get(id) : undefined;
  if (!job || !deps.canReadJob(principal, job)) throw new ResourceNotFoundError(uri, `No resource "${uri}" for this key: this server serves job records as chatsurface://jobs/{id}, for jobs of this key.`);
  return { contents: [{ uri, mimeType: 'application/json', text: JSON.stringify(publicJob(job)) }] };
}

/** Completion of the template's `id`: the principal's listed job ids that start with what was typed. */
export async function completeJobId(deps: JobResourcesDeps, principal: Principal, value: string): Promise<string[]> {
  const { resources } = await listJobResources(deps, principal);
  return resources.map((r) => r.name).filter((id) => id.startsWith(value));
}
