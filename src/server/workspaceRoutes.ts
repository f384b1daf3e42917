import { Hono } from 'hono';
import { z } from 'zod';
import type { Executor } from '../runtime/doors/executor';
import { ActiveViewSchema, ComposerSchema, toFieldIssues } from '../runtime/events';
import type { JobStore } from '../runtime/jobs';
import { threadEventResponse } from '../runtime/node/threadEventStream';
import type { LocalWorkspace } from '../workspace/localWorkspace';
import { errorResponse, readJson, threadIdOf } from './http';

/** What the workspace protocol routes need from the server. */
export interface WorkspaceRoutesOptions {
  workspace: LocalWorkspace;
  jobs: JobStore;
  executor: Executor;
  /** The seq of a thread's last event (the client waits until its stream has it). */
  lastSeq(threadId: string): number;
  heartbeatMs: number;
}

const TurnBody = z.object({
  text: z.string().trim().min(1, 'Type a message first.').max(20_000),
  /** Optional: the view and selections to apply before the turn (ARCHITECTURE §10). */
  activeView: z.optional(ActiveViewSchema),
  composer: z.optional(ComposerSchema),
});
const ViewBody = z.object({ view: ActiveViewSchema });
const InvokeBody = z.object({ threadId: z.string().regex(/^[A-Za-z0-9_.-]{1,128}$/), capability: z.string().min(1).max(128), args: z.unknown().optional() });
const CancelBody = z.object({ threadId: z.string().regex(/^[A-Za-z0-9_.-]{1,128}$/) });
const ComposerBody = z.object({ composer: ComposerSchema });
const SkillBody = z.object({
  threadId: z.string().regex(/^[A-Za-z0-9_.-]{1,128}$/),
  id: z.string().min(1).max(64),
  description: z.string().min(1).max(1024),
  instructions: z.string().min(1).max(60_000),
  scope: z.enum(['user', 'space']).optional(),
});
const ProviderBody = z.object({ provider: z.string().min(1).max(128), action: z.enum(['connect', 'disconnect']) });
const DecisionBody = z.object({
  id: z.string().min(1),
  decision: z.enum(['accept', 'dismiss', 'approve', 'deny', 'answer']),
  answer: z.string().max(20_000).optional(),
});

/** Optional adapter methods a local workspace may offer (slash skills, composer, providers). */
interface OptionalMethods {
  query?(request: { threadId: string; q: string }): Promise<unknown[]>;
  setComposer?(request: { threadId: string; composer: z.infer<typeof ComposerSchema> }): void;
  saveSkill?(request: z.infer<typeof SkillBody>): Promise<unknown>;
  connect?(request: { threadId: string; provider: string }): Promise<void>;
  disconnect?(request: { threadId: string; provider: string }): Promise<void>;
}

/** The optional adapter methods the wrapped workspace has: the remote workspace offers the same ones. */
export const OPTIONAL_METHODS = ['query', 'setComposer', 'saveSkill', 'connect', 'disconnect'] as const;

async function body<T>(c: Parameters<typeof readJson>[0], schema: z.ZodType<T>): Promise<{ ok: true; value: T } | { ok: false; response: Response }> {
  const raw = await readJson(c);
  if (!raw.ok) return raw;
  const parsed = schema.safeParse(raw.value);
  if (parsed.success) return { ok: true, value: parsed.data };
  const issues = toFieldIssues(parsed.error.issues);
  return { ok: false, response: errorResponse(400, 'invalid_request', issues.map((i) => `${i.path}: ${i.message}`).join('; '), issues) };
}

/**
 * The workspace protocol `createRemoteWorkspace` speaks: the manifest, turns,
 * the resumable event stream, direct invocations and cancel, decisions, the
 * active view and the node query. Every request runs on the wrapped local
 * workspace, so a remote thread behaves exactly like a local one.
 */
