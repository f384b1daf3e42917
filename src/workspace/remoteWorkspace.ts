import { errorResult } from '../runtime/envelope';
import { parseThreadEvent, type ThreadEvent } from '../runtime/events';
import { MCP_SERVERS_FEATURE } from './mcpServersProtocol';
import { ErrorAnswer } from './protocol/answers';
import { createProtocolClient, type SendRequest } from './protocol/client';
import { createEventStreamReader } from './protocol/eventStreamReader';
import { pathOf, routes, type CallInput, type JsonRoute } from './protocol/routes';
import type { WorkspaceAdapter, WorkspaceManifest } from './types';

export interface RemoteWorkspaceOptions {
  /** Where `createWorkspaceServer` answers, e.g. `https://app.example.com` (or `''` for this page's origin). */
  url: string;
  /** @default globalThis.fetch */
  fetch?: typeof fetch;
  /** Headers sent on every request (a CSRF token, a session header). */
  headers?: Record<string, string>;
  /** The manifest, when the page already has it; otherwise it is read from `GET /v1/manifest`. */
  manifest?: WorkspaceManifest & { features?: string[] };
  /** First delay before an event stream reconnects; doubles up to `maxRetryMs`. @default 500 */
  retryMs?: number;
  /** @default 5000 */
  maxRetryMs?: number;
  /**
   * Told when a thread's event stream opens, drops (it reconnects by itself) or
   * is refused for good (`failed`, with the server's message: signed out, a bad thread id).
   */
  onConnectionChange?: (threadId: string, state: 'open' | 'reconnecting' | 'failed', detail?: string) => void;
}

/** A workspace on a server; `close` ends every event stream. */
export interface RemoteWorkspace extends WorkspaceAdapter {
  close(): void;
}

/** What the server said went wrong, as an Error whose message a user can read. */
export class RemoteWorkspaceError extends Error {
  override name = 'RemoteWorkspaceError';
  constructor(
    message: string,
    /** The HTTP status, or 0 when the server could not be reached. */
    readonly status: number,
    /** The error code of the JSON body, e.g. `invalid_request`. */
    readonly code: string,
  ) {
    super(message);
  }
}

/**
 * A workspace that talks to `createWorkspaceServer` over HTTP and
 * server-sent events (fetch and stream parsing only: browsers, workers,
 * Node). A dropped event stream reconnects with `Last-Event-ID`, so the
 * transcript gets every event exactly once.
 * @example
 * const workspace = await createRemoteWorkspace({ url: 'https://app.example.com' });
 * <ChatSurface workspace={workspace} />
 */
