import type { Emit, ThreadEvent } from '../events';
import { addsRow, firstReplyOf, initialThreadState, opensRow, ROOT, shownNodes, type ThreadState } from '../fold';
import { foldAll } from '../foldEvents';
import type { ModelMessage } from '../model';
import type { Principal } from '../principal';
import { threadKey, type MaybePromise, type ThreadRef } from '../stores/eventStore';
import { interruptionEvents } from './derive';
import { historyFor, modelLogOf, type LoggedModelMessage } from '../history';
import { chain, reportStoreError, type HostContext } from './hostContext';
import { ThreadLimitError } from './hostTypes';

/** One thread in memory: everything here is either process-local (controllers, the queue) or derived from the log. */
export interface LiveThread {
  ref: ThreadRef;
  key: string;
  principal: Principal;
  lastSeq: number;
  /** Folded up to `unfolded`. */
  state: ThreadState;
  unfolded: ThreadEvent[];
  /** The model's conversation on the shown versions (`historyFor(modelLog, shown)`), kept event by event. */
  history: ModelMessage[];
  /** Every `model.message` of the log, with its version. */
  modelLog: LoggedModelMessage[];
  /** The shown path's nodes (`shownNodes`): whose model messages `history` holds. */
  shown: Set<string>;
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
  /**
   * An append failed (the store went away): what this thread did past the log is not stored, so it
   * writes and hands on nothing more; its work is stopped and the host reads it again from the log
   * once the store is back (`LiveThreadHooks.lost`). The store's error, or null.
   */
  lost: Error | null;
  emit: Emit;
}

/** What the thread table tells the rest of the host. */
export interface LiveThreadHooks {
  /** Hands a stored event to the thread's followers. */
  fanOut(key: string, event: ThreadEvent): void;
  /** A job that outlived its turn ended and nothing else runs: the thread may give its lease back. */
  quiet(t: LiveThread): Promise<void>;
  /** An append of the thread failed: it is `lost` now (see there). */
  lost(t: LiveThread): void;
}

/** Runs one request on a thread, counted busy (see `./leases`). */
export type Busy = <T>(t: LiveThread, work: () => Promise<T>) => Promise<T>;

/** The threads in memory: opened from their logs, written through `emit`, dropped when idle. */
export interface LiveThreads {
  readonly size: number;
  get(key: string): LiveThread | undefined;
  all(): LiveThread[];
  /**
   * A thread in memory, from its log; null when it was never written and
   * `create` is false. With a synchronous store (memory, SQLite) a thread
   * opens synchronously, so the page's events come out in the same task as
   * the click that caused them.
   */
  open(principal: Principal, threadId: string, create: boolean): MaybePromise<LiveThread | null>;
  /** `open`, awaited only when the store made it asynchronous. */
  opened(principal: Principal, threadId: string, create: boolean): Promise<LiveThread | null>;
  /** Runs `work` on the thread; without waiting a task when the thread opens synchronously. */
  withThread<T>(principal: Principal, threadId: string, work: (t: LiveThread) => Promise<T>): Promise<T>;
  /** Marks work in flight in the store (recovery after a crash reads it). */
  markOpen(t: LiveThread): MaybePromise<void>;
  /** Clears the mark when the thread is quiet. */
  settleOpen(t: LiveThread): Promise<void>;
  /** An event another instance wrote, taken into the thread's state and handed to its followers. */
  absorb(t: LiveThread, event: ThreadEvent): void;
  /** Drops idle threads unused since `idleMs`; returns how many. */
  evictIdle(idleMs: number): number;
  /** Drops a thread from memory whatever it is doing (a deleted thread, once stopped). */
  drop(key: string): void;
  /** Drops a lost thread from memory (the next request reads it from the log), unless another has taken its place. */
  forget(t: LiveThread): void;
  /** Closes, as interrupted, what threads marked open were doing when the last process died. */
  recover(busy: Busy): Promise<number>;
}

/** The thread's state with every event so far folded in. */
export function stateOf(t: LiveThread): ThreadState {
  if (t.unfolded.length) t.state = foldAll(t.state, t.unfolded.splice(0));
  return t.state;
}

/**
 * The version an event the thread writes belongs to (runtime/fold/versions.ts): stamped on the
 * events that make rows and on the model's history, the shown path's last reply (a user's
 * message: the reply it follows). An event that names one already (an edit) keeps it.
 */
