import type { ThreadEvent } from '../events';
import { createMemoryThreadIndex } from './memoryThreadIndex';
import type { ThreadIndex } from './threadIndex';
import { threadKey, type MaybePromise, type ThreadRef } from './threadRef';

export type { MaybePromise, ThreadRef } from './threadRef';
export { parseThreadKey, threadKey } from './threadRef';

/** What the store knows about one thread. */
export interface ThreadInfo {
  /** Seq of its last event (threads are created by their first event, so at least 1). */
  lastSeq: number;
  /** True while work was in flight (a turn, an invocation): after a crash, it was cut short. */
  open: boolean;
  /** Epoch ms of the last append. */
  updatedAt: number;
}

/**
 * Where threads' event logs live. The thread host is the only writer: it
 * stamps each event's seq (contiguous from 1) and appends it here before any
 * listener hears of it. Small on purpose, so another engine can be plugged in.
 */
export interface EventStore {
  /** The thread's record, or null when it was never written. */
  info(ref: ThreadRef): MaybePromise<ThreadInfo | null>;
  /** How many threads the user has in the space. */
  count(owner: { user: string; space: string }): MaybePromise<number>;
  /** Appends stamped events whose seqs follow the thread's last one; the first append creates the thread. */
  append(ref: ThreadRef, events: readonly ThreadEvent[]): MaybePromise<void>;
  /** Events with seq > `since`, in order. */
  read(ref: ThreadRef, since?: number): MaybePromise<readonly ThreadEvent[]>;
  /** Marks whether the thread has work in flight. A thread that was never written is left alone. */
  setOpen(ref: ThreadRef, open: boolean): MaybePromise<void>;
  /** Threads marked open: after a restart, their turns and invocations were cut short. */
  listOpen(): MaybePromise<readonly ThreadRef[]>;
  /**
   * The owner's thread list (titles, previews, search, rename, archive, delete), kept up to date by `append`.
   * The kit's stores all have one; without it a workspace offers no thread list.
   */
  readonly threads?: ThreadIndex;
}

/** The memory store answers at once. */
export interface MemoryEventStore extends EventStore {
  info(ref: ThreadRef): ThreadInfo | null;
  count(owner: { user: string; space: string }): number;
  append(ref: ThreadRef, events: readonly ThreadEvent[]): void;
  read(ref: ThreadRef, since?: number): readonly ThreadEvent[];
  setOpen(ref: ThreadRef, open: boolean): void;
  listOpen(): readonly ThreadRef[];
  readonly threads: ThreadIndex;
}

/**
 * An event store in memory: the in-page workspace's default, and the
 * reference the SQLite store's suite is checked against.
 * @example
 * const host = createThreadHost({ capabilities, events: createMemoryEventStore() });
 */
export function createMemoryEventStore(): MemoryEventStore {
  const threads = new Map<string, { ref: ThreadRef; events: ThreadEvent[]; open: boolean; updatedAt: number }>();
  const index = createMemoryThreadIndex((ref) => threads.delete(threadKey(ref)));
  return {
    threads: index,
    info(ref) {
      const t = threads.get(threadKey(ref));
      return t ? { lastSeq: t.events.length, open: t.open, updatedAt: t.updatedAt } : null;
    },
    count({ user, space }) {
      let n = 0;
      for (const t of threads.values()) if (t.ref.user === user && t.ref.space === space) n++;
      return n;
    },
    append(ref, events) {
      if (events.length === 0) return;
      const key = threadKey(ref);
      let t = threads.get(key);
      if (!t) threads.set(key, (t = { ref: { ...ref }, events: [], open: false, updatedAt: 0 }));
      for (const event of events) {
        if (event.seq !== t.events.length + 1) throw new Error(`Event seq ${event.seq} does not follow ${t.events.length} in thread ${ref.id}.`);
        t.events.push(event);
      }
      t.updatedAt = Date.now();
      index.noteAppend(ref, events);
    },
    read(ref, since = 0) {
      return threads.get(threadKey(ref))?.events.slice(Math.max(0, since)) ?? [];
    },
    setOpen(ref, open) {
      const t = threads.get(threadKey(ref));
      if (t) t.open = open;
    },
    listOpen() {
      return [...threads.values()].filter((t) => t.open).map((t) => ({ ...t.ref }));
    },
  };
}
