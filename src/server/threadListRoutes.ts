import { Hono, type MiddlewareHandler } from 'hono';
import type { Executor } from '../runtime/doors/executor';
import type { ThreadHost } from '../runtime/host/threadHost';
import type { JobStore } from '../runtime/jobs';
import { threadKey } from '../runtime/stores/eventStore';
import type { Principal } from '../runtime/principal';
import type { ThreadIndex } from '../runtime/stores/threadIndex';
import { routes } from '../workspace/protocol';
import { requirePrincipal, type PrincipalVariables } from './guard';
import { errorResponse } from './http';
import { mountRoute } from './mountRoute';

export interface ThreadListRoutesOptions {
  host: ThreadHost;
  /** The store's thread list (`host.events.threads`). */
  index: ThreadIndex;
  /** The jobs the thread's capability calls run as: a delete cancels the thread's running ones first. */
  jobs: JobStore;
  executor: Executor;
  /** The caller, as the host's `authenticate` said; null answers 401. */
  principal(request: Request): Promise<Principal | null>;
}

type Env = { Variables: PrincipalVariables };

const notFound = (id: string) => errorResponse(404, 'unknown_thread', `There is no thread "${id}" here.`);
const ownerOf = (principal: Principal) => ({ user: principal.user, space: principal.space ?? 'default' });

/**
 * The signed-in user's thread list: `GET /v1/threads` (newest activity first,
 * `q` searched with the store's full-text search, `archived=true`, `cursor`,
 * `limit`), `POST /v1/threads/{id}/title`, `POST /v1/threads/{id}/archived`
 * and `DELETE /v1/threads/{id}` (what runs in it stops first; its events
 * leave the store). Every route acts on the caller's threads only: another
 * user's thread is 404, as one that does not exist.
 */
export function threadListRoutes(options: ThreadListRoutesOptions): Hono<Env> {
  const { host, index, jobs, executor } = options;
  const app = new Hono<Env>();
  const signIn = requirePrincipal(options.principal, 'Sign in to see your threads.');
  // The workspace routes' sign-in covers `/v1/threads/*` already when they are mounted first: ask once.
  const signedIn: MiddlewareHandler<Env> = async (c, next) => (c.get('principal') ? next() : signIn(c, next));
  app.use(routes.listThreads.path, signedIn);
  app.use(`${routes.listThreads.path}/*`, signedIn);

  mountRoute(app, routes.listThreads, async (c, { query: { q, archived, cursor, limit } }, reply) => {
    const page = await index.list(ownerOf(c.get('principal')), {
      ...(q ? { search: q } : {}),
      archived: archived === 'true',
      ...(cursor ? { cursor } : {}),
      ...(limit ? { limit: Number(limit) } : {}),
    });
    return reply(page);
  });

  mountRoute(app, routes.renameThread, async (c, { params: { threadId }, body: { title } }, reply) => {
    const thread = await index.rename({ ...ownerOf(c.get('principal')), id: threadId }, title);
    return thread ? reply({ thread }) : notFound(threadId);
  });

  mountRoute(app, routes.archiveThread, async (c, { params: { threadId }, body: { archived } }, reply) => {
    const thread = await index.setArchived({ ...ownerOf(c.get('principal')), id: threadId }, archived);
    return thread ? reply({ thread }) : notFound(threadId);
  });

  mountRoute(app, routes.deleteThread, async (c, { params: { threadId } }, reply) => {
    const principal = c.get('principal');
    if (!(await host.exists(principal, threadId))) return notFound(threadId);
    // The thread's calls run as jobs of the doors' executor, which a turn's stop does not reach by itself.
    const key = threadKey({ ...ownerOf(principal), id: threadId });
    for (const job of await jobs.list({ threadKey: key, limit: 1_000 })) {
      if (job.status === 'queued' || job.status === 'running') executor.cancel(job.id, 'The thread was deleted.');
    }
    await host.deleteThread(principal, threadId);
    return reply({ deleted: threadId });
  });

  return app;
}
