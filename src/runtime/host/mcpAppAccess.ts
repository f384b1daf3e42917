import type { CapabilityResult } from '../envelope';
import type { Emit } from '../events';
import type { CapabilityDescriptor, McpSource } from '../capability';
import type { JobStore } from '../jobs';
import { resultApp, type McpAppResource } from '../mcpApp';
import { spaceOf, type Principal } from '../principal';
import type { Registry } from '../registry';
import { threadKey } from '../stores/threadRef';
import { createAppSessions } from './appSessions';
import { overlayRegistry } from './overlay';
import type { ThreadHost } from './hostTypes';

export { APP_APPROVAL_PREFIX, withAppApprovals } from './appSessions';

/** Which card's view: an invocation of the principal's thread whose result points at a view. */
export interface AppViewRequest {
  threadId: string;
  invocationId: string;
}

/** A tool call made from inside a card's view (MCP `tools/call` from the app). */
export interface AppToolCallRequest extends AppViewRequest {
  /** The tool's name on the view's own MCP server, e.g. `get-time`. */
  name: string;
  arguments?: Record<string, unknown>;
  /** The view's session (a new one each time the card's frame opens it): a tool that needs approval asks once per session. */
  session?: string;
}

/** Why a view or an app's call was refused; `status` is the HTTP status a server answers with. */
export class McpAppAccessError extends Error {
  override name = 'McpAppAccessError';
  constructor(
    readonly status: 400 | 403 | 404 | 429 | 502,
    readonly code: string,
    message: string,
    /** With 429: seconds until the view may call again (sent as `Retry-After`). */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }
}

/** How many tool calls one card's view may make: a burst, then a steady rate. */
export interface AppCallLimits {
  /** Calls a view may make at once. @default 10 */
  burst?: number;
  /** Calls a view may make a minute after its burst. @default 60 */
  perMinute?: number;
  /** Clock, in epoch ms. @default Date.now */
  now?: () => number;
}

/** Views remembered at most (each is a few numbers); the least recently used are forgotten first. */
const MAX_VIEWS = 10_000;

/** What the app access needs beyond the host. */
export interface McpAppAccessOptions {
  /** Tool calls one card's view may make. @default { burst: 10, perMinute: 60 } */
  limits?: AppCallLimits;
  /**
   * The principal's own capabilities (a user's own MCP servers), as the host has them
   * (`ThreadHostOptions.capabilitiesOf`): their views render and their apps call back through
   * that user's own connection. @default none: the shared registry only
   */
  capabilitiesOf?: (principal: Principal) => Registry | undefined;
  /** How long an app's first call of a tool that needs approval waits for the user's decision. @default 50000 */
  approvalWaitMs?: number;
}

export interface McpAppAccess {
  /** The view of a finished invocation, read (server side) from its MCP server: the principal's own connection for their own servers. */
  read(principal: Principal, request: AppViewRequest): Promise<McpAppResource>;
  /**
   * Runs a tool the view asked for, inside the card: validated and pinned as any call, only a
   * tool of the view's own server that is visible to apps, and nothing added to the thread (no
   * card, no model history). A tool that needs approval asks once per app session: one approval
   * row, then the session's calls of it run.
   */
  call(principal: Principal, request: AppToolCallRequest): Promise<AppToolCallAnswer>;
}

/** What an app's call answers: the tool's result. */
export interface AppToolCallAnswer {
  result: CapabilityResult;
  /** A card the call added to the thread (servers before issue 44 made one per call; this one makes none). */
  invocationId?: string;
}

type McpDescriptor = CapabilityDescriptor & { source: McpSource };
type ViewDescriptor = McpDescriptor & { source: { app: NonNullable<McpSource['app']> } };

/**
 * What the workspace protocol's two MCP App calls do, for the server routes
 * and the local workspace alike: a view is only read for an invocation the
 * principal's own thread holds, of a tool in the principal's own registry
 * (the shared one, with their own servers over it), and an app's call never
 * leaves the principal's capabilities.
 * @example
 * const apps = createMcpAppAccess(host, { capabilitiesOf: (p) => connectors.registryOf(p) });
 */