export async function createRemoteWorkspace(options: RemoteWorkspaceOptions): Promise<RemoteWorkspace> {
  const base = options.url.replace(/\/+$/, '');
  const doFetch = options.fetch ?? globalThis.fetch.bind(globalThis);
  const headers = options.headers ?? {};
  const streams = new Set<() => void>();
  /** Highest seq delivered per thread, and who waits for a higher one. */
  const delivered = new Map<string, number>();
  const waiters = new Map<string, Set<{ seq: number; resolve: () => void }>>();
  /** Open subscriptions per thread. */
  const listening = new Map<string, number>();

  const send: SendRequest = async (method, path, body) => {
    let response: Response;
    try {
      response = await doFetch(`${base}${path}`, {
        method,
        headers: { ...headers, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      });
    } catch (error) {
      const detail = error instanceof Error ? error.message : String(error);
      throw new RemoteWorkspaceError(`Could not reach the workspace server at ${base || 'this origin'} (${detail}).`, 0, 'unreachable');
    }
    const text = await response.text();
    let json: unknown = null;
    try {
      json = text ? JSON.parse(text) : null;
    } catch {
      // Not JSON: reported below with the status.
    }
    if (!response.ok) {
      const parsed = ErrorAnswer.safeParse(json);
      const error = parsed.success ? parsed.data.error : undefined;
      throw new RemoteWorkspaceError(error?.message ?? `The workspace server answered ${response.status}.`, response.status, error?.code ?? 'http_error');
    }
    return { status: response.status, json };
  };
  /** Calls a route of the protocol's table; an answer that does not fit it is an error too. */
  const call = createProtocolClient(send, (message, status) => new RemoteWorkspaceError(message, status, 'unreadable_answer'));

  /** Resolves once this client's stream of the thread has delivered `seq` (or soon, when nobody listens). */
  const deliveredUpTo = (threadId: string, seq: number): Promise<void> => {
    if ((delivered.get(threadId) ?? 0) >= seq || !waiters.has(threadId)) return Promise.resolve();
    return new Promise((resolve) => {
      // The events are on the server either way; do not hang a caller on a stream that is reconnecting.
      const timer = setTimeout(() => {
        waiters.get(threadId)?.delete(entry);
        resolve();
      }, 10_000);
      const entry = {
        seq,
        resolve: () => {
          clearTimeout(timer);
          resolve();
        },
      };
      waiters.get(threadId)!.add(entry);
    });
  };
  const markDelivered = (threadId: string, seq: number) => {
    if (seq <= (delivered.get(threadId) ?? 0)) return;
    delivered.set(threadId, seq);
    for (const entry of waiters.get(threadId) ?? []) {
      if (entry.seq <= seq) {
        waiters.get(threadId)!.delete(entry);
        entry.resolve();
      }
    }
  };

  /** Streams waiting for a thread to exist (a new thread is 404 until its first write), by thread. */
  const kicks = new Map<string, Set<() => void>>();
  /** A write to the thread went through: a stream waiting for it to exist tries again now. */
  const kick = (threadId: string) => {
    for (const wake of kicks.get(threadId) ?? []) wake();
  };
  const write = async <R extends JsonRoute>(threadId: string, route: R, input: CallInput<R>) => {
    const answer = await call(route, input);
    kick(threadId);
    return answer;
  };

  const manifest = options.manifest ?? (await call(routes.manifest, {}));
  const features = new Set(manifest.features ?? []);

  const workspace: RemoteWorkspace = {
    manifest: { capabilities: manifest.capabilities, driver: manifest.driver, alignment: manifest.alignment, anticipation: manifest.anticipation },
    async send({ threadId, text }) {
      const { lastSeq } = await write(threadId, routes.send, { params: { threadId }, body: { text } });
      await deliveredUpTo(threadId, lastSeq);
    },
    async invoke({ threadId, capability, args }) {
      try {
        const answer = await write(threadId, routes.invoke, { body: { threadId, capability, args } });
        await deliveredUpTo(threadId, answer.lastSeq);
        return answer.result;
      } catch (error) {
        // Like the local workspace, invoke never throws: the failure is an error result.
        return errorResult(error instanceof Error ? error.message : String(error));
      }
    },
    cancel({ threadId, id }) {
      call(routes.cancel, { params: { id }, body: { threadId } }).catch(() => undefined);
    },
    async decide({ threadId, ...decision }) {
      const { lastSeq } = await write(threadId, routes.decide, { params: { threadId }, body: decision });
      await deliveredUpTo(threadId, lastSeq);
    },
    setView({ threadId, view }) {
      write(threadId, routes.setView, { params: { threadId }, body: { view } }).catch(() => undefined);
    },
    subscribe(threadId, listener, { since = 0 } = {}) {
      listening.set(threadId, (listening.get(threadId) ?? 0) + 1);
      if (!waiters.has(threadId)) waiters.set(threadId, new Set());
      const stop = follow(threadId, since, (event) => {
        markDelivered(threadId, event.seq);
        listener(event);
      });
      let open = true;
      const unsubscribe = () => {
        if (!open) return;
        open = false;
        stop();
        streams.delete(unsubscribe);
        const left = (listening.get(threadId) ?? 1) - 1;
        if (left > 0) return void listening.set(threadId, left);
        // Nobody listens any more: whoever waits for delivery stops waiting.
        listening.delete(threadId);
        for (const entry of waiters.get(threadId) ?? []) entry.resolve();
        waiters.delete(threadId);
      };
      streams.add(unsubscribe);
      return unsubscribe;
    },
    close() {
      for (const unsubscribe of [...streams]) unsubscribe();
    },
  };
  // The optional methods the server's workspace has, so the surface offers exactly what works.
  if (features.has('query')) {
    workspace.query = async ({ threadId, q }) => (await call(routes.query, { query: { q, threadId } })).nodes;
  }
  if (features.has('setComposer')) {
    workspace.setComposer = ({ threadId, composer }) => {
      write(threadId, routes.setComposer, { params: { threadId }, body: { composer } }).catch(() => undefined);
    };
  }
  if (features.has('saveSkill')) {
    workspace.saveSkill = async (skill) => (await write(skill.threadId, routes.saveSkill, { body: skill })).node;
  }
  if (features.has('readApp')) {
    workspace.readApp = ({ threadId, invocationId }) => call(routes.readApp, { params: { threadId, invocationId } });
  }
  if (features.has('callAppTool')) {
    workspace.callAppTool = async ({ threadId, invocationId, name, arguments: args }) =>
      write(threadId, routes.callAppTool, { params: { threadId, invocationId }, body: { name, ...(args ? { arguments: args } : {}) } });
  }
  for (const action of ['connect', 'disconnect'] as const) {
    if (!features.has(action)) continue;
    workspace[action] = async ({ threadId, provider }) => {
      const { lastSeq } = await write(threadId, routes.provider, { params: { threadId }, body: { provider, action } });
      await deliveredUpTo(threadId, lastSeq);
    };
  }
  if (features.has(MCP_SERVERS_FEATURE)) {
    // The user's own MCP servers: the token goes up in the connect body and never comes back.
    workspace.mcpServers = {
      list: async () => (await call(routes.listMcpServers, {})).servers,
      connect: async (body) => (await call(routes.connectMcpServer, { body })).server,
      disconnect: async (label) => void (await call(routes.disconnectMcpServer, { params: { label } })),
    };
  }
  return workspace;

  /** One thread's event stream, reconnecting with `Last-Event-ID` until stopped; each seq is delivered once. */
  function follow(threadId: string, since: number, deliver: (event: ThreadEvent) => void): () => void {
    let last = since;
    let stopped = false;
    let controller: AbortController | null = null;
    let delay = options.retryMs ?? 500;
    let serverRetry: number | null = null;
    const maxDelay = options.maxRetryMs ?? 5_000;

    const run = async () => {
      while (!stopped) {
        controller = new AbortController();
        const before = last;
        let ended = false;
        try {
          const response = await doFetch(`${base}${pathOf(routes.events.path, { threadId })}`, {
            headers: { ...headers, accept: 'text/event-stream', 'last-event-id': String(last) },
            signal: controller.signal,
          });
          if (response.ok && response.body) {
            options.onConnectionChange?.(threadId, 'open');
            delay = serverRetry ?? options.retryMs ?? 500;
            const parse = createEventStreamReader({
              onRetry: (ms) => (serverRetry = ms),
              onEvent: (message) => {
                if (!message.data) return;
                const event = readEvent(message.data);
                // Replays the server repeats after a reconnect are dropped here; the fold would ignore them too.
                if (!event || event.seq <= last) return;
                last = event.seq;
                deliver(event);
              },
            });
            const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
            for (;;) {
              const { value, done } = await reader.read();
              if (done || stopped) break;
              parse(value);
            }
            ended = true;
          } else if (response.status === 404 && (await errorCode(response)) === 'unknown_thread') {
            // A thread nobody has written yet: wait for this client's first write to it (or a while), then look again.
            await untilKicked(threadId, delay);
            delay = Math.min(delay * 2, maxDelay);
            continue;
          } else if (response.status >= 400 && response.status < 500 && response.status !== 429) {
            // A request the server will never accept (bad id, signed out): retrying cannot help.
            const refused = ErrorAnswer.safeParse(await response.json().catch(() => null));
            options.onConnectionChange?.(threadId, 'failed', (refused.success ? refused.data.error.message : undefined) ?? `The workspace server answered ${response.status}.`);
            return;
          } else {
            await response.body?.cancel();
          }
        } catch {
          // Network error or server gone: reconnect below.
        }
        if (stopped) return;
        // The server ended a stream that was delivering (a page of a long backlog): go on at once.
        if (ended && last > before) continue;
        options.onConnectionChange?.(threadId, 'reconnecting');
        await new Promise((resolve) => setTimeout(resolve, delay));
        delay = Math.min(delay * 2, maxDelay);
      }
    };
    void run();
    return () => {
      stopped = true;
      controller?.abort();
      kick(threadId);
    };
  }

  /** Resolves on the next write to the thread, or after `ms`. */
  function untilKicked(threadId: string, ms: number): Promise<void> {
    return new Promise((resolve) => {
      let set = kicks.get(threadId);
      if (!set) kicks.set(threadId, (set = new Set()));
      const wake = () => {
        clearTimeout(timer);
        set!.delete(wake);
        if (set!.size === 0) kicks.delete(threadId);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      set.add(wake);
    });
  }
}

/** The `error.code` of a JSON error response ('' when there is none); reads the body. */
async function errorCode(response: Response): Promise<string> {
  const parsed = ErrorAnswer.safeParse(await response.json().catch(() => null));
  return (parsed.success && parsed.data.error.code) || '';
}

/**
 * An event from the stream, validated where it enters the page. One that
 * does not fit the contract but has a seq becomes an error row in its place
 * (the seq stays accounted for); one with no seq cannot be placed and is dropped.
 */
function readEvent(data: string): ThreadEvent | null {
  let raw: unknown;
  try {
    raw = JSON.parse(data);
  } catch {
    return null;
  }
  const parsed = parseThreadEvent(raw);
  if (parsed.ok) return parsed.event;
  const seq = typeof raw === 'object' && raw !== null && 'seq' in raw ? raw.seq : undefined;
  if (typeof seq !== 'number' || !Number.isSafeInteger(seq) || seq <= 0) return null;
  return {
    type: 'turn.error',
    seq,
    ts: Date.now(),
    code: 'malformed_event',
    message: `Skipped an event the chat could not read (${parsed.error}). Nothing else was lost.`,
    recoverable: false,
  };
}
