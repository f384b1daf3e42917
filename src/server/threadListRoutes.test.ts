import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineCapability } from '../runtime/capability';
import { textResult } from '../runtime/results';
import { threadKey } from '../runtime/stores/eventStore';
import { describePostgres, testPostgres } from '../test/postgres';
import { createRemoteWorkspace, type RemoteWorkspace } from '../workspace/remoteWorkspace';
import { bearerKeys } from './authenticators';
import { createWorkspaceServer, type WorkspaceServer } from './createWorkspaceServer';

const pg = await testPostgres();
const ALICE = 'alice-key-0123456789';
const BOB = 'bob-key-0123456789ab';
const servers: WorkspaceServer[] = [];
const remotes: RemoteWorkspace[] = [];
let release: (() => void) | null = null;

afterEach(async () => {
  release?.();
  for (const remote of remotes.splice(0)) remote.close();
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

const add = defineCapability({
  name: 'math.add',
  title: 'Add numbers',
  description: 'Adds a and b.',
  input: z.object({ a: z.number(), b: z.number() }),
  handler: ({ a, b }) => textResult(`The sum is ${a + b}.`, { sum: a + b }),
});
/** Runs until it is cancelled (or the test ends). */
const wait = defineCapability({
  name: 'slow.wait',
  title: 'Wait',
  description: 'Waits until cancelled.',
  input: z.object({}),
  handler: (_args, { signal }) =>
    new Promise((resolve) => {
      release = () => resolve(textResult('done waiting'));
      signal.addEventListener('abort', () => resolve(textResult('stopped')));
    }),
});

const as = (key: string) => ({ headers: { authorization: `Bearer ${key}` } });
const send = (key: string, method: string, body?: unknown) => ({
  method,
  headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
  body: JSON.stringify(body ?? {}),
});

type Target = { database: string; databaseSchema?: string };

function routeSuite(engine: string, target: () => Promise<Target>) {
  async function start() {
    const server = await createWorkspaceServer({
      capabilities: [add, wait],
      ...(await target()),
      alignment: 'loose',
      authenticate: bearerKeys([
        { id: 'alice', key: ALICE },
        { id: 'bob', key: BOB },
      ]),
    });
    servers.push(server);
    const { url } = await server.listen();
    const remote = await createRemoteWorkspace({ url, headers: { authorization: `Bearer ${ALICE}` }, retryMs: 50 });
    remotes.push(remote);
    return { server, url, remote };
  }
  const list = async (url: string, key: string, query = '') => (await (await fetch(`${url}/v1/threads${query}`, as(key))).json()) as { threads: { id: string; title: string; archived: boolean }[]; nextCursor: string | null };

  describe(`the thread list routes on ${engine}`, () => {
    it("lists a user's own threads, newest first, titled by their first message; another user sees none of them", async () => {
      const { url, remote } = await start();
      await remote.send({ threadId: 'csv', text: 'add a=1 b=2 for the invoices' });
      await remote.send({ threadId: 'q3', text: 'add a=40 b=2 for the report' });
      const page = await list(url, ALICE);
      expect(page.threads.map((t) => [t.id, t.title])).toEqual([
        ['q3', 'add a=40 b=2 for the report'],
        ['csv', 'add a=1 b=2 for the invoices'],
      ]);
      expect(page.nextCursor).toBeNull();
      expect((await list(url, BOB)).threads).toEqual([]);
      expect((await list(url, BOB, '?q=invoices')).threads).toEqual([]);
      // Paged: one at a time, the cursor leads to the next.
      const first = await list(url, ALICE, '?limit=1');
      expect(first.threads.map((t) => t.id)).toEqual(['q3']);
      const second = await list(url, ALICE, `?limit=1&cursor=${encodeURIComponent(first.nextCursor!)}`);
      expect(second.threads.map((t) => t.id)).toEqual(['csv']);
      // The remote workspace offers the list, from the server's manifest.
      expect((await remote.threads!.list({ search: 'report' })).threads.map((t) => t.id)).toEqual(['q3']);
    });

    it("answers 404 on every route for another user's thread, changes nothing, and 401 without credentials", async () => {
      const { url, server, remote } = await start();
      await remote.send({ threadId: 't1', text: 'add a=1 b=2 secretly' });
      for (const [path, method, body] of [
        ['/v1/threads/t1/title', 'POST', { title: 'mine now' }],
        ['/v1/threads/t1/archived', 'POST', { archived: true }],
        ['/v1/threads/t1', 'DELETE', undefined],
      ] as const) {
        const response = await fetch(`${url}${path}`, send(BOB, method, body));
        expect(response.status, `${method} ${path}`).toBe(404);
        expect(await response.json()).toEqual({ error: { code: 'unknown_thread', message: 'There is no thread "t1" here.' } });
        expect((await fetch(`${url}${path}`, { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body ?? {}) })).status).toBe(401);
      }
      expect((await fetch(`${url}/v1/threads`)).status).toBe(401);
      expect((await list(url, ALICE)).threads).toEqual([expect.objectContaining({ id: 't1', title: 'add a=1 b=2 secretly', archived: false })]);
      expect((await server.host.events.read({ user: 'alice', space: 'default', id: 't1' })).length).toBeGreaterThan(1);
    });

    it('renames, archives, unarchives and searches; a bad name is refused with a plain reason', async () => {
      const { url, remote } = await start();
      await remote.send({ threadId: 'a', text: 'add a=1 b=2 for Berlin' });
      await remote.send({ threadId: 'b', text: 'add a=3 b=4 for Paris' });
      const renamed = await fetch(`${url}/v1/threads/a/title`, send(ALICE, 'POST', { title: '  Quarterly numbers ' }));
      expect(await renamed.json()).toEqual({ thread: expect.objectContaining({ id: 'a', title: 'Quarterly numbers' }) });
      const empty = await fetch(`${url}/v1/threads/a/title`, send(ALICE, 'POST', { title: '   ' }));
      expect(empty.status).toBe(400);
      expect((await empty.json()).error.message).toContain('Give the thread a name.');
      expect((await list(url, ALICE, '?q=quarterly')).threads.map((t) => t.id)).toEqual(['a']);
      expect((await list(url, ALICE, '?q=paris')).threads.map((t) => t.id)).toEqual(['b']);
      expect((await list(url, ALICE, '?q=london')).threads).toEqual([]);
      await remote.threads!.setArchived({ threadId: 'b', archived: true });
      expect((await list(url, ALICE)).threads.map((t) => t.id)).toEqual(['a']);
      expect((await list(url, ALICE, '?archived=true')).threads.map((t) => [t.id, t.archived])).toEqual([['b', true]]);
      await remote.threads!.setArchived({ threadId: 'b', archived: false });
      expect((await list(url, ALICE)).threads.map((t) => t.id)).toEqual(['b', 'a']);
    });

    it("deletes a thread: its events and jobs leave the store, its stream is gone, and the list no longer has it", async () => {
      const { url, server, remote } = await start();
      await remote.invoke({ threadId: 'gone', capability: 'math.add', args: { a: 1, b: 2 } });
      await remote.send({ threadId: 'gone', text: 'add a=5 b=6 please' });
      const ref = { user: 'alice', space: 'default', id: 'gone' };
      expect((await server.jobs.list({ threadKey: threadKey(ref) })).length).toBeGreaterThan(0);
      const response = await fetch(`${url}/v1/threads/gone`, send(ALICE, 'DELETE'));
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ deleted: 'gone' });
      expect(await server.host.events.read(ref)).toEqual([]);
      expect(await server.host.events.info(ref)).toBeNull();
      expect(await server.jobs.list({ threadKey: threadKey(ref) })).toEqual([]);
      expect((await fetch(`${url}/v1/threads/gone/events`, as(ALICE))).status).toBe(404);
      expect((await list(url, ALICE)).threads).toEqual([]);
      expect((await list(url, ALICE, '?q=please')).threads).toEqual([]);
      expect((await fetch(`${url}/v1/threads/gone`, send(ALICE, 'DELETE'))).status).toBe(404);
    });

    it('stops what runs in a thread before deleting it', async () => {
      const { url, server, remote } = await start();
      await remote.send({ threadId: 'busy', text: 'hello there' });
      const running = fetch(`${url}/v1/invocations`, send(ALICE, 'POST', { threadId: 'busy', capability: 'slow.wait', args: {} }));
      const ref = { user: 'alice', space: 'default', id: 'busy' };
      await expect.poll(async () => (await server.jobs.list({ threadKey: threadKey(ref) })).some((j) => j.status === 'running')).toBe(true);
      const deleted = await fetch(`${url}/v1/threads/busy`, send(ALICE, 'DELETE'));
      expect(deleted.status).toBe(200);
      // The invocation was stopped (not left to finish on its own), and nothing it wrote outlived the delete.
      const answer = await (await running).json();
      expect(JSON.stringify(answer)).not.toContain('done waiting');
      expect(await server.host.events.read(ref)).toEqual([]);
      expect(await server.host.events.info(ref)).toBeNull();
      expect((await list(url, ALICE)).threads).toEqual([]);
    });
  });
}

routeSuite('SQLite', async () => ({ database: ':memory:' }));

describePostgres(pg, () => {
  routeSuite('PostgreSQL', async () => {
    const target = await pg.createDatabase();
    return { database: target.url, databaseSchema: target.schema };
  });
});
