import { suggest, type AnticipationMap } from '../anticipation';
import type { CapabilityDescriptor } from '../capability';
import type { CapabilityResult } from '../envelope';
import { errorResult, textResult } from '../envelope';
import type { EventListener } from '../eventLog';
import type { ActiveView, Composer, Emit, SubThreadOutcome, ThreadEvent } from '../events';
import { foldAll, initialThreadState, type ProposalRow, type SkillOfferRow, type ThreadState } from '../fold';
import { createId } from '../ids';
import type { InvokeOptions } from '../invoke';
import type { ActiveSkill, Alignment, CorpusPassage, ModelDriver, ModelMessage, Route } from '../model';
import { createOfflineDriver } from '../offlineDriver';
import type { PostconditionProbes } from '../postconditions';
import { spaceOf, type Principal } from '../principal';
import { createRegistry, type CapabilityInfo, type Registry } from '../registry';
import { BUILT_IN_SKILL_NODES } from '../slash/builtinSkillData';
import { builtInNodes } from '../slash/builtinNodes';
import { createCatalog, type Catalog } from '../slash/catalog';
import { selectModel } from '../slash/models';
import type { CatalogNode } from '../slash/nodes';
import { draftSkillOffer, resolveSkillOffer } from '../slash/offers';
import { createSkillDirectory, type SkillDirectory } from '../slash/skillDirectory';
import type { Harness } from '../harness';
import type { Coordination } from '../stores/coordination';
import { createMemoryEventStore, parseThreadKey, threadKey, type EventStore, type MaybePromise, type ThreadRef } from '../stores/eventStore';
import type { TurnBaseOptions, TurnResult, Waiting } from '../turn';
import { appendHistory, historyOf, recordMessage } from './history';
import { overlayRegistry } from './overlay';
import { interruptionEvents, unreportedViolations, violationsOf, waitingOf } from './derive';
import { childThreadId, closeSubThread, launchedResult, linkEvent, openSubThread, originOf, runningSubThread, subThreadCall, subThreadLaunch, turnReport, type SubThreadLaunch } from './subThread';

/** The host's hooks behind the Connect and Disconnect skills (e.g. signing in to Claude Code). */
export interface ProviderHooks {
  /** Connects a provider (`ClaudeCode`, `Copilot`, …); reject with a message the user can act on. */
  connect(provider: string, context: { threadId: string; user: string }): Promise<void> | void;
  disconnect(provider: string, context: { threadId: string; user: string }): Promise<void> | void;
}

/** How a capability call leaves the host: `invoke` in the page, the doors' executor on a server. */
export type RunCapability = (name: string, args: unknown, options: InvokeOptions & { principal: Principal }) => Promise<CapabilityResult>;

export interface ThreadHostOptions {
  /** The verbs this workspace offers. */
  capabilities: readonly CapabilityDescriptor[];
  /** The model that answers. @default the offline driver */
  driver?: ModelDriver;
  /** `strict` proposes anything the user did not name; `loose` runs a single clear match. @default 'strict' */
  alignment?: Alignment;
  /** Suggested next verbs by `${view.kind}::${lastCapability | 'none'}`. @default {} */
  anticipation?: AnticipationMap;
  /** Clock for event timestamps and idleness. @default Date.now */
  now?: () => number;
  /** A turn's whitelist by view and composer, as capability names; undefined means all. @default all */
  whitelist?: (scope: { view: ActiveView | null; composer: Composer }) => readonly string[] | undefined;
  /** Per-organisation reminders for the model (cached prompt slab [4]). @default '' */
  reminders?: string;
  /** Retrieves passages for a message (uncached slab [7]); a failure shows a row and the turn goes on. */
  retrieve?: (query: { threadId: string; text: string; view: ActiveView | null; signal: AbortSignal }) => Promise<readonly CorpusPassage[]>;
  /** Model calls per turn before it gives up. @default 8 */
  maxSteps?: number;
  /** Reads a message as one-shot, standing or ambiguous (ambiguous asks one question). @default routeIntent */
  router?: (text: string) => Route;
  /** Where threads' event logs live. @default in memory */
  events?: EventStore;
  /** How postconditions look at the workspace (the host's row counter, a file lister). @default none */
  probes?: PostconditionProbes;
  /** Runs every capability call (the server routes them through its doors). @default invoke */
  runCapability?: RunCapability;
  /** Extra skills and nodes (a host's or a space's) added to the built-in catalog. Ignored with `catalog`. */
  skills?: readonly CatalogNode[];
  /** The node catalog every principal's skill directory reads. @default built-in skills, agents, models and harnesses plus `skills` */
  catalog?: Catalog;
  /** Makes a principal's skill directory. @default `createSkillDirectory` over the shared catalog */
  skillDirectory?: (principal: Principal, catalog: Catalog) => SkillDirectory;
  /** Connect / Disconnect skills call these; without them the workspace says it cannot connect. */
  providers?: ProviderHooks;
  /** Threads one user may have in a space. @default 1000 */
  maxThreadsPerUser?: number;
  /** A thread with nothing running is dropped from memory after this long (it comes back from its log). @default 60000 */
  idleMs?: number;
  /** Threads kept in memory at most; the least recently used idle ones go first. @default 500 */
  maxLiveThreads?: number;
  /**
   * Several instances on one database (`createPostgresCoordination`): each
   * thread is written by one instance at a time under a lease, followers on
   * every instance hear every append, a Stop reaches the instance running
   * the turn, and a dead instance's work is closed as interrupted by another.
   * @default none: this process is the only writer
   */
  coordination?: Coordination;
  /**
   * Command-line harnesses by catalog node path (`Harness/claude-code`): a
   * thread whose composer picks one hands every message to it 1:1 instead
   * of the chat's model (see `Harness`). A command-line harness node with no
   * adapter here says so in the thread. @default none
   */
  harnesses?: Readonly<Record<string, Harness>>;
  /**
   * One principal's own capabilities over the shared ones (a user's own MCP
   * servers, issue 17): asked on every turn and call, so a connect or a
   * disconnect counts from the next one. Only that principal's threads see
   * them; the shared name wins a clash. @default none
   */
  capabilitiesOf?: (principal: Principal) => Registry | undefined;
}

