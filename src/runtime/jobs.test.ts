import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineCapability } from './capability';
import { textResult } from './results';
import { createEventLog } from './eventLog';
import { foldAll, initialThreadState } from './fold';
import { invoke } from './invoke';
import { createMemoryJobStore, defaultJobStore, trackJob, type Job, type JobStore } from './jobs';
import { jobStoreSuite } from './jobStore.suite';
import { createRegistry } from './registry';

jobStoreSuite('memory', () => createMemoryJobStore());

const job = (id: string, createdAt: number, threadKey = 't1'): Job => ({
  id,
  capability: 'report.build',
  threadKey,
  status: 'running',
  createdAt,
  updatedAt: createdAt,
});

describe('createMemoryJobStore', () => {
  it('stores, updates and returns copies that callers cannot change behind its back', async () => {
    const store = createMemoryJobStore();
    await store.put(job('a', 1));
    const got = await store.get('a');
    got!.status = 'failed';
    expect((await store.get('a'))?.status).toBe('running');
    await store.put({ ...job('a', 1), status: 'done', result: { content: [{ type: 'text', text: 'ok' }] }, updatedAt: 2 });
    expect(await store.get('a')).toMatchObject({ status: 'done', updatedAt: 2 });
    expect(await store.get('missing')).toBeUndefined();
  });

  it('lists newest first, by thread, up to a limit', async () => {
    const store = createMemoryJobStore();
    await store.put(job('a', 1));
    await store.put(job('b', 3));
    await store.put(job('c', 2, 't2'));
    expect((await store.list()).map((j) => j.id)).toEqual(['b', 'c', 'a']);
    expect((await store.list({ threadKey: 't1' })).map((j) => j.id)).toEqual(['b', 'a']);
    expect((await store.list({ limit: 1 })).map((j) => j.id)).toEqual(['b']);
  });
});

describe('createMemoryJobStore: limit', () => {
  it('drops the oldest finished jobs beyond the limit and never a running one', async () => {
    const store = createMemoryJobStore({ limit: 2 });
    await store.put(job('running-1', 1));
    await store.put({ ...job('done-2', 2), status: 'done' });
    await store.put({ ...job('done-3', 3), status: 'failed' });
    await store.put({ ...job('done-4', 4), status: 'cancelled' });
    expect((await store.list()).map((j) => j.id)).toEqual(['done-4', 'running-1']);
  });
});

describe('trackJob', () => {
  /** A store that records every write, in order. */
  function recordingStore() {
    const writes: Job[] = [];
    const store: JobStore = {
      put: async (j) => void writes.push(structuredClone(j)),
      get: async () => undefined,
      list: async () => [],
    };
    return { store, writes };
  }

  it('writes a job that ends within its first tick once, already finished', async () => {
    const { store, writes } = recordingStore();
    await trackJob(store, job('a', 1), { onError: () => {} }).finish({ status: 'done', result: { content: [] } });
    expect(writes.map((w) => w.status)).toEqual(['done']);
  });

  it('writes the running record on the next tick, throttles progress, and lands the last progress before the final record', async () => {
    const { store, writes } = recordingStore();
    let now = 1000;
    const tracker = trackJob(store, job('a', 1000), { now: () => now, throttleMs: 250, onError: () => {} });
    await new Promise((r) => setTimeout(r, 5));
    expect(writes.map((w) => w.status)).toEqual(['running']);
    tracker.progress({ progress: 1, total: 4 }); // 0 ms after the first write: held back
    now += 100;
    tracker.progress({ progress: 2, total: 4 }); // still within 250 ms: held back
    now += 200;
    tracker.progress({ progress: 3, total: 4 }); // 300 ms: written
    await tracker.finish({ status: 'done', result: { content: [] } });
    expect(writes.map((w) => [w.status, w.progress?.progress ?? null])).toEqual([
      ['running', null],
      ['running', 3],
      ['done', 3],
    ]);
    expect(writes.at(-1)?.updatedAt).toBe(1300);
  });

  it('writes held-back progress when the throttle interval has passed', async () => {
    const { store, writes } = recordingStore();
    const tracker = trackJob(store, job('a', 1), { throttleMs: 30, onError: () => {} });
    await new Promise((r) => setTimeout(r, 5));
    tracker.progress({ progress: 1 });
    await expect.poll(() => writes.map((w) => w.progress?.progress ?? null)).toEqual([null, 1]);
    await tracker.finish({ status: 'done' });
  });

  it('hands store failures to onError instead of throwing', async () => {
    const errors: unknown[] = [];
    const broken: JobStore = { put: async () => Promise.reject(new Error('disk full')), get: async () => undefined, list: async () => [] };
    const tracker = trackJob(broken, job('a', 1), { onError: (e) => errors.push(e) });
    await expect(tracker.finish({ status: 'done' })).resolves.toBeUndefined();
    expect(errors.map((e) => (e as Error).message)).toEqual(['disk full']);
  });
});

