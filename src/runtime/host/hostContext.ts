import type { AnticipationMap } from '../anticipation';
import type { Alignment, ModelDriver } from '../model';
import { createOfflineDriver } from '../offlineDriver';
import { spaceOf, type Principal } from '../principal';
import type { CapabilityDescriptor } from '../capability';
import type { Registry } from '../registry';
import { BUILT_IN_SKILL_NODES } from '../slash/builtinSkillData';
import { builtInNodes } from '../slash/builtinNodes';
import { createCatalog, type Catalog } from '../slash/catalog';
import { createSkillDirectory, type SkillDirectory } from '../slash/skillDirectory';
import type { Coordination } from '../stores/coordination';
import { createMemoryEventStore, type EventStore, type MaybePromise, type ThreadRef } from '../stores/eventStore';
import type { RunCapability, ThreadHostOptions } from './hostTypes';
import { overlayRegistry } from './overlay';

/** The turn loop, the capability runner and what decides them (`./turnParts`): a type only, the code loads on first use. */
export type TurnParts = typeof import('./turnParts');

/** How the host reaches the turn parts: `loaded()` once they are in, `load()` to bring them in. */
export interface TurnPartsLoader {
  loaded(): TurnParts | undefined;
  load(): Promise<TurnParts>;
}

/**
 * How the host makes its registry: `createRegistry` (schemas converted at once), or a page's
 * registry whose schemas convert on first use (`./schemasOnUse`), with how that converter loads.
 */
export interface HostRegistry {
  create(capabilities: readonly CapabilityDescriptor[]): Registry;
  /** The registry's JSON Schema converter, when it loads on first use: with the turn parts, or before a history naming a capability is handed on. */
  schemas?: { loaded(): boolean; load(): Promise<void> };
}

/**
 * What every part of the host shares: the options with their defaults filled
 * in, the store, the registry and skill directories of each principal. Made
 * once per host; the parts hold it and nothing else in common.
 */
export interface HostContext extends TurnPartsLoader {
  readonly options: ThreadHostOptions;
  readonly registry: Registry;
  readonly driver: ModelDriver;
  readonly alignment: Alignment;
  readonly anticipation: AnticipationMap;
  readonly now: () => number;
  readonly store: EventStore;
  readonly coordination: Coordination | undefined;
  readonly catalog: Catalog;
  /** Runs every capability call: the host's option, or `invoke` from the turn parts. */
  readonly runCapability: RunCapability;
  /** The registry a principal's turns and calls use: the shared one, with their own capabilities over it. */
  registryOf(principal: Principal): Registry;
  /** The principal's skill directory, made once and kept. */
  skillsOf(principal: Principal): SkillDirectory;
  /** The store's reference of the principal's thread. */
  refOf(principal: Principal, threadId: string): ThreadRef;
  /** Null when the registry's schemas read at once; else the load of their converter (a page's registry before its first use). */
  schemasPending(): Promise<void> | null;
}

export function createHostContext(options: ThreadHostOptions, parts: TurnPartsLoader, made: HostRegistry): HostContext {
  const registry = made.create(options.capabilities);
  const { schemas } = made;
  // The turn code reads the schemas (the model's tool list): a page's registry loads its converter beside it.
  const loaded = schemas ? () => (schemas.loaded() ? parts.loaded() : undefined) : parts.loaded;
  const load = schemas ? () => Promise.all([parts.load(), schemas.load()]).then(([p]) => p) : parts.load;
  const catalog = options.catalog ?? createCatalog([...BUILT_IN_SKILL_NODES, ...builtInNodes(options.driver?.models ? { models: options.driver.models } : {}), ...(options.skills ?? [])]);
  const makeDirectory = options.skillDirectory ?? ((p: Principal, c: Catalog) => createSkillDirectory({ user: p.user, space: spaceOf(p), catalog: c }));
  const directories = new Map<string, SkillDirectory>();
  const runCapability: RunCapability =
    options.runCapability ?? ((name, args, o) => parts.loaded()?.invoke(name, args, o) ?? parts.load().then((p) => p.invoke(name, args, o)));
  return {
    options,
    registry,
    driver: options.driver ?? createOfflineDriver(),
    alignment: options.alignment ?? 'strict',
    anticipation: options.anticipation ?? {},
    now: options.now ?? Date.now,
    store: options.events ?? createMemoryEventStore(),
    coordination: options.coordination,
    catalog,
    runCapability,
    loaded,
    load,
    registryOf(principal) {
      const own = options.capabilitiesOf?.(principal);
      return own ? overlayRegistry(registry, own) : registry;
    },
    skillsOf(principal) {
      const key = `${spaceOf(principal)}/${principal.user}/${(principal.scopes ?? []).join(',')}`;
      let directory = directories.get(key);
      if (!directory) {
        directory = makeDirectory(principal, catalog);
        directories.set(key, directory);
        // One small object per principal; the oldest go first past a few thousand.
        if (directories.size > 4_096) directories.delete(directories.keys().next().value!);
      }
      return directory;
    },
    refOf: (principal, threadId) => ({ user: principal.user, space: spaceOf(principal), id: threadId }),
    schemasPending: () => (schemas && !schemas.loaded() ? schemas.load() : null),
  };
}

/** `f(v)`, at once when `v` is a value, after it when `v` is a promise. */
export function chain<A, B>(v: MaybePromise<A>, f: (a: A) => MaybePromise<B>): MaybePromise<B> {
  return v instanceof Promise ? v.then(f) : f(v);
}

export function reportStoreError(error: unknown): void {
  console.error('[chatsurface] the event store failed:', error);
}
