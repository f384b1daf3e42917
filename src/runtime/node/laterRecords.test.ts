import { describe, expect, it, vi } from 'vitest';
import type { Job } from '../jobs';
import { laterRecords } from './laterRecords';

const job = (id: string): Job => ({ id, capability: 'a.echo', threadKey: 'rest:a', status: 'done', createdAt: 1, updatedAt: 1 });
const tick = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('laterRecords', () => {
  it('writes what it took together, within 20 ms, and answers for each until then', async () => {
    const batches: string[][] = [];
    let current: string[] = [];
    const later = laterRecords(async (j) => {
      current.push(j.id);
      await Promise.resolve();
      if (current.length) (batches.push(current), (current = []));
    });
    expect(later.take(job('a'))).toBe(true);
    expect(later.take(job('b'))).toBe(true);
    expect(later.get('a')).toEqual(job('a'));
    expect(later.get('a')).not.toBe(later.get('a')); // a copy, as the store's own read
    expect(batches).toEqual([]);
    await tick(40);
    expect(batches).toEqual([['a', 'b']]);
    expect(later.get('a')).toBeUndefined();
  });

  it('writes a record taken while a batch is in flight with the next one, unasked', async () => {
    const wrote: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const later = laterRecords(async (j) => {
      if (j.id === 'first') await gate;
      wrote.push(j.id);
    });
    later.take(job('first'));
    await tick(30); // its batch is in flight, held
    later.take(job('second'));
    await tick(30); // the second's time is up while the first's batch still runs
    release();
    await tick(60);
    expect(wrote).toEqual(['first', 'second']);
  });

  it('flush waits for what was taken before it, not for what comes after', async () => {
    const wrote: string[] = [];
    const later = laterRecords(async (j) => void wrote.push(j.id));
    later.take(job('a'));
    const flushed = later.flush();
    later.take(job('b'));
    await flushed;
    expect(wrote).toContain('a');
    await later.flush();
    expect(wrote).toEqual(['a', 'b']);
  });

  it('keeps a batch that failed, takes nothing more meanwhile, and writes it once the store answers', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    let away = true;
    const wrote: string[] = [];
    const later = laterRecords(async (j) => {
      if (away) throw new Error('the database is away');
      wrote.push(j.id);
    });
    later.take(job('a'));
    await expect(later.flush()).rejects.toThrow('the database is away');
    expect(later.take(job('b'))).toBe(false);
    expect(later.get('a')).toMatchObject({ id: 'a' });
    away = false;
    await tick(350);
    expect(wrote).toEqual(['a']);
    expect(later.take(job('b'))).toBe(true);
    expect(logged).toHaveBeenCalledWith('[chatsurface] the job records that waited for the database are written.');
    logged.mockRestore();
  });
});
