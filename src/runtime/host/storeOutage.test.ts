import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { defineCapability } from '../capability';
import { textResult } from '../envelope';
import { createOfflineDriver } from '../offlineDriver';
import { createMemoryEventStore, type EventStore } from '../stores/eventStore';
import { createThreadHost } from './threadHost';

/** Issue 43: a store that goes away must never take the process with it, nor cost a finished run its result. */
const add = defineCapability({
  name: 'math.add',
  title: 'Add numbers',
  description: 'Adds a and b.',
  input: z.object({ a: z.number(), b: z.number() }),
  handler: async ({ a, b }) => {
    await new Promise((resolve) => setTimeout(resolve, 5));
    return textResult(`The sum is ${a + b}.`, { sum: a + b });
  },
});

/** The memory store behind an asynchronous one (as PostgreSQL is) that goes away while a run is in flight: clearing its open mark fails while `down`. */
function flakyStore() {
  const inner = createMemoryEventStore();
  const state = { down: false, marks: [] as boolean[] };
  const store: EventStore = {
    info: async (ref) => inner.info(ref),
    count: async (owner) => inner.count(owner),
    append: async (ref, events) => inner.append(ref, events),
    read: async (ref, since) => inner.read(ref, since),
    listOpen: async () => inner.listOpen(),
    setOpen: async (ref, open) => {
      if (state.down && !open) throw new Error('connection terminated unexpectedly');
      state.marks.push(open);
      inner.setOpen(ref, open);
    },
  };
  return { store, inner, state };
}

const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => void unhandled.push(reason);
beforeEach(() => {
  unhandled.length = 0;
  process.on('unhandledRejection', onUnhandled);
});
afterEach(() => {
  process.off('unhandledRejection', onUnhandled);
  vi.restoreAllMocks();
});

describe('the thread host when the store fails to clear an open mark', () => {
  it('a chip still returns its result, nothing is left unhandled, and the mark is cleared once the store is back', async () => {
    const { store, inner, state } = flakyStore();
    const reported = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const host = createThreadHost({ capabilities: [add], driver: createOfflineDriver({ delayMs: 0 }), events: store, idleMs: Infinity });
    const alice = { user: 'alice' };
    await host.invoke(alice, { threadId: 't1', capability: 'math.add', args: { a: 1, b: 1 } });
    const ref = { space: 'default', user: 'alice', id: 't1' };
    expect(inner.info(ref)?.open).toBe(false);

    state.down = true;
    const result = await host.invoke(alice, { threadId: 't1', capability: 'math.add', args: { a: 2, b: 3 } });
    expect(result.structuredContent).toEqual({ sum: 5 });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(unhandled).toEqual([]);
    expect(reported).toHaveBeenCalledWith('[chatsurface] the event store failed:', expect.objectContaining({ message: 'connection terminated unexpectedly' }));
    // The store still says open (a restart would find the run already done and close nothing).
    expect(inner.info(ref)?.open).toBe(true);

    state.down = false;
    await host.invoke(alice, { threadId: 't1', capability: 'math.add', args: { a: 4, b: 4 } });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(inner.info(ref)?.open).toBe(false);
    expect(unhandled).toEqual([]);
    await host.close?.();
  });
});
