import { createStore, type StoreApi } from 'zustand/vanilla';
import { foldAll, initialThreadState, type ThreadState } from '../runtime/fold';

export interface ThreadStoreState {
  thread: ThreadState;
}

export interface ThreadStore extends StoreApi<ThreadStoreState> {
  /** Queues an event (validated by the fold); applied at the next flush. */
  receive(event: unknown): void;
  /** Applies every queued event now, in one store update. */
  flush(): void;
}

export type FlushScheduler = (flush: () => void) => void;

const nextFrame: FlushScheduler = (flush) => {
  if (typeof requestAnimationFrame === 'function' && typeof document !== 'undefined' && !document.hidden) {
    requestAnimationFrame(flush);
  } else {
    setTimeout(flush, 0);
  }
};

/**
 * The zustand store of one thread. It only applies `fold`; events that arrive
 * within one animation frame are folded together and committed once, so a
 * burst of streamed tokens costs one render.
 * @example
 * const store = createThreadStore();
 * workspace.subscribe('main', store.receive);
 */
export function createThreadStore(schedule: FlushScheduler = nextFrame): ThreadStore {
  const store = createStore<ThreadStoreState>(() => ({ thread: initialThreadState }));
  let queue: unknown[] = [];
  let scheduled = false;

  const flush = () => {
    scheduled = false;
    if (queue.length === 0) return;
    const events = queue;
    queue = [];
    const current = store.getState().thread;
    const thread = foldAll(current, events);
    if (thread !== current) store.setState({ thread });
  };

  return {
    ...store,
    receive(event) {
      queue.push(event);
      if (!scheduled) {
        scheduled = true;
        schedule(flush);
      }
    },
    flush,
  };
}