describe('invoke keeps a job record for every invocation', () => {
  const slowReport = (release: Promise<void>) =>
    defineCapability({
      name: 'report.build', title: 'Build report', description: 'Builds a report.', input: z.object({ sections: z.number().int().max(10) }),
      expected_effect: [{ type: 'stdout_matches', pattern: 'pages', mode: 'must_not' }],
      handler: async ({ sections }, ctx) => {
        ctx.progress(1, 2, 'drafting');
        await release;
        return textResult(`Report with ${sections} sections, 3 pages.`);
      },
    });

  it('running while it runs, ready with the result (and violations) after; the default store belongs to the registry', async () => {
    let release!: () => void;
    const registry = createRegistry([slowReport(new Promise<void>((r) => (release = r)))]);
    const log = createEventLog();
    const running = invoke('report.build', { sections: 2 }, { registry, emit: log.emit, threadKey: 't1', invocationId: 'inv1' });
    await expect.poll(async () => (await defaultJobStore(registry).get('inv1'))?.status).toBe('running');
    expect(await defaultJobStore(registry).get('inv1')).toMatchObject({ capability: 'report.build', threadKey: 't1' });
    release();
    await running;
    const done = await defaultJobStore(registry).get('inv1');
    expect(done).toMatchObject({ status: 'done', progress: { progress: 1, total: 2, message: 'drafting' }, result: { content: [{ text: 'Report with 2 sections, 3 pages.' }] } });
    expect(done?.violations).toEqual([expect.objectContaining({ postcondition: 'stdout_matches', actual: 'Report with 2 sections, 3 pages.' })]);
    expect(defaultJobStore(createRegistry())).not.toBe(defaultJobStore(registry));
  });

  it('failed for refused arguments and unknown names, cancelled when cancelled', async () => {
    const jobs = createMemoryJobStore();
    const registry = createRegistry([slowReport(new Promise<void>(() => {}))]);
    const log = createEventLog();
    await invoke('report.build', { sections: 99 }, { registry, emit: log.emit, threadKey: 't1', invocationId: 'bad', jobs });
    await invoke('report.nope', {}, { registry, emit: log.emit, threadKey: 't1', invocationId: 'unknown', jobs });
    const controller = new AbortController();
    const running = invoke('report.build', { sections: 1 }, { registry, emit: log.emit, threadKey: 't1', invocationId: 'stop', jobs, signal: controller.signal });
    await expect.poll(async () => (await jobs.get('stop'))?.status).toBe('running');
    controller.abort();
    await running;
    expect(await jobs.get('bad')).toMatchObject({ status: 'failed', error: { code: 'invalid_arguments' } });
    expect(await jobs.get('unknown')).toMatchObject({ status: 'failed', capability: 'report.nope', error: { code: 'unknown_capability' } });
    expect(await jobs.get('stop')).toMatchObject({ status: 'cancelled', error: { code: 'cancelled' } });
  });

  it('a job store that fails does not fail the invocation: the card says the record was not saved', async () => {
    const broken: JobStore = { put: async () => Promise.reject(new Error('database is locked')), get: async () => undefined, list: async () => [] };
    const ping = defineCapability({ name: 'ping', title: 'Ping', description: 'Pong.', input: z.object({}), handler: () => textResult('pong') });
    const log = createEventLog();
    const result = await invoke('ping', {}, { registry: createRegistry([ping]), emit: log.emit, threadKey: 't1', jobs: broken });
    expect(result).toEqual(textResult('pong'));
    const state = foldAll(initialThreadState, log.since());
    expect(state.rows[0]).toMatchObject({ state: 'done', output: 'The job record could not be saved: database is locked\n' });
  });
});
