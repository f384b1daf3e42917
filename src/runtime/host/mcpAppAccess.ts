import type { CapabilityResult } from '../envelope';
import type { CapabilityDescriptor, McpSource } from '../capability';
import { resultApp, type McpAppResource } from '../mcpApp';
import { spaceOf, type Principal } from '../principal';
import type { ThreadHost } from './threadHost';

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

export interface McpAppAccess {
  /** The view of a finished invocation, read (server side) from its MCP server. */
  read(principal: Principal, request: AppViewRequest): Promise<McpAppResource>;
  /**
   * Runs a tool the view asked for, as a chip would: through the thread
   * host (validation, pinning, approval, the door's meter), and only a tool
   * of the view's own server that is visible to apps.
   */
  call(principal: Principal, request: AppToolCallRequest): Promise<AppToolCallAnswer>;
}

/** What an app's call answers: the tool's result, and the invocation it made in the thread (when found). */
export interface AppToolCallAnswer {
  result: CapabilityResult;
  /** The card the call added to the thread, so the surface shows it as the app's call (not a second copy of the view). */
  invocationId?: string;
}

type McpDescriptor = CapabilityDescriptor & { source: McpSource };

/**
 * What the workspace protocol's two MCP App calls do, for the server routes
 * and the local workspace alike: a view is only read for an invocation the
 * principal's own thread holds, and an app's call never leaves the server's
 * capability path.
 */
export function createMcpAppAccess(host: ThreadHost, limits: AppCallLimits = {}): McpAppAccess {
  const throttle = viewThrottle(limits);
  const appOf = async (principal: Principal, { threadId, invocationId }: AppViewRequest) => {
    const events = await host.events.read({ user: principal.user, space: spaceOf(principal), id: threadId });
    let capability: string | undefined;
    let result: CapabilityResult | undefined;
    for (const event of events) {
      if (event.type === 'capability.started' && event.invocation_id === invocationId) capability = event.capability;
      if (event.type === 'capability.done' && event.invocation_id === invocationId) result = event.result;
    }
    if (!capability) throw new McpAppAccessError(404, 'unknown_invocation', `This thread has no invocation "${invocationId}".`);
    const descriptor = host.registry.get(capability);
    const pointer = resultApp(result);
    if (!descriptor || descriptor.source.type !== 'mcp' || !descriptor.source.app || !pointer || pointer.resourceUri !== descriptor.source.app.resourceUri) {
      throw new McpAppAccessError(404, 'no_app', `${descriptor?.title ?? capability} has no MCP App view to show for this invocation.`);
    }
    return descriptor as McpDescriptor & { source: { app: NonNullable<McpSource['app']> } };
  };

  return {
    async read(principal, request) {
      const descriptor = await appOf(principal, request);
      try {
        return await descriptor.source.app.read();
      } catch (error) {
        throw new McpAppAccessError(502, 'app_unavailable', error instanceof Error ? error.message : String(error));
      }
    },
    async call(principal, request) {
      const descriptor = await appOf(principal, request);
      // Refused before anything runs: no card, no job, no call to the MCP server.
      throttle(`${principal.space ?? ''}\u0000${principal.user}\u0000${request.threadId}\u0000${request.invocationId}`);
      const server = descriptor.source.server;
      const target = host.registry
        .list()
        .find((d): d is McpDescriptor => d.source.type === 'mcp' && d.source.server === server && d.source.tool === request.name);
      if (!target) {
        throw new McpAppAccessError(404, 'unknown_tool', `The app asked for the tool "${request.name}", which "${server}" does not offer in this workspace.`);
      }
      if (target.source.app && !target.source.app.visibility.includes('app')) {
        throw new McpAppAccessError(403, 'not_for_apps', `The tool "${request.name}" of "${server}" is for the model only; an app may not call it.`);
      }
      const before = await host.lastSeq(principal, request.threadId);
      const result = await host.invoke(principal, { threadId: request.threadId, capability: target.name, args: request.arguments ?? {} });
      // The card this call added: the first direct (no turn, no model call) start of that capability after the call began.
      const events = await host.events.read({ user: principal.user, space: spaceOf(principal), id: request.threadId }, before);
      const started = events.find((e) => e.type === 'capability.started' && e.capability === target.name && !e.turn_id && !e.call_id);
      return started && started.type === 'capability.started' ? { result, invocationId: started.invocation_id } : { result };
    },
  };
}

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
