import { createStore, type StoreApi } from 'zustand/vanilla';
import { foldAll, initialThreadState, type ThreadState } from '../runtime/fold';

export interface ThreadStoreState {
  thread: ThreadState;
  /** True while a long replayed history is being folded in slices (the transcript shows nothing yet, or only its newest turns). */
  replaying: boolean;
}

export interface ThreadStore extends StoreApi<ThreadStoreState> {
  /** Queues an event (validated by the fold); applied at the next flush. */
  receive(event: unknown): void;
  /**
   * Applies every queued event now, in one store update. A queue longer than
   * `sliceEvents` (a replayed history) is folded in slices, one per later task
   * (the first one too), and committed once at the end in a task of its own, so no task runs long.
   */
  flush(): void;
}

export type FlushScheduler = (flush: () => void) => void;

export interface ThreadStoreOptions {
  /** Events folded per task when a long queue is flushed. @default 2000 */
  sliceEvents?: number;
  /** Runs the next slice in a later task. @default a MessageChannel message (setTimeout without one) */
  nextTask?: (work: () => void) => void;
  /**
   * When a long history is replayed into an empty thread, its newest turns (from the earliest
   * user message among its last `tailEvents` events) are folded and shown first, while the
   * whole history is folded behind them; 0 turns this off. @default 1000
   */
  tailEvents?: number;
}

/**
 * Where the newest turns of a queued history start: the earliest user `message.created` among
 * its last `tail` events, or -1 (none there, or the queue is that short anyway).
 */
export function tailStart(queue: readonly unknown[], tail: number): number {
  if (tail <= 0 || queue.length <= tail) return -1;
  for (let i = queue.length - tail; i < queue.length; i++) {
    const event = queue[i] as { type?: unknown; role?: unknown } | null;
    if (typeof event === 'object' && event !== null && event.type === 'message.created' && event.role === 'user') return i;
  }
  return -1;
}

/**
 * The default scheduler: the first update after a quiet frame is committed at once (in a
 * microtask, so the events of one task still go together: a message the user sent, or one that
 * arrived, shows in the frame being drawn), and while updates keep coming they are folded and
 * committed once per animation frame, never twice in one (a stream of deltas costs one render a
 * frame; the frame of the first commit takes no other). A frame that passes with nothing to
 * flush makes it quiet again. Hidden pages (no frames) flush on a timer.
 */
export function frameScheduler(): FlushScheduler {
  let hot = false;
  /** A commit went out at once since the last frame: that frame already has its commit. */
  let committedAtOnce = false;
  let pending: (() => void) | null = null;
  const frame = () => {
    if (committedAtOnce) {
      committedAtOnce = false;
      requestAnimationFrame(frame);
      return;
    }
    const flush = pending;
    pending = null;
    if (flush) {
      flush();
      requestAnimationFrame(frame);
    } else hot = false;
  };
  return (flush) => {
    if (typeof requestAnimationFrame !== 'function' || typeof document === 'undefined' || document.hidden) {
      setTimeout(flush, 0);
      return;
    }
    if (hot) {
      pending = flush;
      return;
    }
    hot = true;
    committedAtOnce = true;
    queueMicrotask(flush);
    requestAnimationFrame(frame);
  };
}

/**
 * What folding a queue costs, in events: a `message.delta` that continues the delta before it (the
 * same message) counts an eighth, since the fold appends it in place. So a burst of streamed deltas
 * (thousands in one task) is folded and committed at once, while a long replayed history still
 * goes the sliced way.
 */
export function queueWeight(queue: readonly unknown[]): number {
  let weight = 0;
  let streaming: unknown = undefined;
  for (const event of queue) {
    const delta = typeof event === 'object' && event !== null && (event as { type?: unknown }).type === 'message.delta';
    const id = delta ? (event as { message_id?: unknown }).message_id : undefined;
    weight += delta && id === streaming && id !== undefined ? 1 / 8 : 1;
    streaming = id;
  }
  return weight;
}

