import { loadOnce } from '../runtime/loadOnce';
import { errorResult } from '../runtime/results';
import { createProtocolClient, type JsonRouteName, type SendRequest } from './protocol/client';

type Routes = typeof routes;
import type { CallInput, routes } from './protocol/routes';
import { createDeliveryLedger } from './remoteDelivery';
import { ATTACHMENTS_FEATURE, CONNECTORS_FEATURE, THREADS_FEATURE } from './protocol/features';
import { MAX_MESSAGE_ATTACHMENTS } from '../runtime/events/plain';
import { RemoteWorkspaceError, refusalError, serverAddress, unreachableError } from './remoteErrors';
import { followThread, type FollowOptions } from './remoteEventStream';
import type { AttachmentsApi, WorkspaceAdapter, WorkspaceManifest } from './types';

export { RemoteWorkspaceError } from './remoteErrors';

export interface RemoteWorkspaceOptions {
  /** Where `createWorkspaceServer` answers, e.g. `https://app.example.com` (or `''` for this page's origin). */
  url: string;
  /** @default globalThis.fetch */
  fetch?: typeof fetch;
  /** Headers sent on every request (a CSRF token, a session header). */
  headers?: Record<string, string>;
  /** The manifest, when the page already has it; otherwise it is read from `GET /v1/manifest`. */
  manifest?: WorkspaceManifest & { features?: string[]; attachments?: { maxPerMessage: number } };
  /** First delay before an event stream reconnects; doubles up to `maxRetryMs`. @default 500 */
  retryMs?: number;
  /** @default 5000 */
  maxRetryMs?: number;
  /**
   * Told when a thread's event stream opens, drops (it reconnects by itself) or
   * is refused for good (`failed`, with the sentence a `RemoteWorkspaceError` would carry: signed out,
   * a bad thread id, this page's origin refused).
   */
  onConnectionChange?: (threadId: string, state: 'open' | 'reconnecting' | 'failed', detail?: string) => void;
}

/** A workspace on a server; `close` ends every event stream. */
export interface RemoteWorkspace extends WorkspaceAdapter {
  close(): void;
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
  const ledger = createDeliveryLedger();
  const { deliveredUpTo, kick } = ledger;
  const stream: FollowOptions = { base, fetch: doFetch, headers, ledger, options };

