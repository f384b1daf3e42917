import type { EventListener } from '../eventLog';
import type { ThreadEvent } from '../events';
import type { Principal } from '../principal';
import { parseThreadKey, threadKey } from '../stores/eventStore';
import { reportStoreError, type HostContext } from './hostContext';
import type { LiveThread } from './liveThread';

/**
 * One follower of a thread: hands events on once each, in order; events
 * stored while its backlog is read are held, then handed on after it. A class
 * rather than closures: a thread's fan-out calls every follower for every
 * event, so each call touches one object.
 */
class Follower {
  /** Events stored while the backlog is read; null once it is out. */
  held: ThreadEvent[] | null = [];
  active = true;

  constructor(
    /** The seq it has had. */
    public last: number,
    private readonly listener: EventListener,
  ) {}

  deliver(event: ThreadEvent): void {
    if (this.held) this.held.push(event);
    else this.forward(event);
  }

  forward(event: ThreadEvent): void {
    if (!this.active || event.seq <= this.last) return;
    this.last = event.seq;
    this.listener(event);
  }

  /** The backlog, then what was held meanwhile. */
  replay(events: readonly ThreadEvent[]): void {
    for (const event of events) this.forward(event);
    const held = this.held ?? [];
    this.held = null;
    for (const event of held) this.forward(event);
  }
}

/** Who follows which thread, and how a stored event reaches them. */
export interface Followers {
  /** Hands a stored event to the thread's followers. */
  fanOut(key: string, event: ThreadEvent): void;
  /**
   * Another instance appended to a thread followed here: read what the
   * followers lack from the log and hand it on (each follower skips what it
   * has). One read at a time per thread; `*` re-reads every followed thread.
   */
  pull(key: string, seq: number): void;
  /** Delivers the thread's events after `since`, then new ones; returns the unsubscribe. */
  subscribe(principal: Principal, threadId: string, listener: EventListener, since: number): () => void;
  /** Resolves once the reads in flight are done. */
  settled(): Promise<void>;
}

/** `peek` finds a thread in memory, if it is there (its lease and its writes in flight matter here). */
export function createFollowers(ctx: HostContext, peek: (key: string) => LiveThread | undefined): Followers {
  const { store } = ctx;
  const listeners = new Map<string, Set<Follower>>();
  /** Reads of appends made by other instances, one chain per thread. */
  const pulls = new Map<string, Promise<void>>();

  const fanOut = (key: string, event: ThreadEvent) => {
    const set = listeners.get(key);
    if (!set?.size) return;
    // No copy of the set per event (thousands of followers): one removed meanwhile is skipped, one
    // added meanwhile is still reading its backlog and skips what that already holds.
    for (const follower of set) {
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

  const pull = (key: string, seq: number) => {
    if (key === '*') {
      for (const k of listeners.keys()) pull(k, Infinity);
      return;
    }
    const set = listeners.get(key);
    if (!set?.size || peek(key)?.leased) return;
    const ref = parseThreadKey(key);
    if (!ref) return;
    const next = (pulls.get(key) ?? Promise.resolve()).then(async () => {
      const followers = listeners.get(key);
      if (!followers?.size) return;
      let since = Infinity;
      for (const f of followers) since = Math.min(since, f.last);
      if (since >= seq) return;
      for (const event of await store.read(ref, since)) fanOut(key, event);
    });
    const tail = next.catch(reportStoreError);
    pulls.set(key, tail);
    void tail.then(() => {
      if (pulls.get(key) === tail) pulls.delete(key);
    });
  };

  const subscribe = (principal: Principal, threadId: string, listener: EventListener, since: number) => {
    const ref = ctx.refOf(principal, threadId);
    const key = threadKey(ref);
    let set = listeners.get(key);
    if (!set) listeners.set(key, (set = new Set()));
    // Events stored meanwhile are held, then handed on once the backlog is out: each seq once, in order.
    const entry = new Follower(since, listener);
    set.add(entry);
    const replay = (events: readonly ThreadEvent[]) => {
      // A page's registry converts schemas on first use: a history with calls (whose cards read them) waits for the converter.
      const pending = events.some((e) => 'capability' in e) ? ctx.schemasPending() : null;
      if (!pending) return entry.replay(events);
      pending.then(
        () => entry.replay(events),
        (error: unknown) => {
          console.error('[chatsurface]', error);
          entry.replay(events);
        },
      );
    };
    const writing = peek(key)?.writing;
    const backlog = writing ? writing.then(() => store.read(ref, since)) : store.read(ref, since);
    // A synchronous store replays the backlog before subscribe returns.
    if (backlog instanceof Promise) {
      backlog.then(replay, (error) => {
        reportStoreError(error);
        replay([]);
      });
    } else replay(backlog);
    return () => {
      entry.active = false;
      set.delete(entry);
      if (set.size === 0 && listeners.get(key) === set) listeners.delete(key);
    };
  };

  return {
    fanOut,
    pull,
    subscribe,
    async settled() {
      await Promise.all([...pulls.values()]);
    },
  };
}
