import { isStoreUnavailable } from '../runtime/node/storeUnavailable';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { createHash } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AnticipationMap } from '../runtime/anticipation';
import type { CapabilityDescriptor } from '../runtime/capability';
import type { ApiKey } from '../runtime/doors/apiKeys';
import { createMeter, type Meter } from '../runtime/doors/meter';
import type { OpenApiOptions } from '../runtime/doors/openapi';
import { runThroughDoor } from '../runtime/host/chatCalls';
import { createThreadHost, type ThreadHost, type ThreadHostOptions } from '../runtime/host/threadHost';
import type { Job, JobStore } from '../runtime/jobs';
import type { ModelDriver } from '../runtime/model';
import type { PostconditionProbes } from '../runtime/postconditions';
import type { Authenticate, Principal } from '../runtime/principal';
import { spaceOf } from '../runtime/principal';
import { builtInNodes } from '../runtime/slash/builtinNodes';
import { BUILT_IN_SKILL_NODES } from '../runtime/slash/builtinSkillData';
import { createCatalog } from '../runtime/slash/catalog';
import { connectorsSkill } from '../runtime/slash/connectorsSkill';
import { createSkillDirectory } from '../runtime/slash/skillDirectory';
import { createSkillLoader, type SkillLoader } from '../runtime/slash/skillLoader';
import { CONNECTORS_FEATURE } from '../workspace/connectorsProtocol';
import { agUiDoor } from './agUiDoor';
import { attachmentReader, attachmentRoutes, type AttachmentLimits } from './attachmentRoutes';
import type { AttachmentStore } from '../runtime/stores/attachmentStore';
import { bearerKeys } from './authenticators';
import { sweptJobs, type RetentionOptions } from './retention';
import { endInterruptedJobs } from './chatDoor';
import { chatElicitation } from './chatElicitation';
import { consumeMcpServers, type McpServerConfig, type McpServerStatus } from './consumeMcp';
import { guard } from './guard';
import { errorResponse } from './http';
import { hostCheck, isLoopback } from './hostCheck';
import { mcpAppRoutes } from './mcpAppRoutes';
import { withAppApprovals } from '../runtime/host/appSessions';
import { viewFrameRoutes } from './viewFrame';
import { mcpRoutes } from './mcpRoutes';
import type { McpAuthOptions, McpOAuth } from './mcpAuthOptions';
import { createMcpOAuth, loadJose, protectedResourceRoutes } from './mcpOAuth';
import { approvalRoutes } from './approvalRoutes';
import { createServerApprovals, type ApprovalOptions, type ServerApprovals } from './doorApprovals';
import { defaultCanReadJob, restRoutes } from './restRoutes';
import { createServerDoors, type ServerDoors } from './serverDoors';
import { openStores, type ServerStores } from './serverStores';
import { createConnectors, type Connectors, type ConnectorsOptions } from './connectors';
import type { McpElicitHandler } from '../runtime/sources/mcpClientRequests';
import { connectorLandingRoutes, connectorRoutes } from './connectorRoutes';
import { workspaceRoutes } from './workspaceRoutes';
import type { WorkspaceLimits } from './serverLimits';
import { addressed, clientAddressNote } from './clientAddress';
import { serverCaps } from './serverCaps';
import { threadListRoutes } from './threadListRoutes';
import { THREADS_FEATURE } from '../workspace/threadsProtocol';

