import type { AnticipationMap } from '../runtime/anticipation';
import type { CapabilityDescriptor } from '../runtime/capability';
import type { ActiveView, Composer } from '../runtime/events';
import { createThreadHost, type ProviderHooks, type RunCapability, type ThreadHost } from '../runtime/host/threadHost';
import type { Alignment, CorpusPassage, ModelDriver, Route } from '../runtime/model';
import type { PostconditionProbes } from '../runtime/postconditions';
import type { Principal } from '../runtime/principal';
import type { Registry } from '../runtime/registry';
import type { Catalog } from '../runtime/slash/catalog';
import type { CatalogNode } from '../runtime/slash/nodes';
import type { SkillDirectory } from '../runtime/slash/skillDirectory';
import type { EventStore } from '../runtime/stores/eventStore';
import type { ProviderRequest, SaveSkillRequest, WorkspaceAdapter } from './types';

export type { ProviderHooks } from '../runtime/host/threadHost';

export interface LocalWorkspaceOptions {
  /** The verbs this workspace offers. */
  capabilities: readonly CapabilityDescriptor[];
  /** The model that answers. @default the offline driver */
  driver?: ModelDriver;
  /** `strict` proposes anything the user did not name; `loose` runs a single clear match. @default 'strict' */
  alignment?: Alignment;
  /** Suggested next verbs by `${view.kind}::${lastCapability | 'none'}`. @default {} */
  anticipation?: AnticipationMap;
  /** Clock for event timestamps. @default Date.now */
  now?: () => number;
  /** A turn's whitelist by view and composer, as capability names; undefined means all. @default all */
  whitelist?: (scope: { view: ActiveView | null; composer: Composer }) => readonly string[] | undefined;
  /** Per-organisation reminders for the model (cached prompt slab [4]). @default '' */
  reminders?: string;
  /** Retrieves passages for a message (uncached slab [7]); a failure shows a row and the turn goes on. */
  retrieve?: (query: { threadId: string; text: string; view: ActiveView | null; signal: AbortSignal }) => Promise<readonly CorpusPassage[]>;
  /** Model calls per turn before it gives up. @default 8 */
  maxSteps?: number;
  /**
   * Reads a message as one-shot, standing or ambiguous (ambiguous asks one
   * question). A host that wants every standing request confirmed before it
   * takes it over can turn `standing` into `ambiguous` here. @default routeIntent
   */
  router?: (text: string) => Route;
  /** Where the threads' events live (a restored thread replays its log). @default in memory */
  events?: EventStore;
  /** How postconditions look at the workspace (the host's row counter, a file lister). @default none */
  probes?: PostconditionProbes;
  /** Runs every capability the workspace invokes. @default invoke */
  runCapability?: RunCapability;
  /** The current user: `{user}` in node queries, owner of private skills. @default 'me' */
  user?: string;
  /** The current space: `{space}` in node queries. @default 'default' */
  space?: string;
  /** Extra skills and nodes (a host's or a space's) added to the built-in catalog. Ignored with `catalog`. */
  skills?: readonly CatalogNode[];
  /** A node catalog to share, e.g. between the workspaces of two users of one space. @default built-in skills, agents, models and harnesses plus `skills` */
  catalog?: Catalog;
  /** Connect / Disconnect skills call these; without them the workspace says it cannot connect. */
  providers?: ProviderHooks;
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
  const { user = 'me', space = 'default' } = options;
  const host: ThreadHost = createThreadHost({
    capabilities: options.capabilities,
    ...(options.driver ? { driver: options.driver } : {}),
    ...(options.alignment ? { alignment: options.alignment } : {}),
    ...(options.anticipation ? { anticipation: options.anticipation } : {}),
    ...(options.now ? { now: options.now } : {}),
    ...(options.whitelist ? { whitelist: options.whitelist } : {}),
    ...(options.reminders !== undefined ? { reminders: options.reminders } : {}),
    ...(options.retrieve ? { retrieve: options.retrieve } : {}),
    ...(options.maxSteps ? { maxSteps: options.maxSteps } : {}),
    ...(options.router ? { router: options.router } : {}),
    ...(options.events ? { events: options.events } : {}),
    ...(options.probes ? { probes: options.probes } : {}),
    ...(options.runCapability ? { runCapability: options.runCapability } : {}),
    ...(options.skills ? { skills: options.skills } : {}),
    ...(options.catalog ? { catalog: options.catalog } : {}),
    ...(options.providers ? { providers: options.providers } : {}),
    // One user in a page: nothing to evict for, nothing to cap.
    idleMs: Infinity,
    maxThreadsPerUser: Infinity,
    maxLiveThreads: Infinity,
  });
  const me: Principal = { user, space, scopes: ['skills:space'] };
  const skills = host.skills(me);
  const quietly = (work: Promise<unknown>) => void work.catch((error) => console.error('[chatsurface]', error));

  return {
    registry: host.registry,
    manifest: {
      capabilities: host.registry.describe(),
      driver: host.driver.info,
      alignment: host.alignment,
      anticipation: host.anticipation,
    },
    host,
    send: (request) => host.send(me, request),
    invoke: (request) => host.invoke(me, request),
    cancel: (request) => quietly(host.cancel(me, request)),
    decide: (request) => host.decide(me, request),
    setView: (request) => quietly(host.setView(me, request)),
    setComposer: (request) => quietly(host.setComposer(me, request)),
    skills,
    query: (request) => host.query(me, request),
    saveSkill: (request) => host.saveSkill(me, request),
    connect: (request) => host.connect(me, request),
    disconnect: (request) => host.disconnect(me, request),
    subscribe: (threadId, listener, { since = 0 } = {}) => host.subscribe(me, threadId, listener, since),
  };
}
