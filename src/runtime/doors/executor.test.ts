import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineCapability } from '../capability';
import { textResult } from '../results';
import { createEventLog } from '../eventLog';
import type { ThreadEvent } from '../events';
import { createMemoryJobStore, type Job, type JobStore } from '../jobs';
import { createRegistry } from '../registry';
import { createExecutor } from './executor';

const steps = defineCapability({
  name: 'steps.run',
  title: 'Run steps',
  description: 'Runs n steps of 20 ms.',
  input: z.object({ n: z.number().int() }),
  handler: async ({ n }, ctx) => {
    for (let i = 1; i <= n; i++) {
      await new Promise((resolve, reject) => {
        const timer = setTimeout(resolve, 20);
        ctx.signal.addEventListener('abort', () => (clearTimeout(timer), reject(new Error('aborted'))));
      });
      ctx.progress(i, n);
    }
    return textResult(`Ran ${n} steps.`, { n });
  },
});

/** A store that records every status it was given, in order. */
function recordingStore(): JobStore & { statuses: string[] } {
  const inner = createMemoryJobStore();
  const statuses: string[] = [];
  return { statuses, put: async (job: Job) => (statuses.push(job.status), inner.put(job)), get: inner.get, list: inner.list };
}

describe('createExecutor', () => {
  it('stores the job as queued before anything runs, then follows it to done', async () => {
    const jobs = recordingStore();
    const executor = createExecutor({ registry: createRegistry([steps]), jobs });
    const { jobId, settled } = executor.execute({ capability: 'steps.run', args: { n: 2 }, threadKey: 'rest:alice' });
    expect(jobs.statuses[0]).toBe('queued');
    expect(executor.running).toBe(1);
    expect(await settled).toEqual(textResult('Ran 2 steps.', { n: 2 }));
    expect(executor.running).toBe(0);
    expect(jobs.statuses.at(-1)).toBe('done');
    expect(await jobs.get(jobId)).toMatchObject({ capability: 'steps.run', threadKey: 'rest:alice', status: 'done', result: { structuredContent: { n: 2 } } });
  });

  it('puts a queued event with the job id on the thread first, and lets an observer hear the invocation', async () => {
    const log = createEventLog();
    const heard: string[] = [];
    const executor = createExecutor({ registry: createRegistry([steps]), jobs: createMemoryJobStore() });
    const { settled } = executor.execute({
      capability: 'steps.run',
      args: { n: 1 },
      threadKey: 't1',
      emit: log.emit,
      invocationId: 'inv_a',
      observe: (event: ThreadEvent) => heard.push(event.type),
    });
    await settled;
    expect(log.since().map((e) => e.type)).toEqual(['capability.queued', 'capability.started', 'capability.progress', 'capability.done']);
    expect(log.since()[0]).toMatchObject({ invocation_id: 'inv_a', job_id: 'inv_a', title: 'Run steps', args: { n: 1 } });
    expect(heard).toEqual(['capability.queued', 'capability.started', 'capability.progress', 'capability.done']);
  });

  it('records a refused call (unknown capability) as a failed job', async () => {
    const jobs = createMemoryJobStore();
    const executor = createExecutor({ registry: createRegistry([steps]), jobs });
    const { jobId, settled } = executor.execute({ capability: 'nope', args: {}, threadKey: 'rest:alice' });
    expect((await settled).isError).toBe(true);
    expect(await jobs.get(jobId)).toMatchObject({ status: 'failed', error: { code: 'unknown_capability' } });
  });

  it('cancels one job by id, and every job on shutdown', async () => {
    const jobs = createMemoryJobStore();
    const executor = createExecutor({ registry: createRegistry([steps]), jobs });
    const one = executor.execute({ capability: 'steps.run', args: { n: 50 }, threadKey: 't' });
    const two = executor.execute({ capability: 'steps.run', args: { n: 50 }, threadKey: 't' });
    const three = executor.execute({ capability: 'steps.run', args: { n: 50 }, threadKey: 't' });
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(executor.cancel(one.jobId, 'Stop it.')).toBe(true);
    expect(executor.cancel('inv_unknown')).toBe(false);
    expect((await one.settled).isError).toBe(true);
    expect(await jobs.get(one.jobId)).toMatchObject({ status: 'cancelled' });
    await executor.cancelAll('Shutting down.');
    expect(executor.running).toBe(0);
    for (const { jobId } of [two, three]) expect((await jobs.get(jobId))?.status).toBe('cancelled');
  });
});
