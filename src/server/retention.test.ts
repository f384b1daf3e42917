import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineCapability } from '../runtime/capability';
import { createDoor } from '../runtime/doors/door';
import { createExecutor } from '../runtime/doors/executor';
import { createMemoryMeter } from '../runtime/doors/meter';
import { textResult } from '../runtime/results';
import type { JobStore } from '../runtime/jobs';
import { createRegistry } from '../runtime/registry';
import { createPostgresIdempotencyStore } from '../runtime/node/postgresIdempotencyStore';
import { createPostgresJobStore } from '../runtime/node/postgresJobStore';
import { createSqliteIdempotencyStore } from '../runtime/node/sqliteIdempotencyStore';
import { createSqliteJobStore } from '../runtime/node/sqliteJobStore';
import { openWorkspaceDatabase } from '../runtime/node/sqliteDatabase';
import { sqliteHandle } from '../runtime/node/sqliteHandle';
import { describePostgres, testPostgres } from '../test/postgres';
import { sweptJobs } from './retention';

const pg = await testPostgres();

const echo = defineCapability({ name: 'a.echo', title: 'Echo', description: 'Echoes.', input: z.object({ n: z.number() }), handler: ({ n }) => textResult(`#${n}`, { n }) });

/** The REST door as the server makes it, keeping a record of every inline read, on `jobs`. */
function restDoor(jobs: Parameters<typeof createExecutor>[0]['jobs']) {
  const registry = createRegistry([echo]);
  return createDoor({
    name: 'rest',
    registry,
    jobs,
    executor: createExecutor({ registry, jobs }),
    meter: createMemoryMeter({ requestsPerMinute: 1e12 }),
    record: { afterMs: 1_000, keepInlineReads: true },
  });
}

describe('job retention', () => {
  it('100,000 REST reads leave the jobs table within its bound: perPrincipal + sweepEveryJobs per principal', async () => {
    const database = openWorkspaceDatabase(':memory:');
    const retention = { perPrincipal: 1_000, sweepEveryJobs: 1_000 };
    const swept = sweptJobs(createSqliteJobStore(database), createSqliteIdempotencyStore(database), retention);
    const door = restDoor(swept.jobs);
    const rows = sqliteHandle(database).prepare('SELECT count(*) FROM jobs WHERE thread_id = ?').pluck();
    let most = 0;
    for (let i = 0; i < 100_000; i += 100) {
      // 100 at a time, as concurrent clients would; two principals share the table.
      await Promise.all(Array.from({ length: 100 }, (_, k) => door.call({ capability: 'a.echo', args: { n: i + k }, principal: { user: k % 2 ? 'a' : 'b' } })));
      // The event loop turns between rounds, as a server's does between requests (here nothing else waits on it).
      await new Promise((resolve) => setImmediate(resolve));
      most = Math.max(most, rows.get('rest:a') as number, rows.get('rest:b') as number);
    }
    await swept.sweep();
    expect(most).toBeLessThanOrEqual(retention.perPrincipal + retention.sweepEveryJobs);
    expect(rows.get('rest:a')).toBe(1_000);
    expect(rows.get('rest:b')).toBe(1_000);
    await swept.stop();
  }, 120_000);

  it('sweeps the idempotency store on the same schedule, and on a timer', async () => {
    const purged: number[] = [];
    let swept = 0;
    const store: JobStore = { put: async () => undefined, get: async () => undefined, list: async () => [], sweep: async () => (swept++, 0) };
    const retained = sweptJobs(store, { purge: (t) => (purged.push(t), 0) }, { sweepMs: 20, sweepEveryJobs: 2 }, () => 42);
    await retained.jobs.put({ id: 'a', capability: 'a.echo', threadKey: 'rest:a', status: 'done', createdAt: 1, updatedAt: 1 });
    await retained.jobs.put({ id: 'b', capability: 'a.echo', threadKey: 'rest:a', status: 'running', createdAt: 1, updatedAt: 1 });
    expect(swept).toBe(0);
    await retained.jobs.put({ id: 'b', capability: 'a.echo', threadKey: 'rest:a', status: 'failed', createdAt: 1, updatedAt: 1 });
    // The sweep the count began, and the one asked for: after it, its own.
    await retained.sweep();
    expect(swept).toBe(2);
    expect(purged).toEqual([42, 42]);
    await new Promise((r) => setTimeout(r, 70));
    expect(swept).toBeGreaterThanOrEqual(3);
    expect(purged.length).toBe(swept);
    await retained.stop();
    const after = swept;
    await new Promise((r) => setTimeout(r, 50));
    expect(swept).toBe(after);
  });
});

describePostgres(pg, () => {
  it('on PostgreSQL too: 10,000 REST reads stay within perPrincipal + sweepEveryJobs per principal, and each read\'s job is there once it has answered', async () => {
    const db = await pg.open();
    const retention = { perPrincipal: 300, sweepEveryJobs: 300 };
    const swept = sweptJobs(createPostgresJobStore(db), createPostgresIdempotencyStore(db), retention);
    const door = restDoor(swept.jobs);
    const count = async (key: string) => Number((await db.query<{ n: string }>('SELECT count(*) AS n FROM jobs WHERE thread_id = $1', [key])).rows[0]!.n);
    let most = 0;
    for (let i = 0; i < 10_000; i += 100) {
      const answers = await Promise.all(Array.from({ length: 100 }, (_, k) => door.call({ capability: 'a.echo', args: { n: i + k }, principal: { user: k % 2 ? 'a' : 'b' } })));
      // What `GET /v1/jobs/{id}` reads, right after the answers: every one of them, finished.
      const last = answers.at(-1)!;
      if (last.kind !== 'done') throw new Error(`the read was not answered inline: ${last.kind}`);
      expect(await swept.jobs.get(last.jobId)).toMatchObject({ id: last.jobId, status: 'done', threadKey: 'rest:a' });
      most = Math.max(most, await count('rest:a'), await count('rest:b'));
    }
    await swept.sweep();
    await swept.stop();
    // What finishes while a sweep runs (here up to two rounds of 50 calls a principal) waits for the next one.
    expect(most).toBeLessThanOrEqual(retention.perPrincipal + retention.sweepEveryJobs + 100);
    expect(await count('rest:a')).toBe(300);
    expect(await count('rest:b')).toBe(300);
  }, 120_000);
});

