import { afterAll, beforeAll, expect, it } from 'vitest';
import type { ThreadEvent } from '../runtime/events';
import { foldAll, initialThreadState } from '../runtime/fold';
import { describePostgres, testPostgres } from '../test/postgres';
import { startEverythingServer, type EverythingServer } from '../test/everythingServer';
import { createRemoteWorkspace, type RemoteWorkspace } from '../workspace/remoteWorkspace';
import { bearerKeys } from './authenticators';
import { createWorkspaceServer, type WorkspaceServer } from './createWorkspaceServer';

const pg = await testPostgres();
const ALICE = 'byo-alice-key-0123456789';
const BOB = 'byo-bob-key-0123456789';
let everything: EverythingServer;
const servers: WorkspaceServer[] = [];
const remotes: RemoteWorkspace[] = [];

beforeAll(async () => {
  everything = await startEverythingServer();
}, 30_000);
afterAll(async () => {
  for (const remote of remotes.splice(0)) remote.close();
  await Promise.all(servers.splice(0).map((s) => s.close()));
  await everything?.stop();
});

async function instance(target: { url: string; schema: string }) {
  const server = await createWorkspaceServer({
    capabilities: [],
    database: target.url,
    databaseSchema: target.schema,
    authenticate: bearerKeys([{ id: 'alice', key: ALICE }, { id: 'bob', key: BOB }]),
    connectors: { allowHosts: ['127.0.0.1'] },
  });
  servers.push(server);
  const { url } = await server.listen();
  const as = async (key: string) => {
    const remote = await createRemoteWorkspace({ url, headers: { authorization: `Bearer ${key}` }, retryMs: 50 });
    remotes.push(remote);
    return remote;
  };
  return { alice: await as(ALICE), bob: await as(BOB) };
}

async function turn(remote: RemoteWorkspace, threadId: string, text: string) {
  const events: ThreadEvent[] = [];
  const stop = remote.subscribe(threadId, (e) => events.push(e));
  await remote.send({ threadId, text });
  stop();
  return foldAll(initialThreadState, events).rows.filter((r) => r.kind === 'invocation');
}

describePostgres(pg, () => {
  it("keeps a user's own MCP server in PostgreSQL: connected through the remote workspace on one instance, used on another, for that user only", async () => {
    const target = await pg.createDatabase();
    const a = await instance(target);
    const b = await instance(target);
    // The manifest offers the feature, so the remote workspace has the API.
    expect(Object.keys(a.alice.connectors ?? {}).sort()).toEqual(['authorize', 'connect', 'disconnect', 'list']);

    const server = await a.alice.connectors!.connect({ label: 'everything', url: everything.url, token: 'pg-secret' });
    expect(server).toMatchObject({ label: 'everything', status: 'connected', hasToken: true });
    expect(JSON.stringify(server)).not.toContain('pg-secret');

    // The other instance connects alice's stored server on her next request.
    expect(await b.alice.connectors!.list()).toEqual([expect.objectContaining({ label: 'everything', status: 'connected' })]);
    expect(await turn(b.alice, 'pg1', 'everything echo message=postgres')).toEqual([expect.objectContaining({ capability: 'everything.echo', state: 'done' })]);
    expect(await b.bob.connectors!.list()).toEqual([]);
    expect(await turn(b.bob, 'pg1', 'everything echo message=postgres')).toEqual([]);

    // A duplicate name is refused in words, through the adapter too.
    await expect(a.alice.connectors!.connect({ label: 'everything', url: everything.url })).rejects.toThrow('You already have a server named "everything"');

    await a.alice.connectors!.disconnect('everything');
    expect(await a.alice.connectors!.list()).toEqual([]);
    // Gone from the database: a fresh instance finds nothing for alice.
    const c = await instance(target);
    expect(await c.alice.connectors!.list()).toEqual([]);
  }, 60_000);
});