function branchOf(t: LiveThread, input: Parameters<Emit>[0]): string | undefined {
  if (input.branch !== undefined) return input.branch;
  if (input.type !== 'model.message' && !opensRow(input) && !addsRow(input)) return undefined;
  return stateOf(t).versions?.tip ?? ROOT;
}

/** Keeps the model's history to the shown versions as events come (a switch, an edit or a regeneration lays it out again). */
function follow(t: LiveThread, event: ThreadEvent): void {
  if (event.type === 'model.message') {
    const message = event.message as ModelMessage;
    t.modelLog.push({ ...(event.branch !== undefined ? { branch: event.branch } : {}), message });
    if (event.branch === undefined || t.shown.has(event.branch)) t.history.push(message);
  } else if (event.type === 'message.created' && event.role === 'user' && event.version_of === undefined) {
    t.shown.add(event.message_id);
    t.shown.add(firstReplyOf(event.message_id));
  } else if (event.type === 'reply.regenerated' || event.type === 'version.selected' || (event.type === 'message.created' && event.role === 'user')) {
    const state = stateOf(t);
    t.shown = new Set(shownNodes(state.rows, state.versions));
    t.history = historyFor(t.modelLog, t.shown);
  }
}

/** Runs `work` after everything queued on the thread. */
export function enqueue(t: LiveThread, work: () => Promise<void>): Promise<void> {
  const next = t.queue.then(work);
  t.queue = next.catch(() => undefined);
  return next;
}

/**
 * Clears the thread's open mark in the store once it is quiet: open exactly when a restart would
 * have something to close. Never rejects: while the store is away the mark stays set there (a
 * restart finds the thread's work already ended and closes nothing), the thread keeps it too, and
 * the next quiet moment tries again; the failure is reported, and the work that just ended keeps
 * its result.
 */
async function settleOpen(ctx: HostContext, t: LiveThread): Promise<void> {
  if (!t.open || t.busy > 0 || t.running.size > 0) return;
  if (interruptionEvents(stateOf(t)).length > 0) return;
  t.open = false;
  try {
    await t.writing;
    await ctx.store.setOpen(t.ref, false);
  } catch (error) {
    t.open = true;
    reportStoreError(error);
  }
}

/** Appends events; the first event creates the thread's record, and work already in flight is marked on it then. */
function write(ctx: HostContext, t: LiveThread, events: ThreadEvent[]): MaybePromise<void> {
  return chain(ctx.store.append(t.ref, events), () => (events[0]!.seq === 1 && t.open ? ctx.store.setOpen(t.ref, true) : undefined));
}

/** Hands stored events on, then stores the batch that gathered meanwhile, until none is left. */
function drain(ctx: HostContext, hooks: LiveThreadHooks, t: LiveThread, stored: ThreadEvent[]): MaybePromise<void> {
  for (const event of stored) hooks.fanOut(t.key, event);
  const next = t.batch;
  if (!next?.length) {
    t.batch = null;
    return;
  }
  t.batch = [];
  return chain(write(ctx, t, next), () => drain(ctx, hooks, t, next));
}

/** A thread made live from its log; its `emit` stamps, stores, then hands each event on. */
function newThread(ctx: HostContext, hooks: LiveThreadHooks, from: { ref: ThreadRef; key: string; principal: Principal; events: readonly ThreadEvent[]; open: boolean }): LiveThread {
  const { ref, key, principal, events } = from;
  const { now } = ctx;
  const state = foldAll(initialThreadState, events);
  const modelLog = modelLogOf(events);
  const shown = new Set(shownNodes(state.rows, state.versions));
  const thread: LiveThread = {
    ref,
    key,
    principal,
    lastSeq: events.length ? events[events.length - 1]!.seq : 0,
    state,
    unfolded: [],
    history: historyFor(modelLog, shown),
    modelLog,
    shown,
    running: new Map(),
    queue: Promise.resolve(),
    busy: 0,
    lastUsed: now(),
    open: from.open,
    writing: null,
    batch: null,
    leased: false,
    leasing: null,
    lost: null,
    emit: (input) => {
      const branch = branchOf(thread, input);
      const event = { ...input, ...(branch !== undefined ? { branch } : {}), seq: thread.lastSeq + 1, ts: now() } as ThreadEvent;
      // Past a failed append nothing is stored or heard: the log, read again, says what happened.
      if (thread.lost) return event;
      thread.lastSeq = event.seq;
      thread.unfolded.push(event);
      follow(thread, event);
      // Stored before anyone hears of it. An asynchronous store gets the events that come while an
      // append is in flight as one batch after it (a group commit), each batch heard in order once stored.
      if (thread.batch) thread.batch.push(event);
      else {
        const written = write(ctx, thread, [event]);
        if (written instanceof Promise) {
          thread.batch = [];
          const mine: Promise<void> = written
            .then(() => drain(ctx, hooks, thread, [event]))
            .catch((error: unknown) => {
              thread.batch = null;
              reportStoreError(error);
              if (!thread.lost) {
                thread.lost = error instanceof Error ? error : new Error(String(error));
                hooks.lost(thread);
              }
            })
            .then(() => {
              if (thread.writing === mine) thread.writing = null;
            });
          thread.writing = mine;
        } else hooks.fanOut(key, event);
      }
      // A job that outlived its turn ends here: the thread may be quiet now.
      if ((event.type === 'capability.done' || event.type === 'capability.error') && thread.busy === 0) void settleOpen(ctx, thread).then(() => hooks.quiet(thread));
      return event;
    },
  };
  return thread;
}

