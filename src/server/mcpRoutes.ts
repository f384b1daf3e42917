import {
  CLIENT_CAPABILITIES_META_KEY,
  createMcpHandler,
  ProtocolError,
  ProtocolErrorCode,
  Server,
  type AuthInfo,
  type CallToolResult,
  type ListToolsResult,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { Hono } from 'hono';
import { z } from 'zod';
import type { Door, DoorResponse } from '../runtime/doors/door';
import type { Executor } from '../runtime/doors/executor';
import { boundResult, InvalidCursor, mcpTools, pageOfTools } from '../runtime/doors/mcpTools';
import { JOB_META_KEY, TASKS_EXTENSION, clientSupportsTasks, followJobText, jobResourceUri, taskOfJob } from '../runtime/doors/mcpTasks';
import { errorResult } from '../runtime/results';
import type { ThreadEvent } from '../runtime/events';
import type { Job, JobStore } from '../runtime/jobs';
import type { Principal } from '../runtime/principal';
import type { Registry } from '../runtime/registry';
import type { ServerApprovals } from './doorApprovals';
import { addressed } from './clientAddress';
import { errorResponse } from './http';
import { answerApproval, askForApproval, clientElicits } from './mcpApproval';
import type { McpOAuth } from './mcpAuthOptions';
import { createLogLevels, logOutcome, QUIET, requestLog } from './mcpLogging';
import type { SkillsOf } from './mcpPrompts';
import { plainAnswer, plainCall, type PlainCall } from './mcpFastCall';
import { registerServing, servingCapabilities } from './mcpServing';
import { primed, revisionOf } from './mcpStreams';

export interface McpRoutesOptions {
  door: Door;
  registry: Registry;
  /** The caller, as the host's `authenticate` said; null answers 401 before any JSON-RPC is read. */
  principal(request: Request): Promise<Principal | null>;
  /** Mutates the host opts in; reads are always served. */
  mutates: readonly string[];
  /** Characters of JSON a tool result may take. */
  outputLimit: number;
  /** Bytes a request body may take. */
  bodyBytes: number;
  serverInfo: { name: string; version: string };
  /** The job records behind `tasks/get` (the same ones `GET /v1/jobs/{id}` reads). */
  jobs: JobStore;
  /** Where `tasks/cancel` stops a running job. */
  executor: Pick<Executor, 'cancel'>;
  /** Who may follow a job (the REST door's rule). */
  canReadJob(principal: Principal, job: Job): boolean;
  /** Tools per `tools/list` page; the rest follow `nextCursor`. @default 100 */
  pageSize?: number;
  /** How long a call from a client with task support runs before it becomes a task. @default 2000 */
  taskAfterMs?: number;
  /** How often a task's client is told to poll. @default 1000 */
  pollIntervalMs?: number;
  /** Where a call that needs a person's approval waits (the client's own form when it offers elicitation, else the chat). */
  approvals?: ServerApprovals;
  /** OAuth 2.1 beside `principal`: access tokens of the host's authorization server, and the spec's 401/403 challenges. */
  oauth?: McpOAuth;
  /** The principal's slash skills, served as MCP prompts (`prompts/list`, `prompts/get`, completion of their task); none without it. */
  skillsOf?: SkillsOf;
}

/**
 * The MCP door at `/mcp`, on the official SDK v2 (`createMcpHandler`): the
 * 2026-07-28 revision (`server/discover`, a `_meta` envelope on every
 * request, no session) and, on the same URL, 2025-era clients through the
 * SDK's stateless legacy leg. Bearer keys (and, with `oauth`, access tokens of
 * the host's authorization server) are checked before any JSON-RPC is read; a JSON-RPC batch is refused (neither served revision has batches).
 * Tools are generated from the registry (reads, plus the mutates the host
 * opted in), listed in pages; calls go through the same door adapter as
 * REST, progress becomes `notifications/progress` when the client sent a
 * token, and results are bounded. A slow call from a client that declares
 * the Tasks extension becomes a task whose `tasks/get` and `tasks/cancel`
 * follow the job record of `GET /v1/jobs/{id}`; from any other client it is
 * a tool error naming the job. Beside the tools: the principal's slash skills
 * as prompts, its job records as resources, completion, and log messages at
 * the client's level (`mcpServing.ts`); SSE answers open with a priming event.
 * A plain 2026-07-28 `tools/call` (no progress, log level, tasks or elicitation:
 * see `plainCall`) is answered by the door itself exactly as the SDK answers it,
 * without the SDK's per-request transport (`mcpFastCall.ts`).
 */
export function mcpRoutes(options: McpRoutesOptions): Hono {
  const { door, registry, mutates, outputLimit, serverInfo, jobs, executor, canReadJob } = options;
  const pageSize = options.pageSize ?? 100;
  const taskAfterMs = options.taskAfterMs ?? 2_000;
  const pollIntervalMs = options.pollIntervalMs ?? 1_000;
  const app = new Hono();

  const principalOf = (ctx: ServerContext): Principal => (ctx.http?.authInfo?.extra as { principal: Principal }).principal;

  const jobOf = async (ctx: ServerContext, { taskId }: { taskId: string }): Promise<Job> => {
    const job = await jobs.get(taskId);
    if (!job || !canReadJob(principalOf(ctx), job)) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `No task "${taskId}" for this key.`);
    return job;
  };

  const title = (name: string) => registry.get(name)?.title ?? name;
  const levels = createLogLevels();
  const serving = { jobs, canReadJob, title, levels, principalOf, ...(options.skillsOf ? { skillsOf: options.skillsOf } : {}) };

  const build = ({ era }: { era: 'legacy' | 'modern' }) => {
    // Low-level Server rather than McpServer: the tool list must carry the registry's own JSON Schemas, byte for byte,
    // and prompts and resources are the calling principal's, found per request (the modern era's servers are pooled).
    const server = new Server(serverInfo, {
      capabilities: { tools: {}, ...servingCapabilities(serving), ...(era === 'modern' ? { extensions: { [TASKS_EXTENSION]: {} } } : {}) },
    });
    registerServing(server, era, serving);
    server.setRequestHandler('tools/list', (request) => {
      try {
        return pageOfTools(mcpTools(registry.describe(), mutates), request.params?.cursor, pageSize) as ListToolsResult;
      } catch (error) {
        if (error instanceof InvalidCursor) throw new ProtocolError(ProtocolErrorCode.InvalidParams, error.message);
        throw error;
      }
    });
    server.setRequestHandler('tools/call', async (request, ctx) => {
      const principal = principalOf(ctx);
      const name = request.params.name;
      // notifications/message at the client's level (-32602 for a level MCP has not, before anything runs).
      const log = requestLog(ctx, era, principal, levels);
      const progressToken = request.params._meta?.progressToken;
      const observe = (event: ThreadEvent) => {
        if (event.type !== 'capability.progress') return;
        log('debug', { message: `${name}: ${event.message ?? 'progress'}`, tool: name, progress: event.progress, ...(event.total !== undefined ? { total: event.total } : {}) });
        if (progressToken === undefined) return;
        const params = { progressToken, progress: event.progress, ...(event.total !== undefined ? { total: event.total } : {}), ...(event.message !== undefined ? { message: event.message } : {}) };
        ctx.mcpReq.notify({ method: 'notifications/progress', params }).catch(() => undefined);
      };
      const tasks = era === 'modern' && clientSupportsTasks(clientCapabilitiesOf(ctx));
      // A capability that requires confirmation: asked in the client's own form where it offers one (2026-07-28), else in the chat.
      const elicits = era === 'modern' && clientElicits(clientCapabilitiesOf(ctx));
      if (elicits && options.approvals) {
        const call = { name: request.params.name, args: request.params.arguments ?? {}, principal };
        const answered = await answerApproval(ctx, call, { jobs, approvals: options.approvals, title, result: (r) => mcpResult(r, outputLimit) });
        if (answered) return answered;
      }
      log('debug', { message: `Calling ${name}.`, tool: name });
      const response = await door.call({
        ask: elicits ? { in: 'client' } : { in: 'thread' },
        capability: name,
        args: request.params.arguments ?? {},
        principal,
        // Progress, for notifications/progress and the log; none asked for, no observer.
        ...(progressToken !== undefined || log !== QUIET ? { observe } : {}),
        ...(tasks ? { waitMs: taskAfterMs } : {}),
      });
      logOutcome(log, name, response);
      if (response.kind === 'running' && response.job.status === 'waiting' && elicits) return askForApproval(response.job, title(response.job.capability));
      if (response.kind === 'running' && tasks && response.job.status !== 'waiting') {
        // The job is durable before this answer goes out: tasks/get finds it at once.
        return { ...taskOfJob(response.job, pollIntervalMs), resultType: 'task' } as unknown as CallToolResult;
      }
      return mcpResult(response, outputLimit);
    });
    if (era === 'modern') {
      // The Tasks extension (io.modelcontextprotocol/tasks, 2026-07-28): a task is the call's job record.
      server.setRequestHandler('tasks/get', { params: TaskParams }, async (params, ctx) => ({ ...taskOfJob(await jobOf(ctx, params), pollIntervalMs, outputLimit) }));
      server.setRequestHandler('tasks/cancel', { params: TaskParams }, async (params, ctx) => {
        const job = await jobOf(ctx, params);
        executor.cancel(job.id, 'Cancelled by the MCP client (tasks/cancel).');
        return {};
      });
    }
    return server;
  };

  const handler = createMcpHandler(pooled(build), { maxRequestBodySize: options.bodyBytes, legacy: 'stateless' });

  /** Who is calling: the host's principal (API keys, its hook), else with `oauth` an access token; or the refusal to send. */
  const authorize = async (request: Request): Promise<{ principal: Principal; clientId?: string; expiresAt?: number } | Response> => {
    if (options.oauth) {
      const verdict = await options.oauth.authorize(request, options.principal);
      // An access token's principal carries the client address too, as `options.principal`'s do.
      return verdict.ok ? { ...verdict, principal: addressed(request, verdict.principal) } : verdict.response;
    }
    const principal = await options.principal(request);
    if (principal) return { principal };
    const sent = request.headers.get('authorization') !== null;
    return errorResponse(401, 'unauthorized', sent ? 'The API key is not valid.' : 'Send an API key as "Authorization: Bearer <key>".', undefined, {
      'www-authenticate': 'Bearer',
    });
  };

  /** A plain 2026-07-28 tools/call (no progress, log level, tasks or elicitation), answered as the SDK answers it. */
  const answerPlain = async (call: PlainCall, principal: Principal): Promise<Response> => {
    try {
      const response = await door.call({ ask: { in: 'thread' }, capability: call.name, args: call.args, principal });
      return plainAnswer(call, { result: mcpResult(response, outputLimit) }, serverInfo);
    } catch (error) {
      return plainAnswer(call, { error }, serverInfo);
    }
  };

  app.all('/mcp', async (c) => {
    const caller = await authorize(c.req.raw);
    if (caller instanceof Response) return caller;
    if (c.req.method !== 'POST') return handler.fetch(c.req.raw, { authInfo: authInfoOf(caller) });
    // The guard has read the body once; Hono keeps its text (no clone of the request).
    const read = readRpcBody(await c.req.text());
    if (!read.ok) return read.response;
    const call = plainCall(c.req.raw, read.body);
    if (call) return answerPlain(call, caller.principal);
    const answer = await handler.fetch(c.req.raw, { authInfo: authInfoOf(caller), parsedBody: read.body });
    // A JSON answer goes out as it is: its type is read from its headers alone (asking for its body
    // would turn the node server's lightweight response into a full one with a stream).
    if (!answer.headers.get('content-type')?.includes('text/event-stream')) return answer;
    // An SSE answer opens with a priming event and `retry` (2025-11-25 resumability).
    return primed(answer, revisionOf(c.req.raw, read.body), pollIntervalMs);
  });

  return app;
}

