import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { createHash } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AnticipationMap } from '../runtime/anticipation';
import type { CapabilityDescriptor } from '../runtime/capability';
import { keyAuthenticator, type ApiKey, type Authenticate, type Principal } from '../runtime/doors/apiKeys';
import { createDoor, type DoorResponse } from '../runtime/doors/door';
import { createExecutor } from '../runtime/doors/executor';
import { createIdempotencyCache } from '../runtime/doors/idempotency';
import { exposedOnMcp } from '../runtime/doors/mcpTools';
import { createMemoryMeter, type Meter } from '../runtime/doors/meter';
import type { OpenApiOptions } from '../runtime/doors/openapi';
import type { EventLog } from '../runtime/eventLog';
import type { Job, JobStore } from '../runtime/jobs';
import type { ModelDriver } from '../runtime/model';
import type { PostconditionProbes } from '../runtime/postconditions';
import { openWorkspaceDatabase, type WorkspaceDatabase } from '../runtime/node/sqliteDatabase';
import { createSqliteEventLog } from '../runtime/node/sqliteEventLog';
import { createSqliteJobStore } from '../runtime/node/sqliteJobStore';
import { createLocalWorkspace, type LocalWorkspace, type LocalWorkspaceOptions } from '../workspace/localWorkspace';
import { consumeMcpServers, type McpServerConfig, type McpServerStatus } from './consumeMcp';
import { chatResult, endInterruptedJobs } from './chatDoor';
import { errorResponse } from './http';
import { mcpRoutes } from './mcpRoutes';
import { restRoutes } from './restRoutes';
import { workspaceRoutes } from './workspaceRoutes';

export interface WorkspaceServerOptions {
  /** The verbs the workspace offers, on every door. */
  capabilities: readonly CapabilityDescriptor[];
  /** The model that answers turns (the key stays on this server). @default the offline driver */
  driver?: ModelDriver;
  /** @default 'strict' */
  alignment?: 'strict' | 'loose';
  /** Suggested next verbs by `${view.kind}::${lastCapability | 'none'}`. @default {} */
  anticipation?: AnticipationMap;
  /** The SQLite file holding threads and jobs; `':memory:'` keeps them in this process only (tests). @default 'chatsurface.db' */
  database?: string;
  /** API keys of the REST and MCP doors. @default `DEMO_API_KEY` from the environment when set, else none (every call is 401) */
  apiKeys?: readonly (ApiKey | string)[];
  /** Replaces the key check: a bearer token in, a principal (or null for 401) out. */
  authenticate?: Authenticate;
  /** The REST and MCP meter. @default a memory meter: unlimited budget, 600 requests a minute per key */
  meter?: Meter;
  /** The chat's meter (turns and chips of the workspace protocol). @default unmetered */
  chatMeter?: Meter;
  /** Checks a workspace-protocol request (the host's session cookie, say); false answers 401. @default every request passes */
  authorizeWorkspace?: (request: Request) => boolean | Promise<boolean>;
  /** Largest request body, in bytes, on every route. @default 65536 */
  maxBodyBytes?: number;
  /** How chat waits for a slow capability before its row becomes a tracked card. @default { pollIntervalMs: 1500, pollTimeoutMs: 300000 } */
  jobs?: { pollIntervalMs?: number; pollTimeoutMs?: number };
  /** How long `POST /v1/capabilities/{name}` waits before answering 202 with the job. @default 10000 */
  restWaitMs?: number;
  /** The MCP door: mutates to serve besides the reads, the output bound, how long a call waits. @default { mutates: [], outputLimit: 32000, waitMs: 300000 } */
  mcp?: { mutates?: readonly string[]; outputLimit?: number; waitMs?: number; name?: string; version?: string };
  /** Who may read a job on `GET /v1/jobs/{id}`. @default a key reads its own REST and MCP jobs, and the chat's jobs */
  canReadJob?: (principal: Principal, job: Job) => boolean;
  /** Title and version of the OpenAPI document. */
  openapi?: OpenApiOptions;
  /** How postconditions look at the workspace: the host's row counter (`row_count_change`), a file lister. */
  probes?: PostconditionProbes;
  /** Any other option of the local workspace that hosts the threads (whitelist, reminders, retrieve, catalog, providers, …). */
  workspace?: Omit<LocalWorkspaceOptions, 'capabilities' | 'eventLog' | 'runCapability'>;
  /** The host's own MCP servers: their tools become `mcp` capabilities named `<server>.<tool>`, on every door. */
  mcpServers?: readonly McpServerConfig[];
  /** SSE keep-alive comment interval. @default 15000 */
  heartbeatMs?: number;
}