export function createLiveThreads(ctx: HostContext, hooks: LiveThreadHooks): LiveThreads {
  const { store, now, coordination } = ctx;
  const maxThreads = ctx.options.maxThreadsPerUser ?? 1_000;
  const maxLive = ctx.options.maxLiveThreads ?? 500;
  const live = new Map<string, LiveThread>();
  const loading = new Map<string, Promise<void>>();

  const open = (principal: Principal, threadId: string, create: boolean): MaybePromise<LiveThread | null> => {
    const ref = ctx.refOf(principal, threadId);
    const key = threadKey(ref);
    const hot = live.get(key);
    // Not written past its failure: asked again until it is read from the log anew (a 503 on a server).
    if (hot?.lost) throw new Error('The thread could not be stored and waits for the database to come back.', { cause: hot.lost });
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
        return chain(info || !ctx.options.admitThread ? undefined : ctx.options.admitThread(principal, ref), () => chain(info ? store.read(ref, 0) : [], (events) => {
          const thread = newThread(ctx, hooks, { ref, key, principal, events, open: info?.open ?? false });
          live.set(key, thread);
          trimLive();
          return thread;
        }));
      });
    });
    if (!(loaded instanceof Promise)) return loaded;
    const settled = loaded.finally(() => loading.delete(key));
    loading.set(key, settled.then(() => undefined, () => undefined));
    return settled;
  };

  const opened = async (principal: Principal, threadId: string, create: boolean): Promise<LiveThread | null> => {
    const t = open(principal, threadId, create);
    return t instanceof Promise ? await t : t;
  };

  const isIdle = (t: LiveThread) => t.busy === 0 && t.running.size === 0 && t.writing === null && !t.open && !t.leased && !t.leasing;

  const trimLive = () => {
    if (live.size <= maxLive) return;
    const idle = [...live.values()].filter(isIdle).sort((a, b) => a.lastUsed - b.lastUsed);
    for (const t of idle) {
      if (live.size <= maxLive) break;
      live.delete(t.key);
    }
  };

  return {
    get size() {
      return live.size;
    },
    get: (key) => live.get(key),
    all: () => [...live.values()],
    open,
    opened,
    withThread(principal, threadId, work) {
      let t: MaybePromise<LiveThread | null>;
      try {
        t = open(principal, threadId, true);
      } catch (error) {
        return Promise.reject(error);
      }
      return t instanceof Promise ? t.then((thread) => work(thread!)) : work(t!);
    },
    markOpen(t) {
      if (t.open) return;
      t.open = true;
      return store.setOpen(t.ref, true);
    },
    settleOpen: (t) => settleOpen(ctx, t),
    absorb(t, event) {
      if (event.seq !== t.lastSeq + 1) return;
      t.lastSeq = event.seq;
      t.unfolded.push(event);
      follow(t, event);
      hooks.fanOut(t.key, event);
    },
    forget(t) {
      if (live.get(t.key) === t) live.delete(t.key);
    },
    evictIdle(idleMs) {
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
    drop(key) {
      live.delete(key);
    },
    async recover(busy) {
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
        await settleOpen(ctx, t);
        n++;
      }
      return n;
    },
  };
}
