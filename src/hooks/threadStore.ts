import { createStore, type StoreApi } from 'zustand/vanilla';
import { canCheckEvent } from '../runtime/eventChecks';
import { loadEventSchemas } from '../runtime/loadEventSchemas';
import { addsRow, foldAll, initialThreadState, opensRow, rowKeyOf, rowKindOf, type ThreadState } from '../runtime/fold';
import { afterNextFrame } from './afterNextFrame';
import { taskQueue } from './taskQueue';
import { whenIdle } from './whenIdle';

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
   * When a long history is replayed into an empty thread, its newest turns (from a user message
   * with a screenful of rows after it, looked for among its last `tailEvents` events; see
   * `tailStart`) are folded and shown first, while the whole history is folded behind them; 0
   * turns this off. @default 4000
   */
  tailEvents?: number;
  /**
   * Start out `replaying` (the transcript says the conversation is loading), until the first
   * flush: for a store that is rendered before the history its workspace replays on subscribe
   * has come in. A first flush with nothing queued (an empty thread) ends it. @default false
   */
  replaying?: boolean;
}

/** Calls `then` once the event schemas are in (loaded now if they are not), or a second after a failed load, to try again. */
function afterSchemas(then: () => void): void {
  loadEventSchemas().then(then, () => setTimeout(then, 1_000));
}

/** Rows the newest turns shown first should hold at least (a screenful and more), when the history has them. */
export const TAIL_ROWS = 40;

/**
 * Where the newest turns of a queued history start: the latest user `message.created` from
 * which on more than `TAIL_ROWS` rows are made, else the earliest one among the last `tail`
 * events (a long reply streams many deltas per row); -1 when there is none there or the queue
 * is that short anyway.
 */
export function tailStart(queue: readonly unknown[], tail: number): number {
  if (tail <= 0 || queue.length <= tail) return -1;
  let found = -1;
  let rows = 0;
  for (let i = queue.length - 1; i >= queue.length - tail; i--) {
    const event = asRecord(queue[i]);
    if (!event) continue;
    // The fold says which events add rows: a user message starts a turn (an edit does not: it
    // takes its first version's place, above, and folded without it would show where it is not).
    if (rowKindOf(event) === 'user' && event.version_of === undefined) {
      found = i;
      if (++rows > TAIL_ROWS) break;
    } else if (addsRow(event)) rows++;
  }
  return found;
}

/** How long the history behind a shown preview waits for an idle moment, at most (ms). */
const HISTORY_IDLE_MS = 20;

const asRecord = (event: unknown): Record<string, unknown> | null => (typeof event === 'object' && event !== null ? (event as Record<string, unknown>) : null);

/**
 * The state the newest turns of a queued history are shown with while the whole history is
 * folded: the rows created from `cut` on, and the thread's own state as the whole queue leaves it.
 * - Events from `cut` on that change a row created before it (the end of a reply that began
 *   above, a decision asked above and answered below) are left out: those rows are not shown
 *   yet, and folded alone they would make a row of their own (an empty reply, a blank card).
 *   Which row an event is about, and whether it opens it, the fold says (`rowKeyOf`, `opensRow`).
 * - Of the events before it, those that set the thread's own state are folded first (the last
 *   `turn.started` and what ended it, every view, selection and skill change): a turn started
 *   above the cut is still running (Stop is offered), the status row shows the selections.
 * Seqs: the events before the cut are renumbered in their order (after `from`'s), then the tail is folded
 * as if everything below the cut's seq were applied (the fold keeps no bookkeeping of the gap).
 */
export function previewState(from: ThreadState, queue: readonly unknown[], cut: number): ThreadState {
  // One pass over the events before the cut (a long history: keep it to a type check each, and
  // a key for each event that opens a row).
  const state: { at: number; event: Record<string, unknown> }[] = [];
  // Rows opened above the cut (`rowKeyOf`): an event below it that would open one of them again
  // (the `capability.started` of an invocation queued above) changes a row above.
  const openedAbove = new Set<string>();
  let lastStart = -1;
  for (let i = 0; i < cut; i++) {
    const event = queue[i] as Record<string, unknown> | null;
    if (typeof event !== 'object' || event === null) continue;
    const type = event.type;
    if (type === 'turn.started') lastStart = i;
    else if (opensRow(event)) {
      const key = rowKeyOf(event);
      if (key !== null) openedAbove.add(key);
    }
    if (type === 'turn.started' || type === 'turn.done' || type === 'view.changed' || type === 'composer.changed' || type === 'skill.activated') state.push({ at: i, event });
  }
  const before: unknown[] = [];
  let n = 0;
  for (const { at, event } of state) {
    if ((event.type === 'turn.started' || event.type === 'turn.done') && at < lastStart) continue;
    before.push({ ...event, seq: from.appliedUpTo + ++n });
  }
  const seq = asRecord(queue[cut])?.seq;
  let base = n ? foldAll(from, before) : from;
  if (typeof seq === 'number' && Number.isSafeInteger(seq) && seq > base.appliedUpTo + 1) base = { ...base, appliedUpTo: seq - 1, appliedAbove: [] };
  // The tail's first message follows a reply above the cut (its stamped `branch`): that reply is
  // the shown path's end here, so the tail's rows go on from it rather than wait on the shelf.
  const branch = asRecord(queue[cut])?.branch;
  if (typeof branch === 'string') base = { ...base, versions: { ...(base.versions ?? initialThreadState.versions!), tip: branch } };
  const created = new Set<string>();
  const tail: unknown[] = [];
  for (let i = cut; i < queue.length; i++) {
    const event = asRecord(queue[i]);
    const key = event && rowKeyOf(event);
    if (event && key) {
      // An event that opens its row shows it; one that changes a row shows only what the tail opened.
      if (opensRow(event) && !openedAbove.has(key)) created.add(key);
      else if (!created.has(key)) continue;
    }
    tail.push(queue[i]);
  }
  return foldAll(base, tail);
}