/** A new task soon, without setTimeout's clamping: a MessageChannel message. */
function taskQueue(): (work: () => void) => void {
  if (typeof MessageChannel !== 'function') return (work) => void setTimeout(work, 0);
  const channel = new MessageChannel();
  const pending: (() => void)[] = [];
  channel.port1.onmessage = () => pending.shift()?.();
  return (work) => {
    pending.push(work);
    channel.port2.postMessage(null);
  };
}

/**
 * The zustand store of one thread. It only applies `fold`; an event after a
 * quiet frame is committed at once, and events that keep arriving are folded
 * together and committed once per animation frame, so a burst of streamed
 * tokens costs one render a frame (`frameScheduler`). A long replayed history is
 * folded in slices that yield to the browser between them.
 * @example
 * const store = createThreadStore();
 * workspace.subscribe('main', store.receive);
 */
export function createThreadStore(schedule: FlushScheduler = frameScheduler(), options: ThreadStoreOptions = {}): ThreadStore {
  const slice = Math.max(1, options.sliceEvents ?? 2_000);
  const tail = Math.max(0, options.tailEvents ?? 1_000);
  let nextTask = options.nextTask;
  const store = createStore<ThreadStoreState>(() => ({ thread: initialThreadState, replaying: false }));
  let queue: unknown[] = [];
  let scheduled = false;
  let replaying = false;

  const commit = (thread: ThreadState) => {
    const state = store.getState();
    if (thread !== state.thread || state.replaying) store.setState({ thread, replaying: false });
  };

  /** Folds the queue slice by slice, one task each, then commits once. Events received meanwhile join the queue. */
  const replay = (from: ThreadState) => {
    let draft = from;
    let at = 0;
    const step = () => {
      const end = Math.min(queue.length, at + slice);
      draft = foldAll(draft, queue.slice(at, end));
      at = end;
      if (at < queue.length) {
        (nextTask ??= taskQueue())(step);
        return;
      }
      // The commit (the first render of the whole history) gets a task of its own, not the
      // last slice's: the slice's folding and the render's layout never add up to one long task.
      (nextTask ??= taskQueue())(() => {
        if (at < queue.length) {
          // Events that arrived while this task waited: fold them first (a slice of their own).
          step();
          return;
        }
        queue = [];
        replaying = false;
        commit(draft);
      });
    };
    // The first slice too: the flush may run inside a render's layout effect (ChatSurface.Root
    // flushes what the workspace replays on subscribe), whose task should stay short.
    const cut = from.rows.length === 0 ? tailStart(queue, tail) : -1;
    if (cut < 0) {
      (nextTask ??= taskQueue())(step);
      return;
    }
    // The newest turns first, in a task of their own: the reader lands on the last messages at
    // once (still marked as loading) while the history behind them is folded; the whole
    // history's state then takes its place (the same rows, by id, now below the older ones).
    (nextTask ??= taskQueue())(() => {
      // Folded as if everything before the cut were applied, so the tail's seqs come in order
      // (the fold keeps no bookkeeping of a gap below them).
      const seq = (queue[cut] as { seq?: unknown }).seq;
      const base = typeof seq === 'number' && Number.isSafeInteger(seq) && seq > from.appliedUpTo + 1 ? { ...from, appliedUpTo: seq - 1 } : from;
      const preview = foldAll(base, queue.slice(cut));
      if (replaying && preview.rows.length) store.setState({ thread: preview, replaying: true });
      (nextTask ??= taskQueue())(step);
    });
  };

  const flush = () => {
    scheduled = false;
    if (replaying || queue.length === 0) return;
    if (queue.length > slice && queueWeight(queue) > slice) {
      replaying = true;
      store.setState({ replaying: true });
      replay(store.getState().thread);
      return;
    }
    const events = queue;
    queue = [];
    commit(foldAll(store.getState().thread, events));
  };

  return {
    ...store,
    receive(event) {
      queue.push(event);
      if (!scheduled && !replaying) {
        scheduled = true;
        schedule(flush);
      }
    },
    flush,
  };
}