export function workspaceRoutes(options: WorkspaceRoutesOptions): Hono {
  const { workspace, jobs, executor } = options;
  const app = new Hono();

  const optional = workspace as LocalWorkspace & OptionalMethods;
  const features = OPTIONAL_METHODS.filter((name) => typeof optional[name] === 'function');
  const unsupported = (what: string) => errorResponse(501, 'not_supported', `This workspace does not support ${what}.`);

  app.get('/v1/manifest', (c) => c.json({ ...workspace.manifest, features }));

  app.post('/v1/threads/:id/turns', async (c) => {
    const thread = threadIdOf(c);
    if (!thread.ok) return thread.response;
    const parsed = await body(c, TurnBody);
    if (!parsed.ok) return parsed.response;
    const { text, activeView, composer } = parsed.value;
    if (activeView) workspace.setView({ threadId: thread.id, view: activeView });
    if (composer && optional.setComposer) optional.setComposer({ threadId: thread.id, composer });
    await workspace.send({ threadId: thread.id, text });
    return c.json({ lastSeq: options.lastSeq(thread.id) });
  });

  app.get('/v1/threads/:id/events', (c) => {
    const thread = threadIdOf(c);
    if (!thread.ok) return thread.response;
    const log = { subscribe: (listener: Parameters<LocalWorkspace['subscribe']>[1], since?: number) => workspace.subscribe(thread.id, listener, { since: since ?? 0 }) };
    return threadEventResponse(c.req.raw, log, { heartbeatMs: options.heartbeatMs });
  });

  app.post('/v1/threads/:id/view', async (c) => {
    const thread = threadIdOf(c);
    if (!thread.ok) return thread.response;
    const parsed = await body(c, ViewBody);
    if (!parsed.ok) return parsed.response;
    workspace.setView({ threadId: thread.id, view: parsed.value.view });
    return c.json({ lastSeq: options.lastSeq(thread.id) });
  });

  app.post('/v1/threads/:id/decisions', async (c) => {
    const thread = threadIdOf(c);
    if (!thread.ok) return thread.response;
    const parsed = await body(c, DecisionBody);
    if (!parsed.ok) return parsed.response;
    try {
      const { answer, ...rest } = parsed.value;
      await workspace.decide({ threadId: thread.id, ...rest, ...(answer !== undefined ? { answer } : {}) });
    } catch (error) {
      return errorResponse(404, 'nothing_waiting', error instanceof Error ? error.message : String(error));
    }
    return c.json({ lastSeq: options.lastSeq(thread.id) });
  });

  app.post('/v1/invocations', async (c) => {
    const parsed = await body(c, InvokeBody);
    if (!parsed.ok) return parsed.response;
    const { threadId, capability, args } = parsed.value;
    const result = await workspace.invoke({ threadId, capability, args: args ?? {} });
    return c.json({ result, lastSeq: options.lastSeq(threadId) });
  });

  app.post('/v1/invocations/:id/cancel', async (c) => {
    const parsed = await body(c, CancelBody);
    if (!parsed.ok) return parsed.response;
    const id = c.req.param('id');
    const { threadId } = parsed.value;
    workspace.cancel({ threadId, id });
    // A job the chat handed to a tracked card runs on after its turn: cancel it too.
    const job = await jobs.get(id);
    if (job && job.threadId === threadId) executor.cancel(id, 'Cancelled by the user.');
    return c.json({ cancelled: id }, 202);
  });

  app.get('/v1/nodes', async (c) => {
    if (!optional.query) return unsupported('a node catalog (skills, agents, models)');
    const q = c.req.query('q') ?? '';
    const threadId = c.req.query('threadId') ?? 'default';
    try {
      return c.json({ nodes: await optional.query({ threadId, q }) });
    } catch (error) {
      return errorResponse(400, 'invalid_query', error instanceof Error ? error.message : String(error));
    }
  });

  app.post('/v1/threads/:id/composer', async (c) => {
    const thread = threadIdOf(c);
    if (!thread.ok) return thread.response;
    if (!optional.setComposer) return unsupported('composer selections');
    const parsed = await body(c, ComposerBody);
    if (!parsed.ok) return parsed.response;
    optional.setComposer({ threadId: thread.id, composer: parsed.value.composer });
    return c.json({ lastSeq: options.lastSeq(thread.id) });
  });

  app.post('/v1/skills', async (c) => {
    if (!optional.saveSkill) return unsupported('saving skills');
    const parsed = await body(c, SkillBody);
    if (!parsed.ok) return parsed.response;
    try {
      return c.json({ node: await optional.saveSkill(parsed.value) }, 201);
    } catch (error) {
      return errorResponse(400, 'invalid_skill', error instanceof Error ? error.message : String(error));
    }
  });

  app.post('/v1/threads/:id/providers', async (c) => {
    const thread = threadIdOf(c);
    if (!thread.ok) return thread.response;
    const parsed = await body(c, ProviderBody);
    if (!parsed.ok) return parsed.response;
    const method = optional[parsed.value.action];
    if (!method) return unsupported(`${parsed.value.action}ing providers`);
    try {
      await method.call(workspace, { threadId: thread.id, provider: parsed.value.provider });
    } catch (error) {
      return errorResponse(400, 'provider_failed', error instanceof Error ? error.message : String(error));
    }
    return c.json({ lastSeq: options.lastSeq(thread.id) });
  });

  return app;
}