/** Idle 2026-07-28 servers kept at most (one is built per request in flight beyond it). */
const POOL_LIMIT = 64;

/**
 * The SDK asks for a server per request (one that is not serving another);
 * building one (handlers, schemas) is much of an MCP call's own cost. So the
 * 2026-07-28 era's servers are built once and reused: a server goes back to
 * the pool when its exchange closes, and a request takes an idle one. Such a
 * request names its client in its own `_meta` envelope and the caller is in
 * its `authInfo`; the client a server last served is forgotten before reuse,
 * so no request sees another's. The 2025-era leg, whose `initialize` leaves a
 * client on the server, builds one per request as before.
 */
function pooled(build: (options: { era: 'legacy' | 'modern' }) => Server): (options: { era: 'legacy' | 'modern' }) => Server {
  const idle = new Set<Server>();
  return ({ era }) => {
    if (era === 'legacy') return build({ era });
    for (const server of idle) {
      idle.delete(server);
      if (server.transport === undefined) return server;
    }
    const server = build({ era });
    server.onclose = () => {
      // The SDK keeps the last client's identity on the instance (for its deprecated accessors and capability checks).
      const identity = server as unknown as { _clientCapabilities?: unknown; _clientVersion?: unknown };
      identity._clientCapabilities = undefined;
      identity._clientVersion = undefined;
      if (idle.size < POOL_LIMIT) idle.add(server);
    };
    return server;
  };
}

