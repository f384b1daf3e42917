import { Hono, type Context } from 'hono';
import type * as z from 'zod/mini';
import type { Executor } from '../runtime/doors/executor';
import { toFieldIssues } from '../runtime/events';
import { NothingWaitingError, ThreadLimitError, type ThreadHost } from '../runtime/host/threadHost';
import type { JobStore } from '../runtime/jobs';
import { threadEventResponse } from '../runtime/node/threadEventStream';
import type { Principal } from '../runtime/principal';
import { SkillFileError } from '../runtime/slash/skillNode';
import { threadKey } from '../runtime/stores/eventStore';
import {
  CancelBody,
  ComposerBody,
  DecisionBody,
  InvokeBody,
  OPTIONAL_METHODS,
  ProviderBody,
  SkillBody,
  THREAD_ID,
  TurnBody,
  ViewBody,
} from '../workspace/protocol';
import { requirePrincipal, type PrincipalVariables } from './guard';
import { errorResponse, readJson } from './http';

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
}

type Env = { Variables: PrincipalVariables };

async function body<T>(c: Context, schema: z.ZodMiniType<T>): Promise<{ ok: true; value: T } | { ok: false; response: Response }> {
  const raw = await readJson(c);
  if (!raw.ok) return raw;
  const parsed = schema.safeParse(raw.value);
  if (parsed.success) return { ok: true, value: parsed.data };
  const issues = toFieldIssues(parsed.error.issues);
  return { ok: false, response: errorResponse(400, 'invalid_request', issues.map((i) => `${i.path}: ${i.message}`).join('; '), issues) };
}

const notFound = (id: string) => errorResponse(404, 'unknown_thread', `There is no thread "${id}" here.`);