/** A user at the thread cap who asked for a new one. */
export class ThreadLimitError extends Error {
  override name = 'ThreadLimitError';
  constructor(readonly limit: number) {
    super(`You already have ${limit} threads, the most this workspace keeps for one user. Continue an existing thread.`);
  }
}

/** A decision on a row that is not waiting (decided already, or no such row). */
export class NothingWaitingError extends Error {
  override name = 'NothingWaitingError';
}

/** Requests to the host; the thread is the principal's own. */
export interface HostTurn {
  threadId: string;
  text: string;
}
export interface HostInvoke {
  threadId: string;
  capability: string;
  args: unknown;
}
export interface HostDecision {
  threadId: string;
  id: string;
  decision: 'accept' | 'dismiss' | 'approve' | 'deny' | 'answer';
  answer?: string;
}
export interface HostSkill {
  threadId: string;
  id: string;
  description: string;
  instructions: string;
  scope?: 'user' | 'space';
}

/**
 * The one place threads live: it owns them by principal, is the only writer
 * of their events (stamps seq, appends to the store, fans out), runs turns and
 * capability calls on one path for the page and the server, and knows a
 * thread only as `fold(log)`. Idle threads leave memory and come back from
 * their log; whatever a dead process left open is closed as interrupted.
 */
export interface ThreadHost {
  readonly registry: Registry;
  readonly driver: ModelDriver;
  readonly alignment: Alignment;
  readonly anticipation: AnticipationMap;
  /** The store behind the threads. */
  readonly events: EventStore;
  /** Starts a model turn; resolves when it has ended and its events are stored and out. */
  send(principal: Principal, request: HostTurn): Promise<void>;
  /** Runs one capability directly (a chip); a mutate that needs approval gets an approval row instead. */
  invoke(principal: Principal, request: HostInvoke): Promise<CapabilityResult>;
  /** Stops a turn or cancels an invocation of the principal's thread; false when nothing ran under that id. */
  cancel(principal: Principal, request: { threadId: string; id: string }): Promise<boolean>;
  /**
   * Runs a SKILL.md capability that launches a sub-thread (REST, MCP) in a new thread of the
   * principal: the skill's instructions load there and `task` is the turn's message. Resolves
   * when that thread's turn ends other than waiting for the user, with its id, outcome and
   * summary (an error result unless it is done); `signal` stops it.
   */
  runSkillThread(principal: Principal, request: { capability: string; task?: unknown; signal?: AbortSignal }): Promise<CapabilityResult>;
  /** Decides a pending proposal, approval, question or skill offer. Throws `NothingWaitingError` (also for a thread that is not the principal's). */
  decide(principal: Principal, request: HostDecision): Promise<void>;
  setView(principal: Principal, request: { threadId: string; view: ActiveView }): Promise<void>;
  setComposer(principal: Principal, request: { threadId: string; composer: Composer }): Promise<void>;
  /** The principal's skill directory (discovery, saving, what the model is told). */
  skills(principal: Principal): SkillDirectory;
  query(principal: Principal, request: { threadId: string; q: string }): Promise<CatalogNode[]>;
  saveSkill(principal: Principal, request: HostSkill): Promise<CatalogNode>;
  connect(principal: Principal, request: { threadId: string; provider: string }): Promise<void>;
  disconnect(principal: Principal, request: { threadId: string; provider: string }): Promise<void>;
  /**
   * Delivers the thread's events after `since`, then new ones. Attaching to a
   * thread that was never written creates nothing: its first events arrive here.
   */
  subscribe(principal: Principal, threadId: string, listener: EventListener, since?: number): () => void;
  /** True when the principal has written this thread. */
  exists(principal: Principal, threadId: string): Promise<boolean>;
  /** The seq of the thread's last event (0 for none). */
  lastSeq(principal: Principal, threadId: string): Promise<number>;
  /** Closes, as interrupted, what threads marked open were doing when the last process died; returns how many threads. */
  recover(): Promise<number>;
  /** Drops idle threads from memory now; returns how many. */
  evictIdle(): number;
  /** Threads in memory. */
  readonly liveThreads: number;
  /**
   * Stops the idle sweep, stops every turn and invocation still running
   * (`reason` is what their rows say) and resolves once what they wrote is
   * stored, so the stores can close after it.
   */
  close(reason?: string): Promise<void>;
}

/** One thread in memory: everything here is either process-local (controllers, the queue) or derived from the log. */
interface LiveThread {
  ref: ThreadRef;
  key: string;
  principal: Principal;
  lastSeq: number;
  /** Folded up to `unfolded`. */
  state: ThreadState;
  unfolded: ThreadEvent[];
  /** `historyOf(log)`, kept event by event. */
  history: ModelMessage[];
  /** Abort controllers of running turns and invocations, by id. */
  running: Map<string, AbortController>;
  /** Turns and decisions of one thread run one after another. */
  queue: Promise<void>;
  /** Requests in flight on this thread. */
  busy: number;
  lastUsed: number;
  /** The store's record of work in flight. */
  open: boolean;
  /** Appends and deliveries not done yet, in order (an asynchronous store); never rejects. */
  writing: Promise<void> | null;
  /** While an append is in flight: the events to store next, in one append. */
  batch: ThreadEvent[] | null;
  /** With coordination: this instance holds the thread's write lease (its state is then the log's). */
  leased: boolean;
  /** The lease being taken. */
  leasing: Promise<void> | null;
  emit: Emit;
}

/** One follower of a thread: hands events on once each, in order. */
interface Follower {
  deliver: EventListener;
  /** The seq it has had. */
  last(): number;
}

const DEFAULT_IDLE_MS = 60_000;