export interface WorkspaceServerOptions {
  /** The verbs the workspace offers, on every door. */
  capabilities: readonly CapabilityDescriptor[];
  /** The model that answers turns (the key stays on this server). @default the offline driver */
  driver?: ModelDriver;
  /** @default 'strict' */
  alignment?: 'strict' | 'loose';
  /** Suggested next verbs by `${view.kind}::${lastCapability | 'none'}`. @default {} */
  anticipation?: AnticipationMap;
  /**
   * Where threads, jobs, idempotency records, meter books and skills live: a
   * SQLite file (`':memory:'` keeps them in this process only, for tests) or a
   * `postgres://` / `postgresql://` URL. @default 'chatsurface.db'
   */
  database?: string;
  /** With a PostgreSQL `database`: the schema for ChatSurface's tables, created when missing. @default the connection's search_path */
  databaseSchema?: string;
  /**
   * With a PostgreSQL `database`, several instances may serve it at once
   * (behind a load balancer): each has an id and a heartbeat; one missing it
   * for `leaseMs` is dead, and another closes its turns and jobs as
   * interrupted. @default { leaseMs: 10000, id: random }
   */
  instance?: { leaseMs?: number; id?: string };
  /** API keys (`Authorization: Bearer`), each its own principal, when there is no `authenticate`. @default `DEMO_API_KEY` from the environment when set, else none */
  apiKeys?: readonly (ApiKey | string)[];
  /**
   * Who is asking, on every door (workspace protocol, REST, MCP): a request in,
   * a principal (or null: 401) out; your session cookie, your API keys, both.
   * Without it the server serves one local user on the workspace protocol and
   * `apiKeys` on REST and MCP, and `listen` refuses any host but loopback.
   */
  authenticate?: Authenticate;
  /** Origins other than the server's own that may call it from a browser (exact match; CORS is answered for these only). @default none */
  allowedOrigins?: readonly string[];
  /** The host names it answers on (the `Host` header, without the port): any other is refused, 403 (DNS-rebinding protection). @default any name with `authenticate`, loopback names without */
  allowedHosts?: readonly string[];
  /** The REST and MCP meter. @default budgets kept in the database (unlimited unless a principal sets one), 600 requests a minute per principal */
  meter?: Meter;
  /** The chat's meter (turns and chips of the workspace protocol). @default unmetered */
  chatMeter?: Meter;
  /** Largest request body, in bytes, on every route. @default 65536 */
  maxBodyBytes?: number;
  /** How chat waits for a slow capability before its row becomes a tracked card. @default { pollIntervalMs: 1500, pollTimeoutMs: 300000 } */
  jobs?: {
    pollIntervalMs?: number;
    pollTimeoutMs?: number;
    /** REST and MCP: a job's record is written once it has run this long, or when it ends (a fast call writes one record). @default 1000 */
    recordAfterMs?: number;
    /** Keep the record of a read that answered within `recordAfterMs`; false writes none (its `x-job-id` is then unknown to `GET /v1/jobs/{id}`). @default true */
    keepInlineReads?: boolean;
    /** How long finished jobs are kept, and how often they and expired idempotent answers are swept. @default 7 days, 1,000 per principal; a sweep every 10 min and every 1,000 finished jobs */
    retention?: RetentionOptions;
  };
  /** How long `POST /v1/capabilities/{name}` waits before answering 202 with the job. @default 10000 */
  restWaitMs?: number;
  /** The MCP door: mutates to serve besides the reads, the output bound, how long a call waits (a client that takes tasks: `taskAfterMs`), tools per `tools/list` page. @default { mutates: [], outputLimit: 32000, waitMs: 300000, taskAfterMs: 2000, pageSize: 100 } */
  mcp?: { mutates?: readonly string[]; outputLimit?: number; waitMs?: number; name?: string; version?: string; pageSize?: number; taskAfterMs?: number };
  /**
   * OAuth 2.1 on the MCP door (the MCP authorization spec): `/mcp` also
   * accepts access tokens of your authorization server (`issuer`), checked
   * against its JWKS, bound to this server's `/mcp` URL (`resource`), with
   * `requiredScopes`; `GET /.well-known/oauth-protected-resource` tells
   * clients where to get one, and refusals carry the spec's challenges.
   * API keys keep working beside it. Needs the `jose` package. @default off
   */
  mcpAuth?: McpAuthOptions;
  /** Who may read a job on `GET /v1/jobs/{id}`. @default a key reads its own REST and MCP jobs, and the chat's jobs */
  canReadJob?: (principal: Principal, job: Job) => boolean;
  /** Title and version of the OpenAPI document. */
  openapi?: OpenApiOptions;
  /** How postconditions look at the workspace: the host's row counter (`row_count_change`), a file lister. */
  probes?: PostconditionProbes;
  /**
   * Hears each change of a user's rating of a reply (Good response / Bad response, a comment, a
   * withdrawal) once it is stored, with the principal, the reply and the model that wrote it; read
   * them back with `server.host.feedbackOf(principal, threadId)`. A failing hook is logged; the
   * rating stays. @default none
   */
  onFeedback?: ThreadHostOptions['onFeedback'];
  /** Any other option of the thread host (whitelist, reminders, retrieve, catalog, providers, thread limits, idle eviction, …). */
  workspace?: Omit<ThreadHostOptions, 'capabilities' | 'events' | 'runCapability' | 'driver' | 'alignment' | 'anticipation' | 'probes'>;
  /** The host's own MCP servers: their tools become `mcp` capabilities named `<server>.<tool>`, on every door. */
  mcpServers?: readonly McpServerConfig[];
  /** SSE keep-alive comment interval. @default 15000 */
  heartbeatMs?: number;
  /**
   * Lets each signed-in user connect MCP servers of their own from the chat
   * (`/v1/mcp-servers`): kept in the database with their principal (the token
   * never goes back to a browser), their tools offered as `<label>.<tool>` in
   * that user's threads only, anything not read-only behind approval. Every
   * address that is not public unicast (IPv6 forms of private IPv4 included)
   * is refused unless `allowHosts` names it, on every port or on one
   * (`'127.0.0.1:3001'`). `true` takes the defaults. @default off
   */
  connectors?: ConnectorsOptions | boolean;
  /** Limits a new guest cookie cannot reset, the shared request limit, and an app view's calls: see `WorkspaceLimits` and docs/server.md#limits. */
  limits?: WorkspaceLimits;
  /**
   * A capability that requires confirmation, called through REST or MCP, waits for a person: its
   * approval row goes to the caller's thread `thread` (REST: the `ChatSurface-Approval-Thread`
   * header names another), and the job expires unapproved after `expireAfterMs`.
   * @default { thread: 'main', expireAfterMs: 86400000 }
   */
  approvals?: ApprovalOptions;
  /**
   * Files users attach to messages (`POST /v1/threads/{id}/attachments`): the limits, the media types taken (from the
   * content, never the name) and where they are kept (beside a SQLite file in `attachments/`, in PostgreSQL, or a
   * host's own store). See docs/server.md#attachments. @default 20 MB a file, 10 a message, 200 MB a user; PNG, JPEG, GIF, WebP, PDF, text, CSV, Markdown, JSON
   */
  attachments?: AttachmentLimits & { store?: AttachmentStore };
}

