import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Pool } from 'pg';
import { afterAll, beforeAll, describe, it, type ExpectStatic } from 'vitest';
import { CLUSTER_PARENT, CLUSTER_PREFIX, haltCluster, resumeCluster, startCluster, stopCluster } from '../../scripts/postgres-cluster.mjs';
import type { ThreadEvent } from '../runtime/events';
import { threadKey } from '../runtime/stores/eventStore';
import { bundleInstance, followThread, INSTANCE_AUTH, startInstance, type Follower, type InstanceProcess } from '../test/instanceProcess';
import { describePostgres, testPostgres } from '../test/postgres';
import { pathOf, routes } from '../workspace/protocol';

/**
 * Issue 43: PostgreSQL stopped for 15 s and for 60 s under two instances, each in a process of its own,
 * while instance A streams a turn and instance B runs a slow job in the chat. Both processes live on;
 * once the database is back every SSE client (on A and on B, for both threads) has the whole log, in
 * order, each event once; the turn and the job ended interrupted, as after a crash; both instances
 * answer again. The two outages run at once, each on a cluster of its own, so the file takes about
 * as long as the longer one.
 */
const pg = await testPostgres();
const LEASE_MS = 2_000;
let work = '';
let bundle = '';
const dirs: string[] = [];
const running: InstanceProcess[] = [];
const followers: Follower[] = [];

beforeAll(async () => {
  if (pg.skip) return;
  work = mkdtempSync(join(tmpdir(), 'chatsurface-outage-'));
  bundle = await bundleInstance(work, LEASE_MS);
}, 60_000);

afterAll(async () => {
  for (const follower of followers) follower.stop();
  for (const instance of running) instance.child.kill('SIGKILL');
  await Promise.all(dirs.map((dir) => stopCluster(dir)));
  if (work) rmSync(work, { recursive: true, force: true });
});

const post = (url: string, path: string, body: unknown) =>
  fetch(`${url}${path}`, { method: 'POST', headers: { ...INSTANCE_AUTH, 'content-type': 'application/json' }, body: JSON.stringify(body) });
const send = (url: string, threadId: string, text: string) => post(url, pathOf(routes.send.path, { threadId }), { text });
const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The thread's whole log as the database holds it. */
async function logOf(database: string, threadId: string): Promise<ThreadEvent[]> {
  const pool = new Pool({ connectionString: database, max: 1 });
  try {
    const { rows } = await pool.query<{ body: string }>('SELECT body FROM thread_events WHERE thread_key = $1 ORDER BY seq', [threadKey({ user: 'ada', space: 'default', id: threadId })]);
    return rows.map((row) => (typeof row.body === 'string' ? JSON.parse(row.body) : row.body) as ThreadEvent);
  } finally {
    await pool.end();
  }
}

const alive = (instance: InstanceProcess) => instance.child.exitCode === null && instance.child.signalCode === null;

async function outage(expect: ExpectStatic, seconds: number) {
  const dir = mkdtempSync(join(CLUSTER_PARENT, `${CLUSTER_PREFIX}outage2-`));
  dirs.push(dir);
  const database = await startCluster(dir);
  const a = await startInstance(bundle, database);
  const b = await startInstance(bundle, database);
  running.push(a, b);
  const turn = `turn-${seconds}`;
  const job = `job-${seconds}`;
  // Each thread written once before its clients attach, so both exist.
  expect((await send(a.url, turn, 'talk 1 at 1')).status).toBe(200);
  expect((await send(b.url, job, 'talk 1 at 1')).status).toBe(200);
  const clients = [followThread(a.url, turn), followThread(b.url, turn), followThread(a.url, job), followThread(b.url, job)];
  followers.push(...clients);
  const [turnOnA, turnOnB, jobOnA, jobOnB] = clients;

  // A talks for far longer than the outage; B's job too.
  const talking = send(a.url, turn, `talk ${seconds * 40} at 50`).catch((error: unknown) => error);
  const building = send(b.url, job, `build report ${seconds * 40} at 50`).catch((error: unknown) => error);
  await expect.poll(() => turnOnB!.events.filter((e) => e.type === 'message.delta').length, { timeout: 10_000 }).toBeGreaterThan(5);
  await expect.poll(() => jobOnA!.events.filter((e) => e.type === 'capability.progress').length, { timeout: 10_000 }).toBeGreaterThan(5);

  await haltCluster(dir);
  const haltedAt = Date.now();
  while (Date.now() - haltedAt < seconds * 1_000) {
    await wait(1_000);
    expect(alive(a), a.errors()).toBe(true);
    expect(alive(b), b.errors()).toBe(true);
  }
  // While it is away the instances answer, in words.
  const refused = await send(a.url, 'another', 'hello');
  expect(refused.status).toBe(503);
  expect(refused.headers.get('retry-after')).toBeTruthy();
  await resumeCluster(dir);

  // The work that was running ends interrupted, as after a crash, and the clients hear it.
  const ended = (events: ThreadEvent[]) => events.some((e) => e.type === 'turn.done' && e.outcome === 'interrupted');
  await expect.poll(() => clients.every((client) => ended(client.events)), { timeout: 30_000, interval: 250 }).toBe(true);
  await talking;
  await building;
  expect(alive(a), a.errors()).toBe(true);
  expect(alive(b), b.errors()).toBe(true);

  for (const [threadId, followers] of [
    [turn, [turnOnA!, turnOnB!]],
    [job, [jobOnA!, jobOnB!]],
  ] as const) {
    const log = await logOf(database, threadId);
    // One log: seqs 1..n, each once.
    expect(log.map((e) => e.seq)).toEqual(log.map((_, i) => i + 1));
    for (const follower of followers) {
      await expect.poll(() => follower.events.length, { timeout: 10_000 }).toBe(log.length);
      // Every client: the whole log, in order, each event once, whatever reconnects it took.
      expect(follower.events).toEqual(log);
    }
    const last = log.filter((e) => e.type === 'turn.done').at(-1);
    expect(last).toMatchObject({ outcome: 'interrupted' });
  }
  const jobLog = await logOf(database, job);
  const started = jobLog.find((e) => e.type === 'capability.started' && e.capability === 'report.build') as Extract<ThreadEvent, { type: 'capability.started' }>;
  expect(jobLog.find((e) => e.type === 'capability.error' && e.invocation_id === started.invocation_id)).toMatchObject({ error: { code: 'interrupted' } });
  // Its job record says so too (written again with backoff once the database is back).
  const jobError = async () => ((await (await fetch(`${a.url}/v1/jobs/${started.invocation_id}`, { headers: INSTANCE_AUTH })).json()) as { error?: { code: string } }).error?.code;
  await expect.poll(jobError, { timeout: 15_000 }).toBe('interrupted');

  // Both instances work again, each on the other's thread.
  expect((await send(b.url, turn, 'talk 2 at 1')).status).toBe(200);
  expect((await send(a.url, job, 'talk 2 at 1')).status).toBe(200);
  expect((await logOf(database, turn)).at(-1)).toMatchObject({ type: 'turn.done', outcome: 'answered' });
  expect(alive(a) && alive(b)).toBe(true);
}

describePostgres(pg, () => {
  describe.concurrent('PostgreSQL stopped under two instances, mid-turn on one and mid-job on the other', () => {
    it('for 15 s', ({ expect }) => outage(expect, 15), 120_000);
    it('for 60 s', ({ expect }) => outage(expect, 60), 180_000);
  });
});
