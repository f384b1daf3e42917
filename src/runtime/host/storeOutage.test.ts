import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { defineCapability } from '../capability';
import { textResult } from '../results';
import { createOfflineDriver } from '../offlineDriver';
import { createMemoryEventStore, type EventStore } from '../stores/eventStore';
import { createThreadHost } from './threadHost';
import { createMemoryJobStore, trackJob, type JobStore } from '../jobs';

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
  const state = { down: false, appendDown: false, marks: [] as boolean[] };
  const store: EventStore = {
    info: async (ref) => {
      if (state.appendDown) throw new Error('Connection terminated unexpectedly');
      return inner.info(ref);
    },
    count: async (owner) => inner.count(owner),
    append: async (ref, events) => {
      if (state.appendDown) throw new Error('Connection terminated unexpectedly');
      return inner.append(ref, events);
    },
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

const slow = defineCapability({
  name: 'report.build',
  title: 'Build report',
  description: 'Builds a report section by section.',
  input: z.object({ sections: z.number() }),
  handler: async ({ sections }, ctx) => {
    for (let i = 1; i <= sections; i++) {
      await new Promise((resolve, reject) => {
        const timer = setTimeout(resolve, 10);
        ctx.signal.addEventListener('abort', () => (clearTimeout(timer), reject(ctx.signal.reason)), { once: true });
      });
      ctx.progress(i, sections, `Section ${i}`);
    }
    return textResult(`Built ${sections} sections.`);
  },
});

describe('the thread host when an append fails mid-run', () => {
  it('stops the work, answers requests on the thread with the store error meanwhile, and once the store is back closes it as interrupted for its followers, each event once, in order', async () => {
    const { store, inner, state } = flakyStore();
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const host = createThreadHost({ capabilities: [slow], driver: createOfflineDriver({ delayMs: 0 }), events: store, idleMs: Infinity });
    const alice = { user: 'alice' };
    const heard: { seq: number; type: string; error?: { code: string } }[] = [];
    await host.invoke(alice, { threadId: 't2', capability: 'report.build', args: { sections: 1 } });
    host.subscribe(alice, 't2', (event) => heard.push(event as (typeof heard)[number]));
    const running = host.invoke(alice, { threadId: 't2', capability: 'report.build', args: { sections: 10_000 } });
    await vi.waitFor(() => expect(heard.filter((e) => e.type === 'capability.progress').length).toBeGreaterThan(3));

    state.appendDown = true;
    const ended = await running;
    // Stopped, not finished: nothing past the log was handed on.
    expect(ended.isError).toBe(true);
    const ref = { space: 'default', user: 'alice', id: 't2' };
    const stored = inner.read(ref, 0).length;
    expect(heard.at(-1)!.seq).toBe(stored);
    // A request on the thread meanwhile fails with the store's own error (a 503 on a server), and runs nothing.
    await expect(host.invoke(alice, { threadId: 't2', capability: 'report.build', args: { sections: 1 } })).rejects.toThrow();

    state.appendDown = false;
    await vi.waitFor(() => expect(heard.at(-1)).toMatchObject({ type: 'capability.error', error: { code: 'interrupted' } }), { timeout: 5_000 });
    const log = inner.read(ref, 0);
    expect(heard).toEqual(log);
    expect(log.map((e) => e.seq)).toEqual(log.map((_, i) => i + 1));
    expect(unhandled).toEqual([]);
    // The thread goes on.
    const again = await host.invoke(alice, { threadId: 't2', capability: 'report.build', args: { sections: 1 } });
    expect(again.isError).toBeFalsy();
    await host.close?.();
  });
});

describe('a job record whose last write fails', () => {
  it('is written again once the store answers, so the job does not stay "running"', async () => {
    const inner = createMemoryJobStore();
    let down = false;
    const store: JobStore = { ...inner, put: async (job) => (down ? Promise.reject(new Error('connect ECONNREFUSED')) : inner.put(job)) };
    const errors: unknown[] = [];
    const tracker = trackJob(store, { id: 'j1', capability: 'report.build', threadKey: 'k', status: 'running', createdAt: 1, updatedAt: 1 }, { onError: (e) => errors.push(e) });
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect((await inner.get('j1'))?.status).toBe('running');
    down = true;
    await tracker.finish({ status: 'failed', error: { code: 'interrupted', message: 'The database stopped answering while this ran.' } });
    expect(errors).toHaveLength(1);
    expect((await inner.get('j1'))?.status).toBe('running');
    down = false;
    await vi.waitFor(async () => expect((await inner.get('j1'))?.error?.code).toBe('interrupted'), { timeout: 3_000 });
    expect(errors).toHaveLength(1);
  });
});