/** What a 503 for a database that is away asks the client to wait, in seconds (`Retry-After`). */
const STORE_RETRY_AFTER_SECONDS = 5;

/** A running (or ready to run) workspace server. */
export interface WorkspaceServer {
  /** The Hono app, to mount under a host's own server. */
  readonly app: Hono;
  /**
   * Handles one request (what `listen` serves). `env` is what
   * `@hono/node-server` passes along (`getRequestListener(server.fetch)`):
   * its `incoming` socket tells the client's address to per-address caps.
   */
  fetch(request: Request, env?: unknown): Promise<Response>;
  /** The thread host: every thread of every principal. */
  readonly host: ThreadHost;
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
  // Checked before anything opens: a wrong issuer or resource, or jose missing, is said at once.
  const oauth = options.mcpAuth ? createMcpOAuth(options.mcpAuth) : null;
  if (oauth) await loadJose();
  // A consumed server's question (elicitation) becomes a row in the chat of the call, unless the host answers it itself.
  const elicitation = chatElicitation();
  const consumed = await consumeMcpServers(options.mcpServers ?? [], { elicit: elicitation.handler });
  for (const { name, problems } of consumed.status) {
    for (const problem of problems) console.warn(`[chatsurface] MCP server "${name}": ${problem}`);
  }
  let stores: ServerStores;
  try {
    stores = await openStores(options.database ?? 'chatsurface.db', options.databaseSchema, options.instance);
  } catch (error) {
    await Promise.all(consumed.connections.map((c) => c.close().catch(() => undefined)));
    throw error;
  }
  try {
    const server = await assemble(options, stores, consumed, oauth, elicitation.handler);
    elicitation.attach(server.host);
    return server;
  } catch (error) {
    // Nothing half-started is left behind: the database and the MCP clients close again.
    await Promise.all(consumed.connections.map((c) => c.close().catch(() => undefined)));
    await stores.close();
    throw error;
  }
}

