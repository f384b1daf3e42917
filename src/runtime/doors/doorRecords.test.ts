import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { defineCapability } from '../capability';
import { textResult } from '../results';
import { createMemoryJobStore, type Job, type JobStore } from '../jobs';
import { createRegistry } from '../registry';
import { createDoor, type DoorOptions } from './door';
import { createExecutor } from './executor';
import { createMemoryMeter } from './meter';

/** A memory store that counts what the door asks of it. */
function countingJobs() {
  const inner = createMemoryJobStore();
  const puts: Job['status'][] = [];
  let gets = 0;
  const store: JobStore = {
    put: (job) => (puts.push(job.status), inner.put(job)),
    get: (id) => (gets++, inner.get(id)),
    list: (options) => inner.list(options),
  };
  return { store, inner, puts, gets: () => gets };
}

function setup(record: DoorOptions['record'], delayMs = 0) {
  const echo = defineCapability({
    name: 'a.echo',
    title: 'Echo',
    description: 'Echoes.',
    input: z.object({ n: z.number() }),
    handler: async ({ n }) => {
      if (delayMs) await new Promise((r) => setTimeout(r, delayMs));
      return textResult(`#${n}`, { n });
    },
  });
  const save = defineCapability({ name: 'a.save', title: 'Save', description: 'Saves.', kind: 'mutate', input: z.object({}), handler: () => textResult('saved') });
  const registry = createRegistry([echo, save]);
  const jobs = countingJobs();
  const door = createDoor({
    name: 'rest',
    registry,
    jobs: jobs.store,
    executor: createExecutor({ registry, jobs: jobs.store }),
    meter: createMemoryMeter({ requestsPerMinute: 1e9 }),
    wait: { intervalMs: 10, timeoutMs: 200 },
    ...(record ? { record } : {}),
  });
  return { door, jobs };
}

const alice = { user: 'alice' };

describe('a door call answered inline: its job record', () => {
  it('is written once, already finished, and never read back', async () => {
    const { door, jobs } = setup({ afterMs: 1_000, keepInlineReads: true });
    const response = await door.call({ capability: 'a.echo', args: { n: 1 }, principal: alice });
    expect(response).toMatchObject({ kind: 'done', job: { status: 'done', threadKey: 'rest:alice' } });
    expect(jobs.puts).toEqual(['done']);
    expect(jobs.gets()).toBe(0);
    // The one record is the whole job: GET /v1/jobs/{id} reads it.
    expect(await jobs.inner.get((response as { jobId: string }).jobId)).toMatchObject({ status: 'done', result: { structuredContent: { n: 1 } } });
  });

  it('is not written for a read when the host keeps none (keepInlineReads: false); a mutate is still recorded', async () => {
    const { door, jobs } = setup({ afterMs: 1_000, keepInlineReads: false });
    const read = await door.call({ capability: 'a.echo', args: { n: 2 }, principal: alice });
    expect(read).toMatchObject({ kind: 'done', result: { structuredContent: { n: 2 } } });
    expect(jobs.puts).toEqual([]);
    const write = await door.call({ capability: 'a.save', args: {}, principal: alice });
    expect(write).toMatchObject({ kind: 'done', job: { status: 'done' } });
    expect(jobs.puts).toEqual(['done']);
    expect(jobs.gets()).toBe(0);
  });

  it('leaves no timer behind once answered (a door that waits up to 300 s must not hold a timer that long per call)', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const { door } = setup({ afterMs: 1_000, keepInlineReads: true });
      await door.call({ capability: 'a.echo', args: { n: 6 }, principal: alice });
      expect(vi.getTimerCount()).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });

  it('without a policy (the chat) is written as before: queued first, then kept up to date', async () => {
    const { door, jobs } = setup(undefined);
    await door.call({ capability: 'a.echo', args: { n: 3 }, principal: alice });
    expect(jobs.puts[0]).toBe('queued');
    expect(jobs.puts.at(-1)).toBe('done');
    expect(jobs.gets()).toBe(0);
  });
});

describe('a door call that outlasts recordAfterMs', () => {
  it('has its record written while it runs, so a client polling the job finds it', async () => {
    const { door, jobs } = setup({ afterMs: 30, keepInlineReads: false }, 150);
    const call = door.call({ capability: 'a.echo', args: { n: 4 }, principal: alice });
    await new Promise((r) => setTimeout(r, 90));
    const [running] = await jobs.inner.list({ threadKey: 'rest:alice' });
    expect(running?.status).toBe('running');
    expect(await call).toMatchObject({ kind: 'done' });
    expect(jobs.puts.at(-1)).toBe('done');
    expect((await jobs.inner.get(running!.id))?.status).toBe('done');
  });

  it('is durable before a 202 goes out, even when the wait ends before recordAfterMs', async () => {
    const { door, jobs } = setup({ afterMs: 10_000, keepInlineReads: false }, 400);
    const response = await door.call({ capability: 'a.echo', args: { n: 5 }, principal: alice });
    expect(response).toMatchObject({ kind: 'running', job: { status: 'running' } });
    expect((await jobs.inner.get((response as { jobId: string }).jobId))?.status).toBe('running');
    expect(jobs.gets()).toBe(0);
  });
});