  const send: SendRequest = async (method, path, body) => {
    let response: Response;
    try {
      response = await doFetch(`${base}${path}`, {
        method,
        headers: { ...headers, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      });
    } catch (error) {
      throw await unreachableError(base, doFetch, error);
    }
    const text = await response.text();
    let json: unknown = null;
    let isJson = text === '';
    try {
      json = text ? JSON.parse(text) : null;
      isJson = true;
    } catch {
      // Not JSON: a refusal says so by its status; a success is not the workspace server's answer.
    }
    if (!response.ok) throw refusalError(serverAddress(base), response.status, json, `${method} ${path}`);
    if (!isJson) {
      const contentType = response.headers.get('content-type')?.split(';')[0] ?? '';
      throw new RemoteWorkspaceError({ key: 'notJson', args: [serverAddress(base), `${method} ${path}`, contentType] }, response.status, 'not_json');
    }
    return { status: response.status, json };
  };
  /** Calls a route of the protocol's table; an answer that does not fit it is an error too. */
  const call = createProtocolClient(send, (message, status) => new RemoteWorkspaceError(message, status, 'unreadable_answer'));

  const write = async <K extends JsonRouteName>(threadId: string, name: K, input: CallInput<Routes[K]>) => {
    const answer = await call(name, input);
    kick(threadId);
    return answer;
  };

  const manifest = options.manifest ?? (await call('manifest', {}));
  const features = new Set(manifest.features ?? []);

  const workspace: RemoteWorkspace = {
    manifest: { capabilities: manifest.capabilities, driver: manifest.driver, alignment: manifest.alignment, anticipation: manifest.anticipation },
    async send({ threadId, text, skill, edits, attachments }) {
      const body = { text, ...(skill !== undefined ? { skill } : {}), ...(edits !== undefined ? { edits } : {}), ...(attachments?.length ? { attachments: [...attachments] } : {}) };
      const { lastSeq } = await write(threadId, 'send', { params: { threadId }, body });
      await deliveredUpTo(threadId, lastSeq);
    },
    async invoke({ threadId, capability, args }) {
      try {
        const answer = await write(threadId, 'invoke', { body: { threadId, capability, args } });
        await deliveredUpTo(threadId, answer.lastSeq);
        return answer.result;
      } catch (error) {
        // Like the local workspace, invoke never throws: the failure is an error result.
        return errorResult(error instanceof Error ? error.message : String(error));
      }
    },
    cancel({ threadId, id }) {
      call('cancel', { params: { id }, body: { threadId } }).catch(() => undefined);
    },
    async decide({ threadId, ...decision }) {
      const { lastSeq } = await write(threadId, 'decide', { params: { threadId }, body: decision });
      await deliveredUpTo(threadId, lastSeq);
    },
    setView({ threadId, view }) {
      write(threadId, 'setView', { params: { threadId }, body: { view } }).catch(() => undefined);
    },
    subscribe(threadId, listener, { since = 0 } = {}) {
      ledger.listen(threadId);
      const stop = followThread(stream, threadId, since, (event) => {
        ledger.markDelivered(threadId, event.seq);
        listener(event);
      });
      let open = true;
      const unsubscribe = () => {
        if (!open) return;
        open = false;
        stop();
        streams.delete(unsubscribe);
        ledger.unlisten(threadId);
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
    workspace.query = async ({ threadId, q }) => (await call('query', { query: { q, threadId } })).nodes;
  }
  if (features.has('feedback')) {
    workspace.feedback = async ({ threadId, ...rating }) => {
      const { lastSeq } = await write(threadId, 'feedback', { params: { threadId }, body: rating });
      await deliveredUpTo(threadId, lastSeq);
    };
  }
  if (features.has('regenerate')) {
    workspace.regenerate = async ({ threadId, messageId }) => {
      const { lastSeq } = await write(threadId, 'regenerate', { params: { threadId }, body: { messageId } });
      await deliveredUpTo(threadId, lastSeq);
    };
  }
  if (features.has('showVersion')) {
    workspace.showVersion = async ({ threadId, ...version }) => {
      const { lastSeq } = await write(threadId, 'showVersion', { params: { threadId }, body: version });
      await deliveredUpTo(threadId, lastSeq);
    };
  }
  if (features.has('setComposer')) {
    workspace.setComposer = ({ threadId, composer }) => {
      write(threadId, 'setComposer', { params: { threadId }, body: { composer } }).catch(() => undefined);
    };
  }
  if (features.has('saveSkill')) {
    workspace.saveSkill = async (skill) => (await write(skill.threadId, 'saveSkill', { body: skill })).node;
  }
  if (features.has('readApp')) {
    workspace.readApp = async ({ threadId, invocationId }) => {
      const view = await call('readApp', { params: { threadId, invocationId } });
      // The frame document the server names is on the server, as every route is.
      return typeof view.frame === 'string' && view.frame.startsWith('/') ? { ...view, frame: `${base}${view.frame}` } : view;
    };
  }
  if (features.has('callAppTool')) {
    workspace.callAppTool = async ({ threadId, invocationId, name, arguments: args, session }) =>
      write(threadId, 'callAppTool', { params: { threadId, invocationId }, body: { name, ...(args ? { arguments: args } : {}), ...(session ? { session } : {}) } });
  }
  for (const action of ['connect', 'disconnect'] as const) {
    if (!features.has(action)) continue;
    workspace[action] = async ({ threadId, provider }) => {
      const { lastSeq } = await write(threadId, 'provider', { params: { threadId }, body: { provider, action } });
      await deliveredUpTo(threadId, lastSeq);
    };
  }
  if (features.has(ATTACHMENTS_FEATURE)) workspace.attachments = attachmentsOf(options, base, doFetch, headers, manifest.attachments);
  addListApis(workspace, features, call);
  return workspace;
}

/**
 * The server's attachment routes, their code loaded on first use (a page that attaches nothing
 * carries none of it): the page's own XMLHttpRequest reports upload progress; a host's `fetch` is
 * used as given (no progress between 0 and done).
 */
function attachmentsOf(options: RemoteWorkspaceOptions, base: string, doFetch: typeof fetch, headers: Record<string, string>, limits: { maxPerMessage: number } | undefined): AttachmentsApi {
  const xhr = !options.fetch && typeof XMLHttpRequest === 'function';
  const maxPerMessage = limits?.maxPerMessage ?? MAX_MESSAGE_ATTACHMENTS;
  const { load } = loadOnce(
    () => import('./remoteAttachments').then((m) => m.remoteAttachments({ base, fetch: doFetch, headers, xhr, maxPerMessage, errors: { RemoteWorkspaceError, refusalError, serverAddress, unreachableError } })),
    'its code for attachments',
  );
  return {
    maxPerMessage,
    upload: (request) => load().then((a) => a.upload(request)),
    read: (id, signal) => load().then((a) => a.read(id, signal)),
    remove: (id) => load().then((a) => a.remove(id)),
  };
}

/** The user's lists the server keeps, when it offers them: their own MCP servers, their threads. */
function addListApis(workspace: RemoteWorkspace, features: ReadonlySet<string>, call: ReturnType<typeof createProtocolClient>): void {
  if (features.has(CONNECTORS_FEATURE)) {
    // The user's own MCP servers: the token goes up in the connect body and never comes back.
    workspace.connectors = {
      list: async () => (await call('listConnectors', {})).servers,
      connect: async (body) => (await call('connectConnector', { body })).server,
      disconnect: async (label) => void (await call('disconnectConnector', { params: { label } })),
      authorize: async (label) => ({ url: (await call('authorizeConnector', { params: { label }, body: {} })).url }),
    };
  }
  if (features.has(THREADS_FEATURE)) {
    // The user's thread list, kept by the server's store: the same in every browser.
    workspace.threads = {
      list: async ({ search, archived, cursor, limit } = {}) =>
        call('listThreads', {
          query: {
            ...(search ? { q: search } : {}),
            ...(archived ? { archived: 'true' as const } : {}),
            ...(cursor ? { cursor } : {}),
            ...(limit ? { limit: String(limit) } : {}),
          },
        }),
      rename: async ({ threadId, title }) => (await call('renameThread', { params: { threadId }, body: { title } })).thread,
      setArchived: async ({ threadId, archived }) => (await call('archiveThread', { params: { threadId }, body: { archived } })).thread,
      remove: async (threadId) => void (await call('deleteThread', { params: { threadId } })),
    };
  }
}