/** The principal of a server with no `authenticate` hook: one local user (loopback only). */
const LOCAL_PRINCIPAL: Principal = { user: 'local', scopes: ['skills:space'] };

type Consumed = Awaited<ReturnType<typeof consumeMcpServers>>;

async function assemble(options: WorkspaceServerOptions, stores: ServerStores, consumed: Consumed, oauth: McpOAuth | null, elicit: McpElicitHandler): Promise<WorkspaceServer> {
  const { events } = stores;
  const swept = sweptJobs(stores.jobs, stores.idempotency, options.jobs?.retention);
  const { jobs } = swept;
  const principals = principalsOf(options);
  const storedMeter = options.meter ? null : createMeter({ store: stores.meter });
  const meter = options.meter ?? storedMeter!;
  const catalog = skillCatalog(options);
  // Saved skills are read when their user (or space) first needs them, not at start.
  const skills = createSkillLoader(catalog, stores.skills, options.limits?.skillsInMemory !== undefined ? { maxSkills: options.limits.skillsInMemory } : {});
  const mcp = { mutates: options.mcp?.mutates ?? [], waitMs: options.mcp?.waitMs ?? 300_000 };
  const limits = options.limits ?? {};
  const attachments = options.attachments?.store ?? stores.attachments;
  const caps = serverCaps(stores.caps, {
    ...(limits.threads ? { threads: limits.threads } : {}),
    ...(limits.skills ? { skills: limits.skills } : {}),
    ...(limits.addressWindowMs !== undefined ? { addressWindowMs: limits.addressWindowMs } : {}),
  });

  let doors: ServerDoors | null = null;
  let connectors: Connectors | null = null;
  // Confirmation on every door: REST and MCP calls that need a person wait as jobs; the chat's approval rows decide them.
  const approvals = createServerApprovals({ ...options.approvals, jobs, host: () => host, doors: () => doors! });
  const host = createThreadHost({
    ...options.workspace,
    // A user's own MCP servers: their tools in that user's threads only.
    ...(options.connectors ? { capabilitiesOf: (p: Principal) => connectors?.registryOf(p) } : {}),
    capabilities: [...options.capabilities, ...consumed.capabilities],
    ...(options.driver ? { driver: options.driver } : {}),
    ...(options.alignment ? { alignment: options.alignment } : {}),
    ...(options.anticipation ? { anticipation: options.anticipation } : {}),
    ...(options.onFeedback ? { onFeedback: options.onFeedback } : {}),
    readAttachment: options.workspace?.readAttachment ?? attachmentReader(attachments),
    events,
    ...(stores.coordination ? { coordination: stores.coordination } : {}),
    catalog,
    // Caps per space and per client address, beyond the user's own, counted in the database.
    admitThread: options.workspace?.admitThread ?? caps.admitThread,
    skillDirectory: (p, c) => createSkillDirectory({ user: p.user, space: spaceOf(p), scopes: p.scopes ?? [], catalog: c, store: stores.skills, admitSkill: caps.admitSkill(p) }),
    // Every chat call goes through the chat door: the same validation, meter, executor and job as REST and MCP.
    runCapability: runThroughDoor(() => ({ door: doors!.chat, executor: doors!.executor })),
    doorApprovals: withAppApprovals(approvals.hook), // an MCP App's rows (once per app session) first: deciding one runs nothing
  });
  if (options.connectors) {
    // A label may not be a namespace the workspace's own verbs use (`corpus`, `records`).
    const namespaces = new Set(host.registry.list().map((d) => d.name.split('.')[0]!.toLowerCase()));
    // A user's own server asks its questions in the chat too (elicitation, as the host's servers do).
    connectors = createConnectors(stores.connectors, options.connectors === true ? {} : options.connectors, (label) => namespaces.has(label), { elicit });
  }
  await endInterruptedJobs(jobs);
  await host.recover();
  doors = createServerDoors({
    host,
    jobs,
    idempotencyStore: stores.idempotency,
    ...(stores.coordination ? { coordination: stores.coordination } : {}),
    ...(options.probes ? { probes: options.probes } : {}),
    meter,
    ...(options.chatMeter ? { chatMeter: options.chatMeter } : {}),
    chatWait: { intervalMs: options.jobs?.pollIntervalMs ?? 1_500, timeoutMs: options.jobs?.pollTimeoutMs ?? 300_000 },
    restWaitMs: options.restWaitMs ?? 10_000,
    mcp,
    record: { afterMs: options.jobs?.recordAfterMs ?? 1_000, keepInlineReads: options.jobs?.keepInlineReads ?? true },
    approvals: approvals.gate,
  });
  const app = await serverApp(options, { host, jobs, doors, connectors, principals, skills, approvals, oauth, attachments });
  return serverHandle(options, { app, host, jobs, doors, connectors, stores, consumed, flushMeter: () => storedMeter?.flush(), sweeper: swept, approvals, oauth });
}