/**
 * The default scheduler: the first update after a quiet frame is committed at once, in a task
 * of its own right after this one (so everything this task and its microtasks bring goes
 * together: a message the user sent with the turn it starts, a whole burst of streamed deltas,
 * one commit; it is in the DOM before the next frame unless that frame is already due), and
 * while updates keep coming they are folded and committed once per animation frame (a stream of
 * deltas costs one render a frame). A frame that passes with nothing to flush makes it quiet
 * again, but not one that comes before the posted commit has run (a send whose frame was already
 * due): the events after it, such as the reply's first text a task later, wait for the next
 * frame instead of costing a commit of their own before it. Hidden pages (no frames) flush on a
 * timer. `nextTask` posts the first commit.
 * @default a MessageChannel message
 */
export function frameScheduler(nextTask?: (work: () => void) => void): FlushScheduler {
  let post = nextTask;
  let hot = false;
  // The first commit is posted and has not run yet: a frame that comes before it is not quiet.
  let posted = false;
  let pending: (() => void) | null = null;
  const frame = () => {
    const flush = pending;
    pending = null;
    if (flush) {
      flush();
      requestAnimationFrame(frame);
    } else if (posted) requestAnimationFrame(frame);
    else hot = false;
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
    posted = true;
    (post ??= taskQueue())(() => {
      posted = false;
      flush();
    });
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

/**
 * The zustand store of one thread. It only applies `fold`; an event after a
 * quiet frame is committed in the next task (with the rest of the task it came in), and events that keep arriving are folded
 * together and committed once per animation frame, so a burst of streamed
 * tokens costs one render a frame (`frameScheduler`). A long replayed history is
 * folded in slices that yield to the browser between them.
 * @example
 * const store = createThreadStore();
 * workspace.subscribe('main', store.receive);
 */
export function createThreadStore(schedule: FlushScheduler = frameScheduler(), options: ThreadStoreOptions = {}): ThreadStore {
  const slice = Math.max(1, options.sliceEvents ?? 2_000);
  const tail = Math.max(0, options.tailEvents ?? 4_000);
  let nextTask = options.nextTask;
  const store = createStore<ThreadStoreState>(() => ({ thread: initialThreadState, replaying: options.replaying ?? false }));
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
      // An event that joined the queue meanwhile may need the schemas (see `checkable`).
      if (!queue.slice(at, end).every(canCheckEvent)) return afterSchemas(step);
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
    // The newest turns first: the reader lands on the last messages at once (still marked as
    // loading) while the history behind them is folded; the whole history's state then takes
    // their place (the same rows, by id, now below the older ones). Folded in a task of their
    // own (the thread's first fold pays for warming up the event checks) while the surface's
    // first frame is drawn, and shown in a task after that frame: the surface's first layout is
    // that frame's, not the rows' task (their virtualiser reads the scroll box, which would
    // force it there). The history behind them starts folding once the frame that draws them is
    // out and the page is idle (what was waiting, such as input, goes first).
    // With a task poster given (tests), each wait is simply the next task.
    const next = (nextTask ??= taskQueue());
    const afterFrame = options.nextTask ? next : (work: () => void) => void afterNextFrame(work, next);
    const whenSettled = options.nextTask ? next : (work: () => void) => afterFrame(() => whenIdle(work, HISTORY_IDLE_MS));
    let preview: ThreadState | null = null;
    let framed = false;
    const show = (shown: ThreadState) => {
      if (!shown.rows.length) return next(step);
      if (replaying) store.setState({ thread: shown, replaying: true });
      whenSettled(step);
    };
    next(() => {
      preview = previewState(from, queue, cut);
      if (framed) show(preview);
    });
    afterFrame(() => {
      framed = true;
      if (preview) show(preview);
    });
  };

  let awaitingSchemas = false;
  /**
   * Whether the queue can be folded now. An event the hand checks do not cover needs the event
   * schemas; a page that has not loaded them yet (a remote workspace's) loads them first and
   * flushes again, the events kept in order meanwhile (a failed load is tried again a second on).
   */
  const checkable = () => {
    if (awaitingSchemas) return false;
    if (queue.every(canCheckEvent)) return true;
    awaitingSchemas = true;
    afterSchemas(() => {
      awaitingSchemas = false;
      flush();
    });
    return false;
  };

  const flush = () => {
    scheduled = false;
    if (replaying) return;
    if (queue.length && !checkable()) return;
    if (queue.length === 0) {
      // Nothing came in: a store that started out loading has its (empty) history.
      if (store.getState().replaying) store.setState({ replaying: false });
      return;
    }
    if (queue.length > slice && queueWeight(queue) > slice) {
      replaying = true;
      if (!store.getState().replaying) store.setState({ replaying: true });
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