/** A running (or ready to run) workspace server. */
export interface WorkspaceServer {
  /** The Hono app, to mount under a host's own server. */
  readonly app: Hono;
  /** Handles one request (what `listen` serves). */
  fetch(request: Request): Promise<Response>;
  /** The local workspace that hosts the threads. */
  readonly workspace: LocalWorkspace;
  /** Where jobs live (SQLite). */
  readonly jobs: JobStore;
  /** How connecting to each of `mcpServers` went: the capabilities it gave, or why not. */
  readonly mcpServers: readonly McpServerStatus[];
  /** Starts listening. @default port 0 (any free one), host 127.0.0.1 */
  listen(options?: { port?: number; host?: string }): Promise<{ url: string; port: number }>;
  /** Stops listening, ends open streams, aborts running jobs, closes the database. */
  close(): Promise<void>;
}

/**
 * One Node HTTP server for the chat kit: it hosts threads (a local workspace
 * whose event logs and jobs live in SQLite), holds the model key, and serves
 * on one origin the workspace protocol of `createRemoteWorkspace`, the REST
 * door (`/v1/capabilities/{name}`, `/v1/jobs/{id}`, `/v1/openapi.json`) and
 * the MCP door (`/mcp`), all generated from one registry.
 * @example
 * const server = await createWorkspaceServer({ capabilities, database: 'data/workspace.db', apiKeys: [process.env.DEMO_API_KEY!] });
 * const { url } = await server.listen({ port: 8787 });
 */
export async function createWorkspaceServer(options: WorkspaceServerOptions): Promise<WorkspaceServer> {
  const consumed = await consumeMcpServers(options.mcpServers ?? []);
  for (const { name, problems } of consumed.status) {
    for (const problem of problems) console.warn(`[chatsurface] MCP server "${name}": ${problem}`);
  }
  let db: WorkspaceDatabase;
  try {
    db = openWorkspaceDatabase(options.database ?? 'chatsurface.db');
  } catch (error) {
    await Promise.all(consumed.connections.map((c) => c.close().catch(() => undefined)));
    throw error;
  }
  try {
    return await assemble(options, db, consumed);
  } catch (error) {
    // Nothing half-started is left behind: the database and the MCP clients close again.
    await Promise.all(consumed.connections.map((c) => c.close().catch(() => undefined)));
    closeDatabase(db);
    throw error;
  }
}