/** The catalog of skills: built in, the host's, the connectors skill with `connectors` (saved skills join it on demand). */
function skillCatalog(options: WorkspaceServerOptions) {
  return (
    options.workspace?.catalog ??
    createCatalog([...BUILT_IN_SKILL_NODES, ...builtInNodes(options.driver?.models ? { models: options.driver.models } : {}), ...(options.workspace?.skills ?? []), ...(options.connectors ? [connectorsSkill()] : [])])
  );
}

type PrincipalOf = (request: Request) => Promise<Principal | null>;

/** Who is asking: on REST and MCP (`authenticate`, else the API keys), and on the workspace protocol (`authenticate`, else the one local user). */
function principalsOf(options: WorkspaceServerOptions): { door: PrincipalOf; workspace: PrincipalOf } {
  const keys = options.apiKeys ?? (process.env.DEMO_API_KEY ? [{ id: 'demo', key: process.env.DEMO_API_KEY }] : []);
  const bearer = bearerKeys(keys, { digest: (text) => createHash('sha256').update(text).digest() });
  // Each request's principal carries its client address to the per-address caps (see `addressed`).
  const principal = (authenticate: Authenticate) => async (request: Request) => {
    const p = await authenticate(request);
    return p ? addressed(request, p) : null;
  };
  return { door: principal(options.authenticate ?? bearer), workspace: principal(options.authenticate ?? (() => LOCAL_PRINCIPAL)) };
}

interface AppParts {
  host: ThreadHost;
  jobs: JobStore;
  doors: ServerDoors;
  connectors: Connectors | null;
  principals: { door: PrincipalOf; workspace: PrincipalOf };
  skills: SkillLoader;
  approvals: ServerApprovals;
  oauth: McpOAuth | null;
  attachments: AttachmentStore;
}