/** The turn loop, the capability runner and what decides them (`./turnParts`): loaded on first use, then kept. */
type TurnParts = typeof import('./turnParts');
let turnParts: TurnParts | undefined;
let turnPartsLoading: Promise<TurnParts> | undefined;
/** Loads the turn parts once; a failed load (a chunk the network lost) is tried again on the next use. */
function loadTurnParts(): Promise<TurnParts> {
  turnPartsLoading ??= import('./turnParts').then(
    (parts) => (turnParts = parts),
    (error: unknown) => {
      turnPartsLoading = undefined;
      throw new Error(`The chat could not load its turn code (${error instanceof Error ? error.message : String(error)}). Reload the page to try again.`, { cause: error });
    },
  );
  return turnPartsLoading;
}

/**
 * @example
 * const host = createThreadHost({ capabilities, events: createSqliteEventStore(db) });
 * await host.send({ user: 'alice' }, { threadId: 't1', text: 'import customers.csv' });
 */
export function createThreadHost(options: ThreadHostOptions): ThreadHost {
  const registry = createRegistry(options.capabilities);
  const driver = options.driver ?? createOfflineDriver();
  const alignment = options.alignment ?? 'strict';
  const anticipation = options.anticipation ?? {};
  const now = options.now ?? Date.now;
  const store = options.events ?? createMemoryEventStore();
  const catalog = options.catalog ?? createCatalog([...BUILT_IN_SKILL_NODES, ...builtInNodes(), ...(options.skills ?? [])]);
  const makeDirectory = options.skillDirectory ?? ((p: Principal, c: Catalog) => createSkillDirectory({ user: p.user, space: spaceOf(p), catalog: c }));
  const maxThreads = options.maxThreadsPerUser ?? 1_000;
  const idleMs = options.idleMs ?? DEFAULT_IDLE_MS;
  const maxLive = options.maxLiveThreads ?? 500;
  const runCapability: RunCapability = options.runCapability ?? ((name, args, o) => (turnParts ? turnParts.invoke(name, args, o) : loadTurnParts().then((parts) => parts.invoke(name, args, o))));
  /** The registry a principal's turns and calls use: the shared one, with their own capabilities over it. */
  const registryOf = (principal: Principal): Registry => {
    const own = options.capabilitiesOf?.(principal);
    return own ? overlayRegistry(registry, own) : registry;
  };

  const coordination = options.coordination;
  const live = new Map<string, LiveThread>();
  const loading = new Map<string, Promise<void>>();
  const listeners = new Map<string, Set<Follower>>();
  /** Reads of appends made by other instances, one chain per thread. */
  const pulls = new Map<string, Promise<void>>();
  const directories = new Map<string, SkillDirectory>();
  let offline: ModelDriver | undefined;

  const refOf = (principal: Principal, threadId: string): ThreadRef => ({ user: principal.user, space: spaceOf(principal), id: threadId });

  const fanOut = (key: string, event: ThreadEvent) => {
    const set = listeners.get(key);
    if (!set?.size) return;
    for (const follower of [...set]) {
      try {
        follower.deliver(event);
      } catch (error) {
        // Rethrown on its own, so the host still sees it.
        queueMicrotask(() => {
          throw error;
        });
      }
    }
  };

  /**
   * Another instance appended to a thread followed here: read what the
   * followers lack from the log and hand it on (each follower skips what it
   * has). One read at a time per thread; `*` re-reads every followed thread.
   */
  const pull = (key: string, seq: number) => {
    if (key === '*') {
      for (const k of listeners.keys()) pull(k, Infinity);
      return;
    }
    const set = listeners.get(key);
    if (!set?.size || live.get(key)?.leased) return;
    const ref = parseThreadKey(key);
    if (!ref) return;
    const next = (pulls.get(key) ?? Promise.resolve()).then(async () => {
      const followers = listeners.get(key);
      if (!followers?.size) return;
      const since = Math.min(...[...followers].map((f) => f.last()));
      if (since >= seq) return;
      for (const event of await store.read(ref, since)) fanOut(key, event);
    });
    const tail = next.catch(reportStoreError);
    pulls.set(key, tail);
    void tail.then(() => {
      if (pulls.get(key) === tail) pulls.delete(key);
    });
  };
  const unhook = coordination
    ? [
        coordination.onAppend(pull),
        coordination.onCancel((key, id) => live.get(key)?.running.get(id)?.abort(new Error('Cancelled by the user.'))),
        coordination.onReap(({ threads }) => {
          for (const key of threads) void recoverKey(key).catch(reportStoreError);
        }),
      ]
    : [];

  const skillsOf = (principal: Principal): SkillDirectory => {
    const key = `${spaceOf(principal)}/${principal.user}/${(principal.scopes ?? []).join(',')}`;
    let directory = directories.get(key);
    if (!directory) {
      directory = makeDirectory(principal, catalog);
      directories.set(key, directory);
      // One small object per principal; the oldest go first past a few thousand.
      if (directories.size > 4_096) directories.delete(directories.keys().next().value!);
    }
    return directory;
  };

  /**
   * A thread in memory, from its log; null when it was never written and
   * `create` is false. With a synchronous store (memory, SQLite) a thread
   * opens synchronously, so the page's events come out in the same task as
   * the click that caused them.
   */
  const open = (principal: Principal, threadId: string, create: boolean): MaybePromise<LiveThread | null> => {
    const ref = refOf(principal, threadId);
    const key = threadKey(ref);
    const hot = live.get(key);
    if (hot) {
      hot.lastUsed = now();
      hot.principal = principal;
      return hot;
    }
    const pending = loading.get(key);
    if (pending) return pending.then(() => open(principal, threadId, create));
    const loaded = chain(store.info(ref), (info) => {
      if (!info && !create) return null;
      return chain(info ? 0 : store.count({ user: ref.user, space: ref.space }), (count) => {
        if (!info && count >= maxThreads) throw new ThreadLimitError(maxThreads);
        return chain(info ? store.read(ref, 0) : [], (events) => {
          const thread = makeLive(ref, key, principal, events, info?.open ?? false);
          live.set(key, thread);
          trimLive();
          return thread;
        });
      });
    });
    if (!(loaded instanceof Promise)) return loaded;
    const settled = loaded.finally(() => loading.delete(key));
    loading.set(key, settled.then(() => undefined, () => undefined));
    return settled;
  };

  /** `open`, awaited only when the store made it asynchronous. */
  const opened = async (principal: Principal, threadId: string, create: boolean): Promise<LiveThread | null> => {
    const t = open(principal, threadId, create);
    return t instanceof Promise ? await t : t;
  };

  /** Runs `work` on the thread; without waiting a task when the thread opens synchronously. */
  const withThread = <T>(principal: Principal, threadId: string, work: (t: LiveThread) => Promise<T>): Promise<T> => {
    let t: MaybePromise<LiveThread | null>;
    try {
      t = open(principal, threadId, true);
    } catch (error) {
      return Promise.reject(error);
    }
    return t instanceof Promise ? t.then((thread) => work(thread!)) : work(t!);
  };

  const makeLive = (ref: ThreadRef, key: string, principal: Principal, events: readonly ThreadEvent[], isOpen: boolean): LiveThread => {
    const thread: LiveThread = {
      ref,
      key,
      principal,
      lastSeq: events.length ? events[events.length - 1]!.seq : 0,
      state: foldAll(initialThreadState, events),
      unfolded: [],
      history: historyOf(events),
      running: new Map(),
      queue: Promise.resolve(),
      busy: 0,
      lastUsed: now(),
      open: isOpen,
      writing: null,
      batch: null,
      leased: false,
      leasing: null,
      emit: (input) => {
        const event = { ...input, seq: thread.lastSeq + 1, ts: now() } as ThreadEvent;
        thread.lastSeq = event.seq;
        thread.unfolded.push(event);
        appendHistory(thread.history, event);
        // Stored before anyone hears of it. An asynchronous store gets the events that come while an
        // append is in flight as one batch after it (a group commit), each batch heard in order once stored.
        if (thread.batch) thread.batch.push(event);
        else {
          const written = write(thread, [event]);
          if (written instanceof Promise) {
            thread.batch = [];
            const mine: Promise<void> = written
              .then(() => drain(thread, [event]))
              .catch((error: unknown) => {
                thread.batch = null;
                reportStoreError(error);
              })
              .then(() => {
                if (thread.writing === mine) thread.writing = null;
              });
            thread.writing = mine;
          } else fanOut(key, event);
        }
        // A job that outlived its turn ends here: the thread may be quiet now.
        if ((event.type === 'capability.done' || event.type === 'capability.error') && thread.busy === 0) void settleOpen(thread).then(() => releaseIfQuiet(thread));
        return event;
      },
    };
    return thread;
  };

  /** Appends events; the first event creates the thread's record, and work already in flight is marked on it then. */
  const write = (t: LiveThread, events: ThreadEvent[]): MaybePromise<void> =>
    chain(store.append(t.ref, events), () => (events[0]!.seq === 1 && t.open ? store.setOpen(t.ref, true) : undefined));

  /** Hands stored events on, then stores the batch that gathered meanwhile, until none is left. */
  const drain = (t: LiveThread, stored: ThreadEvent[]): MaybePromise<void> => {
    for (const event of stored) fanOut(t.key, event);
    const next = t.batch;
    if (!next?.length) {
      t.batch = null;
      return;
    }
    t.batch = [];
    return chain(write(t, next), () => drain(t, next));
  };

  /** The thread's state with every event so far folded in. */
  const stateOf = (t: LiveThread): ThreadState => {
    if (t.unfolded.length) t.state = foldAll(t.state, t.unfolded.splice(0));
    return t.state;
  };

  /** Marks work in flight in the store (recovery after a crash reads it), and clears it when the thread is quiet. */
  const markOpen = (t: LiveThread): MaybePromise<void> => {
    if (t.open) return;
    t.open = true;
    return store.setOpen(t.ref, true);
  };
  const settleOpen = async (t: LiveThread) => {
    if (!t.open || t.busy > 0 || t.running.size > 0) return;
    // Open exactly when a restart would have something to close.
    if (interruptionEvents(stateOf(t)).length > 0) return;
    t.open = false;
    await t.writing;
    await store.setOpen(t.ref, false);
  };

  /**
   * With coordination: takes the thread's write lease, then reads what other
   * instances wrote meanwhile. Taken afresh, whatever the log shows running
   * is nobody's: its instance died or gave up (this one runs nothing on the
   * thread yet), so it is closed as interrupted, as at a restart.
   */
  const lease = (t: LiveThread): Promise<void> | undefined => {
    if (!coordination || t.leased) return;
    t.leasing ??= (async () => {
      await coordination.acquire(t.key);
      t.leased = true;
      await t.writing;
      const fresh = await store.read(t.ref, t.lastSeq);
      for (const event of fresh) absorb(t, event);
      if (t.running.size === 0) {
        const cut = interruptionEvents(stateOf(t));
        if (cut.length) {
          t.open = true;
          for (const event of cut) t.emit(event);
        }
      }
    })().finally(() => {
      t.leasing = null;
    });
    return t.leasing;
  };

  /** An event another instance wrote, taken into the thread's state and handed to its followers. */
  const absorb = (t: LiveThread, event: ThreadEvent) => {
    if (event.seq !== t.lastSeq + 1) return;
    t.lastSeq = event.seq;
    t.unfolded.push(event);
    appendHistory(t.history, event);
    fanOut(t.key, event);
  };

  /** Gives the lease back once the thread is quiet here: another instance may write it next. */
  const releaseIfQuiet = async (t: LiveThread) => {
    if (!coordination || !t.leased || t.busy > 0 || t.running.size > 0 || t.leasing) return;
    await t.writing;
    if (!t.leased || t.busy > 0 || t.running.size > 0 || t.leasing) return;
    t.leased = false;
    await coordination.release(t.key);
  };

  /** Runs `work` as one request on the thread: counted busy (never evicted meanwhile), then settled. */
  const busy = async <T>(t: LiveThread, work: () => Promise<T>): Promise<T> => {
    t.busy++;
    try {
      // Without coordination nothing waits here: the page's events come out in the click's task.
      const leasing = lease(t);
      if (leasing) await leasing;
      return await work();
    } finally {
      t.busy--;
      t.lastUsed = now();
      await t.writing;
      await settleOpen(t);
      await releaseIfQuiet(t);
    }
  };

  /** Closes what a dead instance left running on a thread (taking its lease does it). */
  const recoverKey = async (key: string) => {
    const ref = parseThreadKey(key);
    if (!ref) return;
    const t = await opened({ user: ref.user, space: ref.space }, ref.id, false);
    if (t) await busy(t, async () => undefined);
  };

  /** Runs `work` after everything queued on the thread. */
  const enqueue = (t: LiveThread, work: () => Promise<void>): Promise<void> => {
    const next = t.queue.then(work);
    t.queue = next.catch(() => undefined);
    return next;
  };

  /** Runs one capability; one started by a turn also stops when the turn is stopped. */
  const run = async (t: LiveThread, capability: string, args: unknown, turnId?: string, callId?: string) => {
    // A SKILL.md capability that launches a sub-thread: the work goes there; the call gets where it went.
    const sub = subThreadCall(stateOf(t), registry.get(capability), args);
    if (sub) {
      const childId = launchSubThread(t, turnId, sub.launch, sub.text, false);
      return { result: launchedResult(sub.launch, childId), invocationId: childId };
    }
    const invocationId = createId('inv');
    const controller = new AbortController();
    const turnSignal = turnId ? t.running.get(turnId)?.signal : undefined;
    t.running.set(invocationId, controller);
    try {
      const marking = markOpen(t);
      if (marking instanceof Promise) await marking;
      const result = await runCapability(capability, args, {
        registry: registryOf(t.principal),
        emit: t.emit,
        threadId: t.key,
        signal: turnSignal ? AbortSignal.any([controller.signal, turnSignal]) : controller.signal,
        invocationId,
        principal: t.principal,
        ...(turnId ? { turnId } : {}),
        ...(callId ? { callId } : {}),
        ...(options.probes ? { probes: options.probes } : {}),
      });
      return { result, invocationId };
    } finally {
      t.running.delete(invocationId);
    }
  };

  /** The turn's whitelist, in the registry's order. */
  const whitelist = (state: ThreadState, principal: Principal): readonly CapabilityInfo[] => {
    const own = registryOf(principal);
    // An MCP tool whose view alone may call it (MCP Apps `visibility: ["app"]`) is not the model's to call.
    const all = own.describe().filter((c) => !appOnly(own.get(c.name)));
    const names = options.whitelist?.({ view: state.activeView, composer: state.composer });
    if (!names) return all;
    const allowed = new Set(names);
    return all.filter((c) => allowed.has(c.name));
  };

  const appOnly = (d: CapabilityDescriptor | undefined) => d?.source?.type === 'mcp' && d.source.app !== undefined && !d.source.app.visibility.includes('model');

  /** A SKILL.md capability with its whole body, or null. */
  const registrySkill = (name: string): ActiveSkill | null => {
    const d = registry.get(name);
    const source = d?.source as { type: string; body?: unknown } | undefined;
    return d && source?.type === 'skill' && typeof source.body === 'string' ? { name, title: d.title, body: source.body } : null;
  };

  /** Active skills with their whole bodies: slash skills by node path, SKILL.md capabilities by name. */
  const activeSkills = (t: LiveThread, state: ThreadState): ActiveSkill[] =>
    state.activeSkills.flatMap((name) => {
      const skill = name.includes('/') ? skillsOf(t.principal).active(name) : registrySkill(name);
      return skill ? [skill] : [];
    });

  /** The composer's model: `Model/offline` answers with the offline model, another node path or id goes to the driver. */
  const modelFor = (composer: Composer): { driver: ModelDriver; model?: string } => {
    const selection = selectModel(composer.modelName);
    if (selection.kind === 'offline') return { driver: driver.info.id === 'offline' ? driver : (offline ??= createOfflineDriver()) };
    return selection.kind === 'model' ? { driver, model: selection.id } : { driver };
  };

  const baseOptions = (t: LiveThread, turnId: string, signal: AbortSignal): TurnBaseOptions => {
    const state = stateOf(t);
    const capabilities = whitelist(state, t.principal);
    const allowed = new Set(capabilities.map((c) => c.name));
    const directory = skillsOf(t.principal);
    return {
      ...modelFor(state.composer),
      capabilities,
      history: t.history,
      emit: t.emit,
      signal,
      turnId,
      alignment,
      skills: activeSkills(t, state),
      // A SKILL.md consulted mid-turn is folded into activeSkills: the turn's next step has its body.
      skillsNow: () => activeSkills(t, stateOf(t)),
      reminders: [options.reminders?.trim() ?? '', directory.agentNote(state.composer.agentName), directory.advertised()].filter(Boolean).join('\n\n'),
      suggestions: suggest(anticipation, state.activeView, state.lastCapability).filter((s) => allowed.has(s.capability)),
      ...(options.maxSteps ? { maxSteps: options.maxSteps } : {}),
      invoke: async (capability, args, id, callId) => {
        const { result, invocationId } = await run(t, capability, args, id, callId);
        return { result, violations: violationsOf(stateOf(t), invocationId) };
      },
    };
  };

  /** Runs a turn under its own id and controller (the Stop button cancels it; in a sub-thread, so does the parent's). */
  const withTurn = async (t: LiveThread, step: (turnId: string, signal: AbortSignal) => Promise<TurnResult | void>) => {
    const turnId = createId('turn');
    const controller = new AbortController();
    t.running.set(turnId, controller);
    const unlink = linkToParent(t, controller);
    let outcome: TurnResult['outcome'] | 'interrupted' = null;
    try {
      const marking = markOpen(t);
      if (marking instanceof Promise) await marking;
      outcome = (await step(turnId, controller.signal))?.outcome ?? null;
      offerSkill(t);
    } catch (error) {
      outcome = 'failed';
      throw error;
    } finally {
      t.running.delete(turnId);
      unlink();
      subThreadTurnEnded(t, turnId, outcome);
    }
  };

  // --- Sub-threads (issue 15; the rules are in ./subThread.ts) ---
  /** The parent's controller of each running sub-thread, by the child's key: stopping it stops the child's turns. */
  const subThreadStops = new Map<string, AbortController>();
  const linkToParent = (t: LiveThread, controller: AbortController): (() => void) => {
    const parent = subThreadStops.get(t.key)?.signal;
    if (!parent) return () => undefined;
    if (parent.aborted) controller.abort(parent.reason);
    const stop = () => controller.abort(parent.reason);
    parent.addEventListener('abort', stop, { once: true });
    return () => parent.removeEventListener('abort', stop);
  };
  /** Opens the child thread and runs `text` there; the parent's row links to it at once (after the user's message when `shown`). */
  const launchSubThread = (t: LiveThread, turnId: string | undefined, launch: SubThreadLaunch, text: string, shown = true): string => {
    const childId = childThreadId(t.ref.id);
    const principal = t.principal;
    openSubThread(t.emit, launch, shown ? text : null, turnId, childId);
    const controller = new AbortController();
    t.running.set(childId, controller);
    const childKey = threadKey(refOf(principal, childId));
    subThreadStops.set(childKey, controller);
    controller.signal.addEventListener('abort', () => {
      // Stopped while the child waits for the user (no turn runs there): the parent hears it now.
      const child = live.get(childKey);
      if (!child || (child.running.size === 0 && child.busy === 0)) void reportSubThread(principal, t.ref.id, childId, { outcome: 'cancelled', summary: 'Stopped from the parent thread before it finished.' });
    }, { once: true });
    void withThread(principal, childId, (c) => busy(c, () => enqueue(c, async () => void c.emit(linkEvent(t.ref.id, launch)))))
      .then(() => host.send(principal, { threadId: childId, text }))
      .catch((error: unknown) => reportSubThread(principal, t.ref.id, childId, { outcome: 'failed', summary: `The sub-thread could not run: ${error instanceof Error ? error.message : String(error)}` }));
    return childId;
  };
  /** Threads a door's sub-thread skill runs in, by key: told when a turn there ends other than waiting. */
  const doorThreads = new Map<string, (report: { outcome: SubThreadOutcome; summary: string }) => void>();
  /** A turn of a sub-thread ended: unless it waits for the user, its outcome goes back to the parent (or the door). */
  const subThreadTurnEnded = (t: LiveThread, turnId: string, outcome: TurnResult['outcome'] | 'interrupted') => {
    const state = stateOf(t);
    const origin = originOf(state);
    const waiter = doorThreads.get(t.key);
    const report = origin || waiter ? turnReport(state, turnId, outcome) : null;
    if (!report) return;
    if (origin) void reportSubThread(t.principal, origin.id, t.ref.id, report);
    waiter?.(report);
  };
  const runSkillThread: ThreadHost['runSkillThread'] = async (principal, { capability, task, signal }) => {
    const descriptor = registry.get(capability);
    if (!descriptor) return errorResult(`There is no skill named "${capability}" here.`);
    const threadId = `${capability.replace(/[^A-Za-z0-9_.-]/g, '-').slice(0, 80)}.sub-${createId('t').slice(2)}`;
    const words = typeof task === 'string' && task.trim() ? task.trim() : `Apply the ${descriptor.title} skill.`;
    const key = threadKey(refOf(principal, threadId));
    const stop = new AbortController();
    subThreadStops.set(key, stop);
    const ended = new Promise<{ outcome: SubThreadOutcome; summary: string }>((resolve) => {
      doorThreads.set(key, resolve);
      const onAbort = () => {
        stop.abort(signal?.reason);
        // Waiting for the user, nothing runs there: the caller hears it now.
        const t = live.get(key);
        if (!t || (t.running.size === 0 && t.busy === 0)) resolve({ outcome: 'cancelled', summary: 'Stopped before it finished.' });
      };
      if (signal?.aborted) onAbort();
      else signal?.addEventListener('abort', onAbort, { once: true });
    });
    try {
      await host.send(principal, { threadId, text: `[load_skill /${capability}]\n${words}` });
      const report = await ended;
      const meta = { thread_id: threadId, outcome: report.outcome };
      return report.outcome === 'done' ? textResult(report.summary, meta) : { ...errorResult(report.summary), structuredContent: meta };
    } finally {
      doorThreads.delete(key);
      subThreadStops.delete(key);
    }
  };
  const reportSubThread = (principal: Principal, parentId: string, childId: string, report: { outcome: SubThreadOutcome; summary: string }) =>
    withThread(principal, parentId, (p) => busy(p, () => enqueue(p, async () => {
      const row = runningSubThread(stateOf(p), childId);
      if (row) closeSubThread(p.history, p.emit, row, report);
      p.running.delete(childId);
      subThreadStops.delete(threadKey(refOf(principal, childId)));
    }))).catch(reportStoreError);

  /** After a turn: a multi-step request run twice gets one offer to save it as a skill. */
  const offerSkill = (t: LiveThread) => {
    const draft = draftSkillOffer(stateOf(t).rows);
    if (draft) t.emit({ type: 'skill.offered', offer_id: createId('offer'), ...draft });
  };

  const checkDecision = (parts: TurnParts, waiting: Waiting, request: HostDecision) => {
    const allowed = parts.decisionsFor(waiting);
    if (!allowed.includes(request.decision)) {
      throw new NothingWaitingError(`The ${waiting.kind} "${waiting.id}" takes ${allowed.join(' or ')}, not "${request.decision}".`);
    }
    if (request.decision === 'answer' && !request.answer?.trim()) throw new NothingWaitingError(`Answering "${waiting.id}" needs an answer.`);
  };

  /** A chip's approval: no model turn waits on it, so approving runs the capability and nothing else. */
  const decideChipApproval = async (t: LiveThread, waiting: Extract<Waiting, { kind: 'approval' }>, request: HostDecision) => {
    const approved = request.decision === 'approve';
    t.emit({ type: 'approval.resolved', approval_id: waiting.id, decision: approved ? 'approved' : 'denied' });
    if (!approved) return;
    const { result } = await run(t, waiting.capability, waiting.args);
    recordMessage(t.history.slice(), t.emit, undefined, { role: 'tool', capability: waiting.capability, title: waiting.title, args: waiting.args, result });
  };

  const provider = async (action: 'connect' | 'disconnect', principal: Principal, { threadId, provider: name }: { threadId: string; provider: string }) => {
    const hook = options.providers?.[action];
    if (!hook) throw new Error(`This workspace cannot ${action} ${name}: the host passed no providers.${action} hook.`);
    await hook(name, { threadId, user: principal.user });
  };

  const trimLive = () => {
    if (live.size <= maxLive) return;
    const idle = [...live.values()].filter(isIdle).sort((a, b) => a.lastUsed - b.lastUsed);
    for (const t of idle) {
      if (live.size <= maxLive) break;
      live.delete(t.key);
    }
  };
  const isIdle = (t: LiveThread) => t.busy === 0 && t.running.size === 0 && t.writing === null && !t.open && !t.leased && !t.leasing;

  const sweep = idleMs > 0 && Number.isFinite(idleMs) ? setInterval(() => host.evictIdle(), Math.max(1_000, idleMs / 2)) : null;
  (sweep as { unref?: () => void } | null)?.unref?.();

  const host: ThreadHost = {
    registry,
    driver,
    alignment,
    anticipation,
    events: store,
    get liveThreads() {
      return live.size;
    },
    send(principal, { threadId, text }) {
      return withThread(principal, threadId, (t) => busy(t, () =>
        enqueue(t, () =>
          withTurn(t, async (turnId, signal) => {
            // Loaded on the first turn; from then on the turn starts in the same task as the send.
            const { runHarnessTurn, takeTurn } = turnParts ?? (await loadTurnParts());
            const retrieve = options.retrieve;
            const state = stateOf(t);
            // Under a command-line harness the text goes to it as typed; the chat's model is not asked.
            const harnessNode = state.composer.harness ? catalog.get(state.composer.harness) : undefined;
            if (harnessNode?.nodeType === 'Harness' && harnessNode.commands?.length) {
              return runHarnessTurn({
                node: harnessNode,
                harness: options.harnesses?.[harnessNode.path],
                text,
                emit: t.emit,
                // The log is the history: the thread's copy grows from the model.message events.
                history: t.history.slice(),
                turnId,
                threadId,
                user: principal.user,
                signal,
              });
            }
            const directory = skillsOf(principal);
            const launch = subThreadLaunch(state, text, directory);
            if (launch) return void launchSubThread(t, turnId, launch, text);
            const rowsBefore = state.rows.length;
            const proposals = state.rows.filter((r): r is ProposalRow => r.kind === 'proposal' && r.status === 'pending');
            const result = await takeTurn({
              ...baseOptions(t, turnId, signal),
              text,
              loadSkill: (name) => {
                const slash = directory.load(name);
                return typeof slash === 'string' ? (registrySkill(name.slice(1)) ?? slash) : slash;
              },
              ...(options.router ? { router: options.router } : {}),
              violations: unreportedViolations(state),
              ...(retrieve ? { retrieve: (query: string, s: AbortSignal) => retrieve({ threadId, text: query, view: state.activeView, signal: s }) } : {}),
            });
            // A proposal the user accepted in words ("yes, do that") ran in this turn: it is decided, not waiting for a click.
            if (proposals.length) {
              const ran = new Set(stateOf(t).rows.slice(rowsBefore).flatMap((r) => (r.kind === 'invocation' ? [r.capability] : [])));
              for (const p of proposals) if (ran.has(p.capability)) t.emit({ type: 'proposal.resolved', proposal_id: p.id, decision: 'accepted' });
            }
            return result;
          }),
        ),
      ));
    },
    invoke(principal, { threadId, capability, args }) {
      return withThread(principal, threadId, (t) => busy(t, async () => {
        const { confirmationReason, requestOf } = turnParts ?? (await loadTurnParts());
        const info = registryOf(principal).describe().find((c) => c.name === capability);
        const confirm = info ? confirmationReason(info) : null;
        if (info && confirm) {
          // A chip never skips the approval a model call would need.
          t.emit({
            type: 'approval.requested',
            approval_id: createId('approval'),
            capability: info.name,
            title: info.title,
            args,
            reason: confirm,
            ...requestOf({ userText: '', route: { kind: 'one_shot', cues: [] } }),
          });
          return textResult(`${info.title} waits for your approval before it runs.`, { waiting_for_approval: true });
        }
        const { result } = await run(t, capability, args);
        recordMessage(t.history.slice(), t.emit, undefined, { role: 'tool', capability, title: info?.title ?? capability, args, result });
        return result;
      }));
    },
    async cancel(principal, { threadId, id }) {
      const t = await opened(principal, threadId, false);
      const controller = t?.running.get(id);
      controller?.abort(new Error('Cancelled by the user.'));
      if (controller || !t || !coordination) return controller !== undefined;
      // Running on another instance: the one holding the thread's lease hears the request.
      const holder = await coordination.holder(t.key);
      if (!holder || holder === coordination.instance) return false;
      await coordination.requestCancel(t.key, id);
      return true;
    },
    async decide(principal, request) {
      const t = await opened(principal, request.threadId, false);
      if (!t) throw new NothingWaitingError(`Nothing in this thread is waiting for an answer with id "${request.id}".`);
      await busy(t, async () => {
        const parts = turnParts ?? (await loadTurnParts());
        const state = stateOf(t);
        const offer = state.rows.find((r): r is SkillOfferRow => r.kind === 'skill_offer' && r.id === request.id && r.status === 'pending');
        if (offer) {
          return enqueue(t, async () => {
            const current = stateOf(t).rows.find((r): r is SkillOfferRow => r.kind === 'skill_offer' && r.id === offer.id);
            if (current?.status !== 'pending') throw new NothingWaitingError(`Nothing in this thread is waiting for an answer with id "${offer.id}".`);
            t.emit(resolveSkillOffer(current, request.decision, request.answer, skillsOf(principal).save));
          });
        }
        const waiting = waitingOf(state, request.id);
        if (!waiting) throw new NothingWaitingError(`Nothing in this thread is waiting for an answer with id "${request.id}".`);
        checkDecision(parts, waiting, request);
        if (waiting.kind === 'approval' && !waiting.call_id) return enqueue(t, () => decideChipApproval(t, waiting, request));
        return enqueue(t, async () => {
          // Decided while queued (a double click): the second finds nothing waiting.
          if (!waitingOf(stateOf(t), request.id)) throw new NothingWaitingError(`"${request.id}" was already decided.`);
          await withTurn(t, (turnId, signal) =>
            parts.resumeTurn({ ...baseOptions(t, turnId, signal), waiting, decision: request.decision, ...(request.answer !== undefined ? { answer: request.answer } : {}) }),
          );
        });
      });
    },
    setView(principal, { threadId, view }) {
      return withThread(principal, threadId, (t) => busy(t, async () => void t.emit({ type: 'view.changed', view })));
    },
    setComposer(principal, { threadId, composer }) {
      return withThread(principal, threadId, (t) => busy(t, async () => void t.emit({ type: 'composer.changed', composer })));
    },
    skills: skillsOf,
    async query(principal, { q }) {
      return skillsOf(principal).query(q);
    },
    async saveSkill(principal, { threadId, id, description, instructions, scope }) {
      const node = await skillsOf(principal).persist({ id, description, instructions, ...(scope ? { scope } : {}) });
      await withThread(principal, threadId, (t) => busy(t, async () => void t.emit({ type: 'skill.saved', path: node.path, name: node.name })));
      return node;
    },
    runSkillThread,
    connect: (principal, request) => provider('connect', principal, request),
    disconnect: (principal, request) => provider('disconnect', principal, request),
    subscribe(principal, threadId, listener, since = 0) {
      const key = threadKey(refOf(principal, threadId));
      let set = listeners.get(key);
      if (!set) listeners.set(key, (set = new Set()));
      // Events stored meanwhile are buffered, then handed on once the backlog is out: each seq once, in order.
      let last = since;
      let buffer: ThreadEvent[] | null = [];
      let active = true;
      const forward = (event: ThreadEvent) => {
        if (!active || event.seq <= last) return;
        last = event.seq;
        listener(event);
      };
      const entry: Follower = { deliver: (event) => (buffer ? buffer.push(event) : forward(event)), last: () => last };
      set.add(entry);
      const replay = (events: readonly ThreadEvent[]) => {
        for (const event of events) forward(event);
        const held = buffer ?? [];
        buffer = null;
        for (const event of held) forward(event);
      };
      const writing = live.get(key)?.writing;
      const backlog = writing ? writing.then(() => store.read(refOf(principal, threadId), since)) : store.read(refOf(principal, threadId), since);
      // A synchronous store replays the backlog before subscribe returns.
      if (backlog instanceof Promise) {
        backlog.then(replay, (error) => {
          reportStoreError(error);
          replay([]);
        });
      } else replay(backlog);
      return () => {
        active = false;
        set.delete(entry);
        if (set.size === 0 && listeners.get(key) === set) listeners.delete(key);
      };
    },
    async exists(principal, threadId) {
      const key = threadKey(refOf(principal, threadId));
      return live.get(key)?.lastSeq ? true : (await store.info(refOf(principal, threadId))) !== null;
    },
    async lastSeq(principal, threadId) {
      const t = live.get(threadKey(refOf(principal, threadId)));
      // Without the lease, another instance may have written since.
      if (t && (!coordination || t.leased)) return t.lastSeq;
      return (await store.info(refOf(principal, threadId)))?.lastSeq ?? 0;
    },
    async recover() {
      let n = 0;
      for (const ref of await store.listOpen()) {
        // A thread another live instance is working on is not cut short.
        if (coordination && !(await coordination.tryAcquire(threadKey(ref)))) continue;
        const t = await opened({ user: ref.user, space: ref.space }, ref.id, false);
        if (!t || t.running.size > 0 || t.busy > 0) {
          if (coordination && !t?.leased && !t?.leasing) await coordination.release(threadKey(ref));
          continue;
        }
        if (coordination) {
          await busy(t, async () => undefined);
          n++;
          continue;
        }
        for (const event of interruptionEvents(stateOf(t))) t.emit(event);
        t.open = true;
        await t.writing;
        await settleOpen(t);
        n++;
      }
      return n;
    },
    evictIdle() {
      const cutoff = now() - idleMs;
      let n = 0;
      for (const t of [...live.values()]) {
        if (isIdle(t) && t.lastUsed <= cutoff) {
          live.delete(t.key);
          n++;
        }
      }
      return n;
    },
    async close(reason = 'The workspace is shutting down.') {
      if (sweep) clearInterval(sweep);
      for (const off of unhook) off();
      const threads = [...live.values()];
      for (const t of threads) for (const controller of t.running.values()) controller.abort(new Error(reason));
      // Bounded: a handler that ignores its signal does not hold the shutdown forever.
      const settled = Promise.all(threads.map((t) => t.queue.then(() => t.writing)));
      await Promise.race([settled, new Promise((resolve) => setTimeout(resolve, 5_000).unref?.())]);
      await Promise.all([...pulls.values()]);
    },
  };
  return host;
}

/** `f(v)`, at once when `v` is a value, after it when `v` is a promise. */
function chain<A, B>(v: MaybePromise<A>, f: (a: A) => MaybePromise<B>): MaybePromise<B> {
  return v instanceof Promise ? v.then(f) : f(v);
}

function reportStoreError(error: unknown): void {
  console.error('[chatsurface] the event store failed:', error);
}
