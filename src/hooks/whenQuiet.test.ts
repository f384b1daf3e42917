import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createStore } from 'zustand/vanilla';
import { initialThreadState } from '../runtime/fold';
import type { ThreadStoreState } from './threadStore';
import { QUIET_MAX_WAIT_MS, whenQuiet } from './whenQuiet';

// The browser's idle callbacks, run by hand: `idle()` is an idle moment.
let callbacks: Array<() => void> = [];
const idle = () => {
  const now = callbacks;
  callbacks = [];
  for (const callback of now) callback();
};
beforeEach(() => {
  callbacks = [];
  vi.useFakeTimers();
  vi.stubGlobal('requestIdleCallback', (callback: () => void) => callbacks.push(callback));
  vi.stubGlobal('cancelIdleCallback', (id: number) => {
    callbacks[id - 1] = () => {};
  });
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

const thread = (activeTurn: string | null) => ({ thread: { ...initialThreadState, activeTurn }, replaying: false });
const storeWith = (activeTurn: string | null) => createStore<ThreadStoreState>(() => thread(activeTurn));

describe('whenQuiet', () => {
  it('runs the task at the first idle moment when no turn is in progress', () => {
    const task = vi.fn();
    whenQuiet(storeWith(null), task);
    expect(task).not.toHaveBeenCalled();
    idle();
    expect(task).toHaveBeenCalledTimes(1);
  });

  it('puts the task off while a turn streams: it runs at the first idle moment after the turn ends', () => {
    const store = storeWith('turn-1');
    const task = vi.fn();
    whenQuiet(store, task);
    idle(); // between two frames of the reply
    idle();
    expect(task).not.toHaveBeenCalled();
    store.setState(thread('turn-1')); // more text, same turn
    idle();
    expect(task).not.toHaveBeenCalled();
    store.setState(thread(null)); // the turn ends
    expect(task).not.toHaveBeenCalled();
    idle();
    expect(task).toHaveBeenCalledTimes(1);
  });

  it('waits for a turn at most QUIET_MAX_WAIT_MS (a turn may wait on the user), then runs when idle', () => {
    const task = vi.fn();
    whenQuiet(storeWith('turn-1'), task);
    idle();
    vi.advanceTimersByTime(QUIET_MAX_WAIT_MS - 1);
    idle();
    expect(task).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    idle();
    expect(task).toHaveBeenCalledTimes(1);
  });

  it('runs nothing once cancelled, before the idle moment or while it waits for the turn', () => {
    const early = vi.fn();
    whenQuiet(storeWith(null), early)();
    idle();
    expect(early).not.toHaveBeenCalled();

    const store = storeWith('turn-1');
    const waiting = vi.fn();
    const cancel = whenQuiet(store, waiting);
    idle();
    cancel();
    store.setState(thread(null));
    idle();
    vi.advanceTimersByTime(QUIET_MAX_WAIT_MS);
    idle();
    expect(waiting).not.toHaveBeenCalled();
  });
});