/** The Hono app: the host check and the guard before any route, then every door's routes on one origin. */
async function serverApp(options: WorkspaceServerOptions, { host, jobs, doors, connectors, principals, skills, approvals, oauth, attachments: attachmentStore }: AppParts): Promise<Hono> {
  const bodyBytes = options.maxBodyBytes ?? 65_536;
  const app = new Hono();
  // Which client is asking (per-address caps count by it): the socket's peer, or what the host says it is; its principal carries it.
  const noteAddress = clientAddressNote({ ...(options.limits?.trustProxy ? { trustProxy: true } : {}), ...(options.limits?.clientAddress ? { clientAddress: options.limits.clientAddress } : {}) });
  // One local user and no sign-in: only a loopback name may reach it (a rebound DNS name is not this server); or the names listed.
  const hosts = hostCheck({ loopbackOnly: !options.authenticate, allowedHosts: options.allowedHosts });
  // Both in one middleware: a step less on every request.
  app.use(hosts ? (c, next) => (noteAddress(c), hosts(c, next)) : (c, next) => (noteAddress(c), next()));
  // The MCP App frame document: public, no data, the same for every page (a frame on another site loads it too).
  app.route('/', viewFrameRoutes());
  // The MCP door's protected resource metadata (RFC 9728): public, like the frame, so a client anywhere discovers its authorization server.
  if (oauth) app.route('/', protectedResourceRoutes(oauth));
  // Where a user's sign-in to their own MCP server comes back from another site: a static page, before the guard.
  if (connectors) app.route('/', connectorLandingRoutes(connectors));
  // An attachment's body is the file (its own type and size): its upload streams before the JSON guard, behind the same cross-site rule.
  const attachments = attachmentRoutes({ store: attachmentStore, principal: principals.workspace, allowedOrigins: options.allowedOrigins ?? [], ...(options.attachments ? { limits: options.attachments } : {}) });
  app.route('/', attachments.upload);
  // Before any route: other origins refused (CORS only for the listed ones), JSON bodies only, bounded in size and depth.
  app.use(guard({ allowedOrigins: options.allowedOrigins ?? [], maxBodyBytes: bodyBytes }));
  // A signed-in request first brings that user's saved skills into memory, and with users' own MCP servers
  // connects that user's stored servers (each once per process).
  const chatPrincipal = async (request: Request) => {
    const p = await principals.workspace(request);
    if (p) {
      await skills.ensure(p);
      if (connectors) await connectors.ensure(p);
    }
    return p;
  };
  const { executor, cancelJob } = doors;
  const registry = host.registry;
  app.route(
    '/',
    workspaceRoutes({ host, jobs, executor, principal: chatPrincipal, heartbeatMs: options.heartbeatMs ?? 15_000, attachments: attachments.send, features: [...(connectors ? [CONNECTORS_FEATURE] : []), ...(host.events.threads ? [THREADS_FEATURE] : [])] }),
  );
  app.route('/', attachments.files);
  if (host.events.threads) app.route('/', threadListRoutes({ host, index: host.events.threads, jobs, executor, principal: chatPrincipal }));
  app.route('/', await agUiDoor({ host, principal: chatPrincipal }));
  if (connectors) app.route('/', connectorRoutes({ connectors, principal: principals.workspace }));
  // Views of users' own servers render too, read through that user's connection.
  const own = connectors ? { capabilitiesOf: (p: Principal) => connectors.registryOf(p) } : {};
  app.route('/', mcpAppRoutes({ host, principal: chatPrincipal, ...(options.limits?.appCalls ? { appCalls: options.limits.appCalls } : {}), ...own }));
  app.route('/', approvalRoutes({ approvals, jobs, principal: principals.door, canReadJob: options.canReadJob ?? defaultCanReadJob, waitMs: options.restWaitMs ?? 10_000 }));
  app.route('/', restRoutes({ door: doors.rest, registry, jobs, principal: principals.door, openapi: options.openapi ?? {}, ...(options.canReadJob ? { canReadJob: options.canReadJob } : {}) }));
  app.route(
    '/',
    mcpRoutes({
      door: doors.mcp,
      registry,
      principal: principals.door,
      mutates: options.mcp?.mutates ?? [],
      outputLimit: options.mcp?.outputLimit ?? 32_000,
      bodyBytes,
      serverInfo: { name: options.mcp?.name ?? 'chatsurface', version: options.mcp?.version ?? '1.0.0' },
      jobs,
      executor: { cancel: cancelJob },
      canReadJob: options.canReadJob ?? defaultCanReadJob,
      approvals,
      // The principal's slash skills as MCP prompts, its saved ones loaded first (as for the chat).
      skillsOf: async (p) => (await skills.ensure(p), host.skills(p)),
      ...(oauth ? { oauth } : {}),
      ...(options.mcp?.pageSize !== undefined ? { pageSize: options.mcp.pageSize } : {}),
      ...(options.mcp?.taskAfterMs !== undefined ? { taskAfterMs: options.mcp.taskAfterMs } : {}),
    }),
  );
  app.notFound(() => errorResponse(404, 'not_found', 'No such route. See /v1/openapi.json for the REST door.'));
  app.onError((error) => {
    if (isStoreUnavailable(error)) {
      // The database is away for now: say so, and when to ask again, instead of a 500.
      console.error('[chatsurface] the database is not answering:', error instanceof Error ? error.message : error);
      return errorResponse(503, 'store_unavailable', "The server's database is not answering right now. Try again in a few seconds.", undefined, { 'retry-after': String(STORE_RETRY_AFTER_SECONDS) });
    }
    console.error('[chatsurface] request failed:', error);
    return errorResponse(500, 'internal_error', 'The server failed on this request; nothing was lost. Try again.');
  });
  return app;
}

