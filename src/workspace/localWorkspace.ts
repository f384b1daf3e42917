import { loadOnce } from '../runtime/loadOnce';
import type { Composer } from '../runtime/events';
import { createThreadHostWith, type RunCapability, type ThreadHost, type ThreadHostOptions } from '../runtime/host/threadHost';
import type { Principal } from '../runtime/principal';
import type { Registry } from '../runtime/registry';
import type { CatalogNode } from '../runtime/catalogNodes';
import type { SkillDirectory } from '../runtime/slash/skillDirectory';
import { withAppApprovals } from '../runtime/host/appApprovals';
import { loadHostExtras } from '../runtime/host/extrasOnUse';
import { createRegistryOnUse, jsonSchemasLoaded, loadJsonSchemas } from '../runtime/host/schemasOnUse';
import type { ThreadsApi } from './threadsProtocol';
import type { ProviderRequest, SaveSkillRequest, WorkspaceAdapter } from './types';

export type { ProviderHooks } from '../runtime/host/threadHost';

/** The thread host's options that a page sets; the host's limits and eviction do not apply to one user in a page. */
export interface LocalWorkspaceOptions
  extends Pick<
    ThreadHostOptions,
    | 'capabilities'
    | 'driver'
    | 'alignment'
    | 'anticipation'
    | 'now'
    | 'whitelist'
    | 'reminders'
    | 'retrieve'
    | 'maxSteps'
    | 'router'
    | 'events'
    | 'probes'
    | 'runCapability'
    | 'skills'
    | 'catalog'
    | 'providers'
    | 'onFeedback'
  > {
  /** The current user: `{user}` in node queries, owner of private skills. @default 'me' */
  user?: string;
  /** The current space: `{space}` in node queries. @default 'default' */
  space?: string;
}

export interface LocalWorkspace extends WorkspaceAdapter {
  /** The registry behind the manifest, for hosts that add tooling around it. */
  readonly registry: Registry;
  /** The thread host underneath (its one user is `user` in `space`). */
  readonly host: ThreadHost;
  /** Sets the thread's composer selections (harness, agent, model); emits `composer.changed`. */
  setComposer(request: { threadId: string; composer: Composer }): void;
  /** The user's slash skills: discovery, saving, and what the model is told about them. */
  readonly skills: SkillDirectory;
  /** Runs a node query for this user and space; a bad query rejects with the `NodeQueryError` message. */
  query(request: { threadId: string; q: string }): Promise<CatalogNode[]>;
  /** Saves a skill under `{user}/Skill` (private) or `{space}/Skill`; emits `skill.saved`; rejects with a `SkillFileError`. */
  saveSkill(request: SaveSkillRequest): Promise<CatalogNode>;
  /** Calls the host's `providers.connect`; rejects clearly without one. */
  connect(request: ProviderRequest): Promise<void>;
  /** Calls the host's `providers.disconnect`; rejects clearly without one. */
  disconnect(request: ProviderRequest): Promise<void>;
  /**
   * Loads the JSON Schema converter. The capabilities' `inputSchema` and `outputSchema` (in the
   * manifest and `registry.describe()`) convert when first read, and the converter loads on first
   * use (the first turn or call, or a thread whose history has calls); read them before that, and
   * await this first.
   */
  loadSchemas(): Promise<void>;
}

/**
 * A workspace that runs the runtime in the page (stories, static demos, tests):
 * a thread host with one user. The offline model answers unless another
 * driver is given.
 * @example
 * const workspace = createLocalWorkspace({ capabilities: [add, slowReport], alignment: 'loose' });
 * <ChatSurface workspace={workspace} />
 */
