import { afterEach, expect, it } from 'vitest';
import { z } from 'zod';
import { defineCapability } from '../runtime/capability';
import { textResult } from '../runtime/results';
import type { ThreadEvent } from '../runtime/events';
import { foldAll, initialThreadState } from '../runtime/fold';
import { describePostgres, testPostgres } from '../test/postgres';
import { createRemoteWorkspace, type RemoteWorkspace } from '../workspace/remoteWorkspace';
import { bearerKeys } from './authenticators';
import { createWorkspaceServer, type WorkspaceServer } from './createWorkspaceServer';

const pg = await testPostgres();
const KEY = 'pg-server-key-0123456789';
const servers: WorkspaceServer[] = [];
const remotes: RemoteWorkspace[] = [];
let runs = 0;

afterEach(async () => {
  for (const remote of remotes.splice(0)) remote.close();
  await Promise.all(servers.splice(0).map((s) => s.close()));
  runs = 0;
});

const add = defineCapability({
  name: 'math.add',
  title: 'Add numbers',
  description: 'Adds a and b.',
  input: z.object({ a: z.number(), b: z.number() }),
  handler: ({ a, b }) => {
    runs++;
    return textResult(`The sum is ${a + b}.`, { sum: a + b });
  },
});

async function start(target: { url: string; schema: string }) {
  const server = await createWorkspaceServer({
    capabilities: [add],
    database: target.url,
    databaseSchema: target.schema,
    alignment: 'loose',
    authenticate: bearerKeys([{ id: 'ada', key: KEY }]),
  });
  servers.push(server);
  const { url } = await server.listen();
  const remote = await createRemoteWorkspace({ url, headers: { authorization: `Bearer ${KEY}` }, retryMs: 50 });
  remotes.push(remote);
  return { server, url, remote };
}

function watch(remote: RemoteWorkspace, threadId: string) {
  const events: ThreadEvent[] = [];
  remote.subscribe(threadId, (e) => events.push(e));
  return { events, state: () => foldAll(initialThreadState, events) };
}

describePostgres(pg, () => {
  it('hosts threads on PostgreSQL: a turn, then a restarted server on the same database keeps the thread and goes on', async () => {
    const target = await pg.createDatabase();
    const a = await start(target);
    const first = watch(a.remote, 't1');
    await a.remote.send({ threadId: 't1', text: 'add numbers a=2 b=3' });
    expect(first.state().rows.map((r) => r.kind)).toEqual(['user', 'invocation', 'assistant']);
    const before = first.events.length;
    await a.server.close();

    const b = await start(target);
    const again = watch(b.remote, 't1');
    await expect.poll(() => again.events.length, { timeout: 5_000 }).toBe(before);
    expect(again.events).toEqual(first.events);
    await b.remote.send({ threadId: 't1', text: 'add numbers a=4 b=5' });
    const rows = again.state().rows;
    expect(rows.at(-1)).toMatchObject({ kind: 'assistant', status: 'done' });
    expect(again.events.map((e) => e.seq)).toEqual(again.events.map((_, i) => i + 1));
    expect(runs).toBe(2);
    // The job of a chat call is on the database too, for its own user.
    const [job] = await b.server.jobs.list({ limit: 1 });
    expect((await fetch(`${b.url}/v1/jobs/${job!.id}`, { headers: { authorization: `Bearer ${KEY}` } })).status).toBe(200);
  }, 30_000);

  it('replays a REST answer from PostgreSQL after a restart instead of running it again', async () => {
    const target = await pg.createDatabase();
    const call = (url: string) =>
      fetch(`${url}/v1/capabilities/math.add`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${KEY}`, 'idempotency-key': 'k-1' },
        body: JSON.stringify({ a: 1, b: 1 }),
      });
    const a = await start(target);
    expect((await call(a.url)).status).toBe(200);
    await a.server.close();
    const b = await start(target);
    const replayed = await call(b.url);
    expect(replayed.status).toBe(200);
    expect(replayed.headers.get('idempotent-replayed')).toBe('true');
    expect(await replayed.json()).toMatchObject({ structuredContent: { sum: 2 } });
    expect(runs).toBe(1);
  }, 30_000);
});
