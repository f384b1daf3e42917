import { describe, expect, it } from 'vitest';
import { createMemoryJobStore, type Job } from './jobs';

const job = (id: string, createdAt: number, threadId = 't1'): Job => ({
  id,
  capability: 'report.build',
  threadId,
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
    await store.put({ ...job('a', 1), status: 'ready', result: { content: [{ type: 'text', text: 'ok' }] }, updatedAt: 2 });
    expect(await store.get('a')).toMatchObject({ status: 'ready', updatedAt: 2 });
    expect(await store.get('missing')).toBeUndefined();
  });

  it('lists newest first, by thread, up to a limit', async () => {
    const store = createMemoryJobStore();
    await store.put(job('a', 1));
    await store.put(job('b', 3));
    await store.put(job('c', 2, 't2'));
    expect((await store.list()).map((j) => j.id)).toEqual(['b', 'c', 'a']);
    expect((await store.list({ threadId: 't1' })).map((j) => j.id)).toEqual(['b', 'a']);
    expect((await store.list({ limit: 1 })).map((j) => j.id)).toEqual(['b']);
  });
});
