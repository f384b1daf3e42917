import { afterEach, expect, it } from 'vitest';
import { describePostgres, testPostgres } from '../../test/postgres';
import type { ThreadEvent } from '../events';
import { createIdempotencyCache } from '../doors/idempotency';
import type { Coordination } from '../stores/coordination';
import { threadKey } from '../stores/eventStore';
import { createPostgresCoordination } from './postgresCoordination';
import { createPostgresEventStore } from './postgresEventStore';
import { createPostgresIdempotencyStore } from './postgresIdempotencyStore';
import { createPostgresJobStore } from './postgresJobStore';

const pg = await testPostgres();
const open: Coordination[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((c) => c.close()));
});

async function two(leaseMs = 400) {
  const target = await pg.createDatabase();
  const dbA = await pg.open(target);
  const dbB = await pg.open(target);
  // A is the one that dies in these tests: what fails after that is expected.
  const a = await createPostgresCoordination(dbA, { leaseMs, instance: 'inst_a', onError: () => undefined });
  const b = await createPostgresCoordination(dbB, { leaseMs, instance: 'inst_b' });
  open.push(a, b);
  return { a, b, dbA, dbB, target };
}

const event = (seq: number): ThreadEvent => ({ type: 'view.changed', seq, ts: seq, view: { kind: 'list' } }) as ThreadEvent;

describePostgres(pg, () => {
  it('gives a thread to one instance at a time: the other waits, and gets it when it is given back', async () => {
    const { a, b } = await two();
    await a.acquire('t');
    expect(await a.tryAcquire('t')).toBe(true); // re-entrant
    expect(await b.tryAcquire('t')).toBe(false);
    expect(await b.holder('t')).toBe('inst_a');
    let got = false;
    const waiting = b.acquire('t').then(() => (got = true));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(got).toBe(false);
    await a.release('t');
    await waiting;
    expect(await a.holder('t')).toBe('inst_b');
  });

  it('an aborted wait rejects with its reason and takes nothing', async () => {
    const { a, b } = await two();
    await a.acquire('t');
    const controller = new AbortController();
    const waiting = b.acquire('t', controller.signal);
    controller.abort(new Error('Stopped waiting.'));
    await expect(waiting).rejects.toThrow('Stopped waiting.');
    expect(await a.holder('t')).toBe('inst_a');
  });

  it('hears appends from the event store of any instance, committed ones only', async () => {
    const { a, b, dbA } = await two();
    const heard: [string, number][] = [];
    b.onAppend((key, seq) => heard.push([key, seq]));
    const events = createPostgresEventStore(dbA);
    const ref = { user: 'ada', space: 'default', id: 't1' };
    await events.append(ref, [event(1), event(2)]);
    await expect(Promise.resolve(events.append(ref, [event(2)]))).rejects.toThrow('does not follow');
    await events.append(ref, [event(3)]);
    await expect.poll(() => heard.length).toBe(2);
    expect(heard).toEqual([
      [threadKey(ref), 2],
      [threadKey(ref), 3],
    ]);
    void a;
  });

  it('carries a cancel to every instance', async () => {
    const { a, b } = await two();
    const heard: string[] = [];
    a.onCancel((key, id) => heard.push(`${key} ${id}`));
    await b.requestCancel('space/ada/t1', 'turn_1');
    await expect.poll(() => heard).toEqual(['space/ada/t1 turn_1']);
  });

  it('reaps an instance that stopped its heartbeat: once, by one survivor, freeing its leases and failing its jobs', async () => {
    const { a, b, dbA, dbB, target } = await two(300);
    const c = await createPostgresCoordination(await pg.open(target), { leaseMs: 300, instance: 'inst_c' });
    open.push(c);
    const reaps: string[][] = [];
    for (const survivor of [b, c]) survivor.onReap(({ instances, threads }) => reaps.push([...instances, ...threads]));
    const jobs = createPostgresJobStore(dbA, { instance: { id: 'inst_a', leaseMs: 300 } });
    await jobs.put({ id: 'job_1', capability: 'report.build', threadKey: 't', status: 'running', createdAt: 1, updatedAt: 1 });
    const fromB = createPostgresJobStore(dbB, { instance: { id: 'inst_b', leaseMs: 300 } });
    // A's job is A's while A lives.
    expect(await fromB.unfinished()).toEqual([]);
    await a.acquire('t');
    // A loses its database (as if killed): its heartbeat stops, and nothing says goodbye.
    await dbA.close();
    await expect.poll(() => reaps.length, { timeout: 5_000 }).toBeGreaterThan(0);
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(reaps).toEqual([['inst_a', 't']]);
    expect(await b.tryAcquire('t')).toBe(true);
    expect((await fromB.unfinished()).map((j) => j.id)).toEqual(['job_1']);
  });

  it('claims an Idempotency-Key in the database: a retry on another instance waits for the first answer; a dead claimant is taken over', async () => {
    const { dbA, dbB } = await two();
    const storeA = createPostgresIdempotencyStore(dbA, { instance: { id: 'inst_a', leaseMs: 400 } });
    const storeB = createPostgresIdempotencyStore(dbB, { instance: { id: 'inst_b', leaseMs: 400 } });
    expect(await storeA.begin!('ada', 'k', { fingerprint: 'fp', createdAt: Date.now(), expiresAt: Date.now() + 60_000 })).toEqual({ begun: true });
    expect(await storeB.begin!('ada', 'k', { fingerprint: 'fp', createdAt: Date.now(), expiresAt: Date.now() + 60_000 })).toEqual({ begun: false, pending: 'fp' });
    // In flight is not an answer.
    expect(await storeB.get('ada', 'k')).toBeUndefined();

    let runs = 0;
    const cacheB = createIdempotencyCache<string>({ store: storeB });
    const retrying = cacheB.claim('ada', 'k', 'fp', async () => `ran ${++runs}`);
    // Another request under the same key is a conflict at once, even while the first is in flight.
    expect(await createIdempotencyCache<string>({ store: storeB }).claim('ada', 'k', 'other', async () => 'no')).toEqual({ conflict: true });
    await storeA.put('ada', 'k', { fingerprint: 'fp', response: 'first answer', createdAt: Date.now(), expiresAt: Date.now() + 60_000 });
    const retry = await retrying;
    expect(retry).toMatchObject({ conflict: false, replayed: true });
    expect(await (retry.conflict ? null : retry.value)).toBe('first answer');
    expect(runs).toBe(0);

    // A claim whose instance is gone (no heartbeat row) is taken over.
    const now = Date.now();
    expect(await storeA.begin!('ada', 'k2', { fingerprint: 'fp', createdAt: now, expiresAt: now + 60_000 })).toEqual({ begun: true });
    await dbA.query("DELETE FROM instances WHERE id = 'inst_a'");
    expect(await storeB.begin!('ada', 'k2', { fingerprint: 'fp', createdAt: now, expiresAt: now + 60_000 })).toEqual({ begun: true });
  });
});