export function createLocalWorkspace(options: LocalWorkspaceOptions): LocalWorkspace {
  const { user = 'me', space = 'default', ...hostOptions } = options;
  const runCapability = hostOptions.runCapability ?? chatCallsOnFirstUse(() => host.registry, hostOptions.probes);
  // One user in a page: nothing to evict for, nothing to cap.
  // An MCP App's approval rows (once per app session): deciding one runs nothing in the thread.
  const doorApprovals = withAppApprovals();
  const host: ThreadHost = createThreadHostWith(
    { ...hostOptions, runCapability, doorApprovals, idleMs: Infinity, maxThreadsPerUser: Infinity, maxLiveThreads: Infinity },
    // An empty chat reads no schema: zod's JSON Schema code loads with the turn code, or with a history that has calls.
    { create: createRegistryOnUse, schemas: { loaded: jsonSchemasLoaded, load: loadJsonSchemas } },
  );
  const me: Principal = { user, space, scopes: ['skills:space'] };
  const skills = host.skills(me);
  const quietly = (work: Promise<unknown>) => void work.catch((error) => console.error('[chatsurface]', error));
  // An MCP App's view and its calls: the code loads when a card first shows one (one access, its app sessions with it).
  const appsOnUse = loadOnce(() => loadHostExtras().then((m) => m.createMcpAppAccess(host)), 'its code for this').load;

  const threads = host.events.threads ? localThreads(host, host.events.threads, me) : undefined;

  return {
    ...(threads ? { threads } : {}),
    registry: host.registry,
    manifest: {
      capabilities: host.registry.describe(),
      driver: host.driver.info,
      alignment: host.alignment,
      anticipation: host.anticipation,
    },
    host,
    // A page's own workspace keeps no files (it has no attachment store and offers no `attachments`, so the
    // surface shows no Attach button); a send that names some is refused in words, nothing sent.
    send: async ({ attachments, ...request }) => {
      if (attachments?.length) throw new Error(LOCAL_NO_ATTACHMENTS);
      return host.send(me, request);
    },
    invoke: (request) => host.invoke(me, request),
    cancel: (request) => quietly(host.cancel(me, request)),
    decide: (request) => host.decide(me, request),
    feedback: (request) => host.feedback(me, request),
    regenerate: (request) => host.regenerate(me, request),
    showVersion: (request) => host.showVersion(me, request),
    setView: (request) => quietly(host.setView(me, request)),
    setComposer: (request) => quietly(host.setComposer(me, request)),
    skills,
    query: (request) => host.query(me, request),
    saveSkill: (request) => host.saveSkill(me, request),
    connect: (request) => host.connect(me, request),
    disconnect: (request) => host.disconnect(me, request),
    readApp: (request) => appsOnUse().then((a) => a.read(me, request)),
    callAppTool: (request) => appsOnUse().then((a) => a.call(me, request)),
    loadSchemas: loadJsonSchemas,
    subscribe: (threadId, listener, { since = 0 } = {}) => host.subscribe(me, threadId, listener, since),
  };
}

/** Why a page's own workspace refuses a message with files. */
export const LOCAL_NO_ATTACHMENTS = 'This workspace runs in the page and keeps no files: attachments need a workspace server (createRemoteWorkspace). Nothing was sent.';

/** The page user's thread list, straight from the store's index (the memory store's by default). */
function localThreads(host: ThreadHost, index: NonNullable<ThreadHost['events']['threads']>, me: Principal): ThreadsApi {
  const owner = { user: me.user, space: me.space ?? 'default' };
  const found = <T>(threadId: string, value: T | null): T => {
    if (value === null) throw new Error(`There is no thread "${threadId}" here.`);
    return value;
  };
  return {
    list: async (query = {}) => index.list(owner, query),
    rename: async ({ threadId, title }) => {
      const name = title.trim();
      if (!name) throw new Error('Give the thread a name.');
      return found(threadId, await index.rename({ ...owner, id: threadId }, name));
    },
    setArchived: async ({ threadId, archived }) => found(threadId, await index.setArchived({ ...owner, id: threadId }, archived)),
    remove: async (threadId) => void found(threadId, (await host.deleteThread(me, threadId)) || null),
  };
}

/**
 * The page's capability calls go through the chat door and the doors' executor, as a
 * server's do, so one chip writes the same events in the page and on a server. That code
 * sits with the turn parts and loads with them (the host has loaded them before its first
 * call); a failed load is tried again on the next call.
 */
function chatCallsOnFirstUse(registry: () => Registry, probes: LocalWorkspaceOptions['probes']): RunCapability {
  const runner = loadOnce(() => import('../runtime/host/turnParts').then((parts) => parts.localChatCalls({ registry: registry(), ...(probes ? { probes } : {}) })), 'its turn code');
  return (name, args, options) => {
    const run = runner.current();
    return run ? run(name, args, options) : runner.load().then((loaded) => loaded(name, args, options));
  };
}
