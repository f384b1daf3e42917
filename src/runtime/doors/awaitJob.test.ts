import { describe, expect, it } from 'vitest';
import { textResult } from '../results';
import { createMemoryJobStore, type Job } from '../jobs';
import { awaitJob, trackedJobResult } from './awaitJob';

const job = (patch: Partial<Job>): Job => ({ id: 'inv_1', capability: 'report.build', threadKey: 't', status: 'running', createdAt: 0, updatedAt: 0, ...patch });

describe('awaitJob', () => {
  it('returns at once when a job of this process finishes, without waiting for the next poll', async () => {
    const jobs = createMemoryJobStore();
    await jobs.put(job({}));
    const started = Date.now();
    const settled = new Promise<ReturnType<typeof textResult>>((resolve) => setTimeout(() => resolve(textResult('done')), 20));
    const outcome = await awaitJob(jobs, { jobId: 'inv_1', settled }, { intervalMs: 10_000, timeoutMs: 60_000 });
    expect(outcome).toEqual({ status: 'settled', result: textResult('done') });
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it('polls the store at its cadence for a job running elsewhere, until it is terminal', async () => {
    const jobs = createMemoryJobStore();
    await jobs.put(job({}));
    let reads = 0;
    const counting = { ...jobs, get: async (id: string) => (reads++, jobs.get(id)) };
    setTimeout(() => void jobs.put(job({ status: 'done', result: textResult('from elsewhere') })), 120);
    const outcome = await awaitJob(counting, { jobId: 'inv_1' }, { intervalMs: 50, timeoutMs: 5_000 });
    expect(outcome).toEqual({ status: 'settled', result: textResult('from elsewhere') });
    // Every 50 ms for ~120 ms: a handful of reads, not a busy loop (timers may run late on a loaded machine).
    expect(reads).toBeGreaterThanOrEqual(2);
    expect(reads).toBeLessThanOrEqual(8);
  });

  it('gives the job back still running when the bound passes first', async () => {
    const jobs = createMemoryJobStore();
    await jobs.put(job({ progress: { progress: 1, total: 4 } }));
    const outcome = await awaitJob(jobs, { jobId: 'inv_1', settled: new Promise(() => {}) }, { intervalMs: 10, timeoutMs: 60 });
    expect(outcome).toMatchObject({ status: 'running', job: { id: 'inv_1', progress: { progress: 1, total: 4 } } });
  });

  it('turns a failed job read from the store into an error envelope', async () => {
    const jobs = createMemoryJobStore();
    await jobs.put(job({ status: 'failed', error: { code: 'interrupted', message: 'The server stopped.' } }));
    expect(await awaitJob(jobs, { jobId: 'inv_1' })).toEqual({ status: 'settled', result: { content: [{ type: 'text', text: 'The server stopped.' }], isError: true } });
  });
});

describe('trackedJobResult', () => {
  it('tells the model the job goes on, with its progress, in plain words', () => {
    expect(trackedJobResult(job({ progress: { progress: 1, total: 4 } }), 'Build report')).toEqual({
      content: [{ type: 'text', text: 'Build report is still running (25% so far). It continues as a tracked job; its card shows the result when it finishes.' }],
      structuredContent: { job_id: 'inv_1', status: 'running' },
      display_hint: { summary: 'Build report continues in the background' },
    });
  });
});