export function createMcpAppAccess(host: ThreadHost, options: McpAppAccessOptions = {}): McpAppAccess {
  const throttle = viewThrottle(options.limits ?? {});
  const sessions = createAppSessions(host, options.approvalWaitMs !== undefined ? { waitMs: options.approvalWaitMs } : {});
  // The job records of apps' calls: in memory, a few hundred at most (a polling app makes one every few seconds).
  let jobs: JobStore | undefined;
  const registryOf = (principal: Principal): Registry => {
    const own = options.capabilitiesOf?.(principal);
    return own ? overlayRegistry(host.registry, own) : host.registry;
  };

  const appOf = async (principal: Principal, registry: Registry, { threadId, invocationId }: AppViewRequest): Promise<ViewDescriptor> => {
    const events = await host.events.read({ user: principal.user, space: spaceOf(principal), id: threadId });
    let capability: string | undefined;
    let result: CapabilityResult | undefined;
    for (const event of events) {
      if (event.type === 'capability.started' && event.invocation_id === invocationId) capability = event.capability;
      if (event.type === 'capability.done' && event.invocation_id === invocationId) result = event.result;
    }
    if (!capability) throw new McpAppAccessError(404, 'unknown_invocation', `This thread has no invocation "${invocationId}".`);
    const descriptor = registry.get(capability);
    const pointer = resultApp(result);
    if (!descriptor && pointer) {
      throw new McpAppAccessError(404, 'no_app', `"${capability}" is not among your tools any more (its MCP server was disconnected), so its view cannot be shown.`);
    }
    if (!descriptor || descriptor.source.type !== 'mcp' || !descriptor.source.app || !pointer || pointer.resourceUri !== descriptor.source.app.resourceUri) {
      throw new McpAppAccessError(404, 'no_app', `${descriptor?.title ?? capability} has no MCP App view to show for this invocation.`);
    }
    return descriptor as ViewDescriptor;
  };

  return {
    async read(principal, request) {
      const descriptor = await appOf(principal, registryOf(principal), request);
      try {
        return await descriptor.source.app.read();
      } catch (error) {
        throw new McpAppAccessError(502, 'app_unavailable', error instanceof Error ? error.message : String(error));
      }
    },
    async call(principal, request) {
      const registry = registryOf(principal);
      const view = await appOf(principal, registry, request);
      // Refused before anything runs: no row, no job, no call to the MCP server.
      throttle(`${principal.space ?? ''}\u0000${principal.user}\u0000${request.threadId}\u0000${request.invocationId}`);
      const server = view.source.server;
      const target = registry
        .list()
        .find((d): d is McpDescriptor => d.source.type === 'mcp' && d.source.server === server && d.source.tool === request.name);
      if (!target) {
        throw new McpAppAccessError(404, 'unknown_tool', `The app asked for the tool "${request.name}", which "${server}" does not offer in this workspace.`);
      }
      const visibility = target.source.visibility ?? target.source.app?.visibility;
      if (visibility && !visibility.includes('app')) {
        throw new McpAppAccessError(403, 'not_for_apps', `The tool "${request.name}" of "${server}" is for the model only; an app may not call it.`);
      }
      // The capability runner loads on first use, as the host's does (a page that shows no app never loads it for this).
      const parts = await import('./turnParts');
      jobs ??= (await import('../jobs')).createMemoryJobStore({ limit: 200 });
      const info = registry.describe().find((c) => c.name === target.name);
      if (info && parts.confirmationReason(info)) {
        const refusal = await sessions.admit(principal, request, { capability: target.name, title: target.title, app: view.title, args: request.arguments ?? {} });
        if (refusal) return { result: refusal };
      }
      // Inside the card: validated and pinned as any call, its lifecycle heard by no one, so the thread does not grow.
      const ref = { user: principal.user, space: spaceOf(principal), id: request.threadId };
      const result = await parts.invoke(target.name, request.arguments ?? {}, { registry, emit: silent, threadKey: threadKey(ref), jobs });
      return { result };
    },
  };
}

/** Where an app call's lifecycle events go: nowhere (the card that shows the app is the only place it shows). */
const silent = ((event: Parameters<Emit>[0]) => ({ ...event, seq: 0, ts: 0 })) as Emit;

/**
 * A token bucket per view (one card's invocation): `burst` calls at once,
 * then `perMinute`. A call beyond it throws a 429 `McpAppAccessError` in
 * words the view can show. In this process's memory: a view talks to the
 * instance that serves its page, and N instances allow at most N times the rate.
 */
function viewThrottle(limits: AppCallLimits): (view: string) => void {
  const burst = limits.burst ?? 10;
  const perMinute = limits.perMinute ?? 60;
  const now = limits.now ?? Date.now;
  if (!(burst >= 1) || !(perMinute > 0)) throw new Error(`App call limits need a burst of at least 1 and a positive rate a minute, not ${burst} and ${perMinute}.`);
  const buckets = new Map<string, { tokens: number; at: number }>();
  return (view) => {
    const t = now();
    const b = buckets.get(view) ?? { tokens: burst, at: t };
    b.tokens = Math.min(burst, b.tokens + ((t - b.at) * perMinute) / 60_000);
    b.at = t;
    buckets.delete(view);
    buckets.set(view, b);
    if (buckets.size > MAX_VIEWS) {
      // Oldest first (a Map keeps insertion order, and each use moves a view to the end).
      for (const key of buckets.keys()) {
        buckets.delete(key);
        if (buckets.size <= MAX_VIEWS) break;
      }
    }
    if (b.tokens < 1) {
      const wait = Math.max(1, Math.ceil(((1 - b.tokens) * 60_000) / perMinute / 1000));
      throw new McpAppAccessError(
        429,
        'app_calls_limited',
        `This app is calling tools too often: it may make ${burst} calls at once, then ${perMinute} a minute. This call was not run; it can try again in ${wait} s.`,
        wait,
      );
    }
    b.tokens -= 1;
  };
}