/** The caller as the SDK passes it to handlers (`ctx.http.authInfo`; the principal in `extra`). */
function authInfoOf(caller: { principal: Principal; clientId?: string; expiresAt?: number }): AuthInfo {
  const { principal } = caller;
  return {
    token: '',
    clientId: caller.clientId ?? principal.user,
    scopes: [...(principal.scopes ?? [])],
    ...(caller.expiresAt !== undefined ? { expiresAt: caller.expiresAt } : {}),
    extra: { principal },
  };
}

/** The client capabilities a 2026-07-28 request declares in its `_meta` envelope. */
function clientCapabilitiesOf(ctx: ServerContext): unknown {
  const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
  return envelope?.[CLIENT_CAPABILITIES_META_KEY] ?? ctx.mcpReq._meta?.[CLIENT_CAPABILITIES_META_KEY];
}

const TaskParams = z.looseObject({ taskId: z.string().min(1, 'must name the task') });

/** JSON-RPC 2.0 error response over HTTP (id null: nothing in the body could be answered). */
function rpcError(status: number, code: number, message: string): Response {
  return Response.json({ jsonrpc: '2.0', id: null, error: { code, message } }, { status });
}

/**
 * Reads a POST body before the SDK sees it: not JSON is -32700, a batch
 * (an array) is refused with -32600 since 2025-06-18 and 2026-07-28 both
 * removed batching, and anything that is not a JSON-RPC request or
 * notification object is -32600 (Invalid Request).
 */
