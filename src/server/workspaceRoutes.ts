import { ElicitationAnswerError } from '../runtime/host/elicitations';
import { Hono } from 'hono';
import type { Executor } from '../runtime/doors/executor';
import { FeedbackError, NothingWaitingError, ThreadLimitError, VersionError, type ThreadHost } from '../runtime/host/threadHost';
import type { JobStore } from '../runtime/jobs';
import type { AttachmentRef } from '../runtime/events/messages';
import { spaceOf, type Principal } from '../runtime/principal';
import type { AttachmentStore } from '../runtime/stores/attachmentStore';
import { SkillFileError } from '../runtime/slash/skillNode';
import { SkillLimitError } from '../runtime/slash/skillDirectory';
import { threadKey } from '../runtime/stores/eventStore';
import { OPTIONAL_METHODS, routes } from '../workspace/protocol';
import { ATTACHMENTS_FEATURE } from '../workspace/protocol/answers';
import { eventStreamResponse } from '../workspace/protocol/eventStreamWriter';
import { requirePrincipal, type PrincipalVariables } from './guard';
import { errorResponse } from './http';
import { mountRoute, readParams } from './mountRoute';
import { nodeEventWriter } from './nodeEventWriter';

/** What the workspace protocol routes need from the server. */
export interface WorkspaceRoutesOptions {
  host: ThreadHost;
  jobs: JobStore;
  executor: Executor;
  /** The caller, as the host's `authenticate` said; null answers 401. */
  principal(request: Request): Promise<Principal | null>;
  heartbeatMs: number;
  /** Manifest features beyond the optional methods (e.g. `mcpServers`). @default none */
  features?: readonly string[];
  /** Where a send's attachment ids are looked up (the principal's own only), and how many one message may carry. @default none: a send with attachments is refused */
  attachments?: { store: AttachmentStore; maxPerMessage: number };
}

type Env = { Variables: PrincipalVariables };

/** A request for the event stream itself (`Accept: text/event-stream`), as the remote workspace and EventSource make it. */
const wantsStream = (request: Request) => /\btext\/event-stream\b/i.test(request.headers.get('accept') ?? '');
const notFound = (id: string) => errorResponse(404, 'unknown_thread', `There is no thread "${id}" here.`);

const retryAfter = (seconds: number | undefined): Record<string, string> => (seconds === undefined ? {} : { 'retry-after': String(seconds) });

/** A send's attachment ids as the files they name: the principal's own, each once, at most `maxPerMessage`; else a refusal in words (nothing is sent). */
async function resolveAttachments(principal: Principal, ids: readonly string[], options: WorkspaceRoutesOptions['attachments']): Promise<AttachmentRef[] | Response> {
  if (!options) return errorResponse(400, 'attachments_off', 'This server does not take attachments.');
  const unique = [...new Set(ids)];
  if (unique.length > options.maxPerMessage) return errorResponse(413, 'too_many_attachments', `One message may carry at most ${options.maxPerMessage} files; this one has ${unique.length}.`);
  const owner = { user: principal.user, space: spaceOf(principal) };
  const refs: AttachmentRef[] = [];
  for (const id of unique) {
    const meta = await options.store.meta(owner, id);
    // Someone else's file is one that is not there: the same words as an unknown id.
    if (!meta) return errorResponse(404, 'unknown_attachment', `There is no attachment "${id}" here; nothing was sent.`);
    refs.push({ id: meta.id, name: meta.name, media_type: meta.mediaType, size: meta.size });
  }
  return refs;
}

/** A host error as the response a client can act on; anything else is rethrown (a 500). */
function refusal(error: unknown): Response {
  if (error instanceof ThreadLimitError) return errorResponse(429, 'thread_limit', error.message, undefined, retryAfter(error.retryAfterSeconds));
  if (error instanceof SkillLimitError) return errorResponse(429, 'skill_limit', error.message, undefined, retryAfter(error.retryAfterSeconds));
  if (error instanceof NothingWaitingError) return errorResponse(404, 'nothing_waiting', error.message);
  if (error instanceof ElicitationAnswerError) return errorResponse(400, 'invalid_answer', error.message);
  if (error instanceof FeedbackError) return errorResponse(error.code === 'unknown_message' ? 404 : 409, error.code, error.message);
  if (error instanceof VersionError) return errorResponse(error.code === 'busy' ? 409 : 404, error.code, error.message);
  if (error instanceof SkillFileError) return errorResponse(400, 'invalid_skill', error.message);
  throw error;
}