async function assemble(options: WorkspaceServerOptions, db: WorkspaceDatabase, consumed: Awaited<ReturnType<typeof consumeMcpServers>>): Promise<WorkspaceServer> {
  const jobs = createSqliteJobStore(db);
  const logs = new Map<string, EventLog>();
  const logFor = (threadId: string) => {
    let log = logs.get(threadId);
    if (!log) logs.set(threadId, (log = createSqliteEventLog(db, threadId)));
    return log;
  };
  await endInterruptedJobs(jobs, logFor);

  const keys = options.apiKeys ?? (process.env.DEMO_API_KEY ? [{ id: 'demo', key: process.env.DEMO_API_KEY }] : []);
  const authenticate = options.authenticate ?? keyAuthenticator(keys, { digest: (text) => createHash('sha256').update(text).digest() });
  const meter = options.meter ?? createMemoryMeter();
  const bodyBytes = options.maxBodyBytes ?? 65_536;
  const mcp = { mutates: options.mcp?.mutates ?? [], outputLimit: options.mcp?.outputLimit ?? 32_000, waitMs: options.mcp?.waitMs ?? 300_000 };
  const pollIntervalMs = options.jobs?.pollIntervalMs ?? 1_500;
  const pollTimeoutMs = options.jobs?.pollTimeoutMs ?? 300_000;

  let chatDoor: ReturnType<typeof createDoor> | null = null;
  const workspace = createLocalWorkspace({
    ...options.workspace,
    capabilities: [...options.capabilities, ...consumed.capabilities],
    ...(options.driver ? { driver: options.driver } : {}),
    ...(options.alignment ? { alignment: options.alignment } : {}),
    ...(options.anticipation ? { anticipation: options.anticipation } : {}),
    eventLog: logFor,
    runCapability: async (name, args, invokeOptions) => {
      const response = await chatDoor!.call({
        capability: name,
        args,
        token: null,
        thread: {
          id: invokeOptions.threadId,
          emit: invokeOptions.emit,
          ...(invokeOptions.turnId ? { turnId: invokeOptions.turnId } : {}),
          ...(invokeOptions.invocationId ? { invocationId: invokeOptions.invocationId } : {}),
          ...(invokeOptions.signal ? { signal: invokeOptions.signal } : {}),
        },
      });
      return chatResult(response, registry.get(name)?.title ?? name, name, invokeOptions);
    },
  });
  const registry = workspace.registry;
  const executor = createExecutor({ registry, jobs, ...(options.probes ? { probes: options.probes } : {}) });
  const chatPrincipal: Principal = { id: 'chat' };
  chatDoor = createDoor({
    name: 'chat',
    registry,
    authenticate: () => chatPrincipal,
    meter: options.chatMeter ?? { reserve: () => ({ ok: true, commit() {}, release() {} }) },
    executor,
    jobs,
    wait: { intervalMs: pollIntervalMs, timeoutMs: pollTimeoutMs },
  });
  const common = { registry, authenticate, meter, executor, jobs, idempotency: createIdempotencyCache<DoorResponse>() };
  const restDoor = createDoor({ name: 'rest', ...common, wait: { intervalMs: 250, timeoutMs: options.restWaitMs ?? 10_000 } });
  const mcpDoor = createDoor({
    name: 'mcp',
    ...common,
    exposes: (d) => exposedOnMcp(d, mcp.mutates),
    wait: { intervalMs: 250, timeoutMs: mcp.waitMs },
  });

  const app = new Hono();
  app.use(bodyLimit({ maxSize: bodyBytes, onError: () => errorResponse(413, 'payload_too_large', `The request body is larger than ${bodyBytes} bytes.`) }));
  const authorizeWorkspace = options.authorizeWorkspace;
  if (authorizeWorkspace) {
    const guard = async (c: { req: { raw: Request } }, next: () => Promise<void>) => {
      if (!(await authorizeWorkspace(c.req.raw))) return errorResponse(401, 'unauthorized', 'Sign in to use this workspace.');
      await next();
      return undefined;
    };
    for (const path of ['/v1/manifest', '/v1/threads/*', '/v1/invocations', '/v1/invocations/*', '/v1/nodes', '/v1/skills']) app.use(path, guard);
  }
  app.route('/', workspaceRoutes({ workspace, jobs, executor, lastSeq: (id) => logFor(id).lastSeq, heartbeatMs: options.heartbeatMs ?? 15_000 }));
  app.route('/', restRoutes({ door: restDoor, registry, jobs, authenticate, openapi: options.openapi ?? {}, ...(options.canReadJob ? { canReadJob: options.canReadJob } : {}) }));
  app.route(
    '/',
    mcpRoutes({
      door: mcpDoor,
      registry,
      authenticate,
      mutates: mcp.mutates,
      outputLimit: mcp.outputLimit,
      bodyBytes,
      serverInfo: { name: options.mcp?.name ?? 'chatsurface', version: options.mcp?.version ?? '1.0.0' },
    }),
  );
  app.notFound(() => errorResponse(404, 'not_found', 'No such route. See /v1/openapi.json for the REST door.'));
  app.onError((error) => {
    console.error('[chatsurface] request failed:', error);
    return errorResponse(500, 'internal_error', 'The server failed on this request; nothing was lost. Try again.');
  });

  let http: Server | null = null;
  let closed = false;
  return {
    app,
    fetch: (request) => Promise.resolve(app.fetch(request)),
    workspace,
    jobs,
    mcpServers: consumed.status,
    listen({ port = 0, host = '127.0.0.1' } = {}) {
      if (http) return Promise.reject(new Error('This workspace server is already listening; create another one for a second port.'));
      return new Promise((resolve, reject) => {
        const server = serve({ fetch: app.fetch, port, hostname: host }, (info: AddressInfo) => {
          resolve({ url: `http://${host.includes(':') ? `[${host}]` : host}:${info.port}`, port: info.port });
        }) as Server;
        // Turns may legitimately outlast Node's default 5-minute request timeout (slow jobs poll for 300 s).
        server.requestTimeout = 0;
        server.once('error', reject);
        http = server;
      });
    },
    async close() {
      if (closed) return;
      closed = true;
      if (http) {
        const server = http;
        server.closeAllConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
      }
      await executor.cancelAll('The server is shutting down.');
      await Promise.all(consumed.connections.map((c) => c.close().catch(() => undefined)));
      closeDatabase(db);
    },
  };
}

function closeDatabase(db: WorkspaceDatabase): void {
  try {
    db.close();
  } catch {
    // Already closed.
  }
}