function readRpcBody(text: string): { ok: true; body: unknown } | { ok: false; response: Response } {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (error) {
    return { ok: false, response: rpcError(400, ProtocolErrorCode.ParseError, `Parse error: the body is not JSON (${(error as Error).message}).`) };
  }
  if (Array.isArray(body)) {
    return { ok: false, response: rpcError(400, ProtocolErrorCode.InvalidRequest, 'Invalid Request: JSON-RPC batches are not supported; send one request per HTTP POST.') };
  }
  const problem = invalidRequest(body);
  if (problem) return { ok: false, response: rpcError(400, ProtocolErrorCode.InvalidRequest, `Invalid Request: ${problem}`) };
  return { ok: true, body };
}

/** Why a parsed body is not a JSON-RPC 2.0 message object, or null. */
function invalidRequest(body: unknown): string | null {
  if (typeof body !== 'object' || body === null) return 'the body must be a JSON-RPC object.';
  const message = body as Record<string, unknown>;
  if (message.jsonrpc !== '2.0') return '"jsonrpc" must be "2.0".';
  const isResponse = 'result' in message || 'error' in message;
  if (isResponse) return null;
  if (typeof message.method !== 'string' || !message.method) return '"method" must be a non-empty string.';
  if ('id' in message && typeof message.id !== 'string' && typeof message.id !== 'number') return '"id" must be a string or a number.';
  if ('params' in message && (typeof message.params !== 'object' || message.params === null || Array.isArray(message.params))) return '"params" must be an object.';
  return null;
}

/**
 * A door response as an MCP `CallToolResult`; unknown tools are JSON-RPC
 * errors, other refusals tool errors (SEP-1303). A call still running when
 * the wait ends is a tool error that names its job (`_meta["chatsurface/job"]`
 * with `status` `queued` or `running`) and how to follow it: an `isError`
 * result need not match the tool's output schema, a success would have to.
 */
export function mcpResult(response: DoorResponse, outputLimit: number): CallToolResult {
  switch (response.kind) {
    case 'refused': {
      if (response.error.code === 'unknown_capability') throw new ProtocolError(ProtocolErrorCode.InvalidParams, response.error.message);
      const result = errorResult(response.error.message);
      return { ...result, _meta: { 'chatsurface/error': response.error } } as CallToolResult;
    }
    case 'running':
      // Waiting for a person: not run, so an error the agent reads; where to approve it is in the words.
      if (response.job.status === 'waiting') {
        return { ...errorResult(response.job.approval?.message ?? 'It waits for a person to approve it.'), _meta: { [JOB_META_KEY]: { id: response.jobId, status: 'waiting' } } } as CallToolResult;
      }
      // A tool error, not a result: MCP checks only successful results against the tool's output schema (see docs/protocols.md).
      return {
        ...errorResult(followJobText(response.jobId)),
        _meta: { [JOB_META_KEY]: { id: response.jobId, status: response.job.status, follow: `/v1/jobs/${response.jobId}`, resource: jobResourceUri(response.jobId) } },
      } as CallToolResult;
    case 'done':
      return boundResult(response.result, outputLimit, response.jobId) as CallToolResult;
    default:
      return response satisfies never;
  }
}