/** A host error as the response a client can act on; anything else is rethrown (a 500). */
function refusal(error: unknown): Response {
  if (error instanceof ThreadLimitError) return errorResponse(429, 'thread_limit', error.message);
  if (error instanceof NothingWaitingError) return errorResponse(404, 'nothing_waiting', error.message);
  if (error instanceof SkillFileError) return errorResponse(400, 'invalid_skill', error.message);
  throw error;
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

  /** The thread id of the path, or a 400 that says what a valid one looks like. */
  const threadOf = (c: Context<Env>): { ok: true; id: string } | { ok: false; response: Response } => {
    const id = c.req.param('id') ?? '';
    if (THREAD_ID.test(id)) return { ok: true, id };
    return { ok: false, response: errorResponse(400, 'invalid_thread_id', 'A thread id is 1–128 characters from A–Z a–z 0–9 _ . -') };
  };
  const lastSeq = async (c: Context<Env>, id: string) => c.json({ lastSeq: await host.lastSeq(c.get('principal'), id) });

  app.get('/v1/manifest', (c) =>
    c.json({
      capabilities: host.registry.describe(),
      driver: host.driver.info,
      alignment: host.alignment,
      anticipation: host.anticipation,
      features: options.features?.length ? [...OPTIONAL_METHODS, ...options.features] : OPTIONAL_METHODS,
      user: c.get('principal').user,
    }),
  );

  app.post('/v1/threads/:id/turns', async (c) => {
    const thread = threadOf(c);
    if (!thread.ok) return thread.response;
    const parsed = await body(c, TurnBody);
    if (!parsed.ok) return parsed.response;
    const principal = c.get('principal');
    const { text, activeView, composer } = parsed.value;
    try {
      if (activeView) await host.setView(principal, { threadId: thread.id, view: activeView });
      if (composer) await host.setComposer(principal, { threadId: thread.id, composer });
      await host.send(principal, { threadId: thread.id, text });
    } catch (error) {
      return refusal(error);
    }
    return lastSeq(c, thread.id);
  });

  app.get('/v1/threads/:id/events', async (c) => {
    const thread = threadOf(c);
    if (!thread.ok) return thread.response;
    const principal = c.get('principal');
    // Nothing is created for a thread that was never written: it is not there (and someone else's is not either).
    if (!(await host.exists(principal, thread.id))) return notFound(thread.id);
    const log = { subscribe: (listener: Parameters<ThreadHost['subscribe']>[2], since?: number) => host.subscribe(principal, thread.id, listener, since ?? 0) };
    return threadEventResponse(c.req.raw, log, { heartbeatMs: options.heartbeatMs });
  });

  app.post('/v1/threads/:id/view', async (c) => {
    const thread = threadOf(c);
    if (!thread.ok) return thread.response;
    const parsed = await body(c, ViewBody);
    if (!parsed.ok) return parsed.response;
    try {
      await host.setView(c.get('principal'), { threadId: thread.id, view: parsed.value.view });
    } catch (error) {
      return refusal(error);
    }
    return lastSeq(c, thread.id);
  });

  app.post('/v1/threads/:id/decisions', async (c) => {
    const thread = threadOf(c);
    if (!thread.ok) return thread.response;
    const parsed = await body(c, DecisionBody);
    if (!parsed.ok) return parsed.response;
    try {
      const { answer, ...rest } = parsed.value;
      await host.decide(c.get('principal'), { threadId: thread.id, ...rest, ...(answer !== undefined ? { answer } : {}) });
    } catch (error) {
      return refusal(error);
    }
    return lastSeq(c, thread.id);
  });

  app.post('/v1/invocations', async (c) => {
    const parsed = await body(c, InvokeBody);
    if (!parsed.ok) return parsed.response;
    const { threadId, capability, args } = parsed.value;
    const principal = c.get('principal');
    try {
      const result = await host.invoke(principal, { threadId, capability, args: args ?? {} });
      return c.json({ result, lastSeq: await host.lastSeq(principal, threadId) });
    } catch (error) {
      return refusal(error);
    }
  });

  app.post('/v1/invocations/:id/cancel', async (c) => {
    const parsed = await body(c, CancelBody);
    if (!parsed.ok) return parsed.response;
    const principal = c.get('principal');
    const id = c.req.param('id');
    const { threadId } = parsed.value;
    if (!(await host.exists(principal, threadId))) return notFound(threadId);
    const stopped = await host.cancel(principal, { threadId, id });
    // A job the chat handed to a tracked card runs on after its turn: cancel it too, if it is this thread's.
    const job = stopped ? null : await jobs.get(id);
    const ours = job?.threadId === threadKey({ user: principal.user, space: principal.space ?? 'default', id: threadId });
    if (ours) executor.cancel(id, 'Cancelled by the user.');
    if (!stopped && !ours) return errorResponse(404, 'unknown_invocation', `Nothing named "${id}" is running in this thread.`);
    return c.json({ cancelled: id }, 202);
  });

  app.get('/v1/nodes', async (c) => {
    const q = c.req.query('q') ?? '';
    const threadId = c.req.query('threadId') ?? 'default';
    try {
      return c.json({ nodes: await host.query(c.get('principal'), { threadId, q }) });
    } catch (error) {
      return errorResponse(400, 'invalid_query', error instanceof Error ? error.message : String(error));
    }
  });

  app.post('/v1/threads/:id/composer', async (c) => {
    const thread = threadOf(c);
    if (!thread.ok) return thread.response;
    const parsed = await body(c, ComposerBody);
    if (!parsed.ok) return parsed.response;
    try {
      await host.setComposer(c.get('principal'), { threadId: thread.id, composer: parsed.value.composer });
    } catch (error) {
      return refusal(error);
    }
    return lastSeq(c, thread.id);
  });

  app.post('/v1/skills', async (c) => {
    const parsed = await body(c, SkillBody);
    if (!parsed.ok) return parsed.response;
    try {
      return c.json({ node: await host.saveSkill(c.get('principal'), parsed.value) }, 201);
    } catch (error) {
      if (error instanceof SkillFileError && /scope|not allowed|may not|cannot write/i.test(error.message)) return errorResponse(403, 'forbidden', error.message);
      return refusal(error);
    }
  });

  app.post('/v1/threads/:id/providers', async (c) => {
    const thread = threadOf(c);
    if (!thread.ok) return thread.response;
    const parsed = await body(c, ProviderBody);
    if (!parsed.ok) return parsed.response;
    const principal = c.get('principal');
    try {
      const request = { threadId: thread.id, provider: parsed.value.provider };
      await (parsed.value.action === 'connect' ? host.connect(principal, request) : host.disconnect(principal, request));
    } catch (error) {
      return errorResponse(400, 'provider_failed', error instanceof Error ? error.message : String(error));
    }
    return lastSeq(c, thread.id);
  });

  return app;
}
