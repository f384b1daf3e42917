import type { StoreApi } from 'zustand/vanilla';
import type { ThreadStoreState } from './threadStore';
import { whenIdle } from './whenIdle';

/** The longest a turn in progress puts the task off (a turn may wait on the user for long). */
export const QUIET_MAX_WAIT_MS = 10_000;

/**
 * Runs `task` once the browser is idle and no turn is in progress on the thread: work that can
 * come later (discovering the slash skills, fetching a chunk) takes no frames from a reply that
 * streams. The browser is idle between a stream's frames too, so an idle moment that comes while a
 * turn runs puts the task off until the turn ends (then it waits for the next idle moment), or
 * until QUIET_MAX_WAIT_MS have passed. Returns how to cancel it.
 * @example
 * const cancel = whenQuiet(store, () => setDiscovering(true)); // Slash.Root, on the box's first focus
 */
export function whenQuiet(store: Pick<StoreApi<ThreadStoreState>, 'getState' | 'subscribe'>, task: () => void): () => void {
  let cancelIdle: (() => void) | null = null;
  let unsubscribe: (() => void) | null = null;
  let timer: ReturnType<typeof setTimeout> | null = null;
  const stopWaiting = () => {
    unsubscribe?.();
    unsubscribe = null;
    if (timer !== null) clearTimeout(timer);
    timer = null;
  };
  const idle = (checkTurn: boolean) => {
    cancelIdle = whenIdle(() => {
      cancelIdle = null;
      if (!checkTurn || store.getState().thread.activeTurn === null) return task();
      unsubscribe = store.subscribe((state) => {
        if (state.thread.activeTurn !== null) return;
        stopWaiting();
        idle(true);
      });
      timer = setTimeout(() => {
        stopWaiting();
        idle(false);
      }, QUIET_MAX_WAIT_MS);
    });
  };
  idle(true);
  return () => {
    cancelIdle?.();
    cancelIdle = null;
    stopWaiting();
  };
}