interface Running {
  app: Hono;
  host: ThreadHost;
  jobs: JobStore;
  doors: ServerDoors;
  connectors: Connectors | null;
  stores: ServerStores;
  consumed: Consumed;
  /** Writes the meter's charges waiting in a batch. */
  flushMeter: () => Promise<void> | undefined;
  sweeper: { stop(): Promise<void> };
  approvals: ServerApprovals;
  oauth: McpOAuth | null;
}

/** The server as its caller holds it: listening (loopback only without `authenticate`), and closing everything in order. */
function serverHandle(options: WorkspaceServerOptions, { app, host, jobs, doors, connectors, stores, consumed, flushMeter, sweeper, approvals, oauth }: Running): WorkspaceServer {
  let http: Server | null = null;
  let closed = false;
  return {
    app,
    fetch: (request, env) => Promise.resolve(app.fetch(request, env)),
    host,
    jobs,
    mcpServers: consumed.status,
    listen({ port = 0, host: hostname = '127.0.0.1' } = {}) {
      if (http) return Promise.reject(new Error('This workspace server is already listening; create another one for a second port.'));
      if (!options.authenticate && !isLoopback(hostname)) {
        return Promise.reject(
          new Error(
            `Refusing to listen on ${hostname}: this server has no authenticate hook, so anyone who reaches it would act as its one local user. Pass createWorkspaceServer({ authenticate }) (a session check, API keys), or listen on 127.0.0.1.`,
          ),
        );
      }
      if (oauth && !oauth.hasResource && !isLoopback(hostname)) {
        return Promise.reject(
          new Error(`Refusing to listen on ${hostname} with mcpAuth but no mcpAuth.resource: set it to the URL clients reach /mcp at (e.g. 'https://app.example.com/mcp'), the audience its access tokens must name.`),
        );
      }
      return new Promise((resolve, reject) => {
        const server = serve({ fetch: app.fetch, port, hostname }, (info: AddressInfo) => {
          const url = `http://${hostname.includes(':') ? `[${hostname}]` : hostname}:${info.port}`;
          // Without mcpAuth.resource, the MCP door's resource is the URL it listens at.
          oauth?.bind(url);
          resolve({ url, port: info.port });
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
      doors.unhook();
      approvals.close();
      // Running turns and jobs stop, and what they write is stored, before the database closes.
      const stopping = host.close('The server is shutting down.');
      await doors.executor.cancelAll('The server is shutting down.');
      await stopping;
      // Answers a retry must replay reach the store before it closes.
      await doors.idempotency.flushed();
      await flushMeter();
      // The sweep in flight, and the records of answered reads still waiting for their batch.
      await sweeper.stop();
      await Promise.all(consumed.connections.map((c) => c.close().catch(() => undefined)));
      await connectors?.close().catch(() => undefined);
      await stores.close();
    },
  };
}