/** Versions (issue 40): Regenerate and a switch between versions; an edit is a turn with `edits`. */
function versionRoutes(app: Hono<Env>, host: ThreadHost, lastSeq: (principal: Principal, threadId: string) => Promise<{ lastSeq: number }>): void {
  mountRoute(app, routes.regenerate, async (c, { params: { threadId }, body }, reply) => {
    try {
      await host.regenerate(c.get('principal'), { threadId, ...body });
    } catch (error) {
      return refusal(error);
    }
    return reply(await lastSeq(c.get('principal'), threadId));
  });
  mountRoute(app, routes.showVersion, async (c, { params: { threadId }, body }, reply) => {
    try {
      await host.showVersion(c.get('principal'), { threadId, ...body });
    } catch (error) {
      return refusal(error);
    }
    return reply(await lastSeq(c.get('principal'), threadId));
  });
}

/**
 * The workspace protocol `createRemoteWorkspace` speaks: the manifest, turns,
 * the resumable event stream, direct invocations and cancel, decisions, the
 * active view and composer, the node query and skills. Every route needs a
 * principal and acts on that principal's threads only: another user's thread
 * id is a thread that does not exist (404).
 */
export function workspaceRoutes(options: WorkspaceRoutesOptions): Hono<Env> {
  const { host, jobs, executor } = options;
  const app = new Hono<Env>();

  const signedIn = requirePrincipal(options.principal, 'Sign in to use this workspace.');
  for (const path of ['/v1/manifest', '/v1/threads/*', '/v1/invocations', '/v1/invocations/*', '/v1/nodes', '/v1/skills']) app.use(path, signedIn);

  /** The write answer: the seq of the thread's last event. */
  const lastSeq = async (principal: Principal, threadId: string) => ({ lastSeq: await host.lastSeq(principal, threadId) });

  mountRoute(app, routes.manifest, (c, _input, reply) =>
    reply({
      capabilities: [...host.registry.describe()],
      driver: host.driver.info,
      alignment: host.alignment,
      anticipation: host.anticipation,
      features: [...OPTIONAL_METHODS, ...(options.features ?? []), ...(options.attachments ? [ATTACHMENTS_FEATURE] : [])],
      user: c.get('principal').user,
      ...(options.attachments ? { attachments: { maxPerMessage: options.attachments.maxPerMessage } } : {}),
    }),
  );

  mountRoute(app, routes.send, async (c, { params: { threadId }, body: { text, skill, activeView, composer, edits, attachments: ids } }, reply) => {
    const principal = c.get('principal');
    const attachments = ids?.length ? await resolveAttachments(principal, ids, options.attachments) : [];
    if (attachments instanceof Response) return attachments;
    try {
      if (activeView) await host.setView(principal, { threadId, view: activeView });
      if (composer) await host.setComposer(principal, { threadId, composer });
      await host.send(principal, { threadId, text, ...(skill !== undefined ? { skill } : {}), ...(edits !== undefined ? { edits } : {}), ...(attachments.length ? { attachments } : {}) });
    } catch (error) {
      return refusal(error);
    }
    return reply(await lastSeq(principal, threadId));
  });

  app.get(routes.events.path, async (c) => {
    const params = readParams(c, routes.events);
    if (!params.ok) return params.response;
    const threadId = params.value.threadId ?? '';
    const principal = c.get('principal');
    // Nothing is created for a thread that was never written: it is not there (and someone else's is not either).
    // A stream request (the remote workspace following the thread it shows) is told so without an
    // error, 204 No Content (an EventSource stops there), so a fresh page logs no 404; a plain GET is 404.
    if (!(await host.exists(principal, threadId))) return wantsStream(c.req.raw) ? new Response(null, { status: 204 }) : notFound(threadId);
    const log = { subscribe: (listener: Parameters<ThreadHost['subscribe']>[2], since?: number) => host.subscribe(principal, threadId, listener, since ?? 0) };
    // Served by the Node server: the frames go straight to its response, one write per client per turn of the fan-out.
    return eventStreamResponse(c.req.raw, log, { heartbeatMs: options.heartbeatMs }, nodeEventWriter(c.env));
  });

  mountRoute(app, routes.setView, async (c, { params: { threadId }, body: { view } }, reply) => {
    try {
      await host.setView(c.get('principal'), { threadId, view });
    } catch (error) {
      return refusal(error);
    }
    return reply(await lastSeq(c.get('principal'), threadId));
  });

  mountRoute(app, routes.decide, async (c, { params: { threadId }, body: { answer, ...rest } }, reply) => {
    try {
      await host.decide(c.get('principal'), { threadId, ...rest, ...(answer !== undefined ? { answer } : {}) });
    } catch (error) {
      return refusal(error);
    }
    return reply(await lastSeq(c.get('principal'), threadId));
  });

  mountRoute(app, routes.feedback, async (c, { params: { threadId }, body: { comment, ...rating } }, reply) => {
    try {
      await host.feedback(c.get('principal'), { threadId, ...rating, ...(comment !== undefined ? { comment } : {}) });
    } catch (error) {
      return refusal(error);
    }
    return reply(await lastSeq(c.get('principal'), threadId));
  });

  versionRoutes(app, host, lastSeq);

  mountRoute(app, routes.invoke, async (c, { body: { threadId, capability, args } }, reply) => {
    const principal = c.get('principal');
    try {
      const result = await host.invoke(principal, { threadId, capability, args: args ?? {} });
      return reply({ result, ...(await lastSeq(principal, threadId)) });
    } catch (error) {
      return refusal(error);
    }
  });

  mountRoute(app, routes.cancel, async (c, { params: { id }, body: { threadId } }, reply) => {
    const principal = c.get('principal');
    if (!(await host.exists(principal, threadId))) return notFound(threadId);
    const stopped = await host.cancel(principal, { threadId, id });
    // A job the chat handed to a tracked card runs on after its turn: cancel it too, if it is this thread's.
    const job = stopped ? null : await jobs.get(id);
    const ours = job?.threadKey === threadKey({ user: principal.user, space: principal.space ?? 'default', id: threadId });
    if (ours) executor.cancel(id, 'Cancelled by the user.');
    if (!stopped && !ours) return errorResponse(404, 'unknown_invocation', `Nothing named "${id}" is running in this thread.`);
    return reply({ cancelled: id }, 202);
  });

  mountRoute(app, routes.query, async (c, { query: { q, threadId } }, reply) => {
    try {
      return reply({ nodes: await host.query(c.get('principal'), { threadId, q }) });
    } catch (error) {
      return errorResponse(400, 'invalid_query', error instanceof Error ? error.message : String(error));
    }
  });

  mountRoute(app, routes.setComposer, async (c, { params: { threadId }, body: { composer } }, reply) => {
    try {
      await host.setComposer(c.get('principal'), { threadId, composer });
    } catch (error) {
      return refusal(error);
    }
    return reply(await lastSeq(c.get('principal'), threadId));
  });

  mountRoute(app, routes.saveSkill, async (c, { body }, reply) => {
    try {
      return reply({ node: await host.saveSkill(c.get('principal'), body) }, 201);
    } catch (error) {
      if (error instanceof SkillFileError && !(error instanceof SkillLimitError) && /scope|not allowed|may not|cannot write/i.test(error.message)) return errorResponse(403, 'forbidden', error.message);
      return refusal(error);
    }
  });

  mountRoute(app, routes.provider, async (c, { params: { threadId }, body: { provider, action } }, reply) => {
    const principal = c.get('principal');
    try {
      const request = { threadId, provider };
      await (action === 'connect' ? host.connect(principal, request) : host.disconnect(principal, request));
    } catch (error) {
      return errorResponse(400, 'provider_failed', error instanceof Error ? error.message : String(error));
    }
    return reply(await lastSeq(principal, threadId));
  });

  return app;
}
