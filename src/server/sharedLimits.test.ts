import { afterEach, expect, it } from 'vitest';
import { z } from 'zod';
import { defineCapability } from '../runtime/capability';
import { textResult } from '../runtime/results';
import { describePostgres, testPostgres, type TestDatabase } from '../test/postgres';
import { bearerKeys } from './authenticators';
import { createWorkspaceServer, type WorkspaceServer } from './createWorkspaceServer';

/** Limits that hold across server instances on one PostgreSQL database (issue 43 item 4). */
const pg = await testPostgres();
const KEY = 'shared-limits-key-0123456789';

const ping = defineCapability({ name: 'ping.read', title: 'Ping', description: 'Answers pong.', input: z.object({}), handler: () => textResult('pong') });

const servers: WorkspaceServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function start(target: TestDatabase, requestsPerMinute: number) {
  const server = await createWorkspaceServer({
    capabilities: [ping],
    database: target.url,
    databaseSchema: target.schema,
    authenticate: bearerKeys([{ id: 'ada', key: KEY, requestsPerMinute }]),
  });
  servers.push(server);
  return server;
}

const call = (server: WorkspaceServer) =>
  server.fetch(new Request('http://127.0.0.1/v1/capabilities/ping.read', { method: 'POST', headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' }, body: '{}' }));

describePostgres(pg, () => {
  it('two instances on one database together allow one request limit, not two', async () => {
    const target = await pg.createDatabase();
    const a = await start(target, 60);
    const b = await start(target, 60);
    const statuses: number[] = [];
    for (let i = 0; i < 150; i++) statuses.push((await call(i % 2 ? a : b)).status);
    // 60 a minute: the bucket holds 60; the test's few seconds refill at most a handful more.
    const passed = statuses.filter((s) => s === 200).length;
    expect(passed).toBeGreaterThanOrEqual(60);
    expect(passed).toBeLessThan(70);
    expect(statuses.filter((s) => s === 429)).toHaveLength(150 - passed);
    const refused = await call(a);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect((await refused.json()).error.message).toMatch(/^User "ada" made more than 60 requests in a minute\. Retry after \d+ s\.$/);
  }, 30_000);

  it('a restarted instance keeps the count: a new process does not bring a full bucket', async () => {
    const target = await pg.createDatabase();
    const first = await start(target, 20);
    for (let i = 0; i < 20; i++) expect((await call(first)).status).toBe(200);
    await first.close();
    servers.splice(servers.indexOf(first), 1);
    const second = await start(target, 20);
    expect((await call(second)).status).toBe(429);
  }, 30_000);
});
