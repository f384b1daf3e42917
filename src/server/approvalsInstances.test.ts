import { afterEach, expect, it } from 'vitest';
import { z } from 'zod';
import { defineCapability } from '../runtime/capability';
import { textResult } from '../runtime/results';
import { foldAll, initialThreadState, type ApprovalRow } from '../runtime/fold';
import { describePostgres, testPostgres, type TestDatabase } from '../test/postgres';
import { bearerKeys } from './authenticators';
import { createWorkspaceServer, type WorkspaceServer } from './createWorkspaceServer';

/**
 * Confirmation on every door with two instances on one PostgreSQL (issue 43): a job that waits for
 * a person, asked for on one instance, is decided on the other, and runs once however the
 * decisions race across them.
 */
const pg = await testPostgres();
const KEY = 'approvals-pg-key-0123456789';
const APPROVER = 'approvals-pg-approver-0123';
let exported = 0;
const servers: WorkspaceServer[] = [];

afterEach(async () => {
  for (const s of servers.splice(0).reverse()) await s.close();
  exported = 0;
});

const exportCrm = defineCapability({
  name: 'crm.export',
  title: 'Export to CRM',
  description: 'Overwrites the CRM staging table.',
  kind: 'mutate',
  requires_user_confirmation: true,
  input: z.object({}),
  handler: async () => {
    exported++;
    await new Promise((resolve) => setTimeout(resolve, 50));
    return textResult('Exported 3 records.', { exported: 3 });
  },
});

async function start(target: TestDatabase) {
  const server = await createWorkspaceServer({
    capabilities: [exportCrm],
    database: target.url,
    databaseSchema: target.schema,
    instance: { leaseMs: 600 },
    authenticate: bearerKeys([
      { id: 'ada', key: KEY },
      { id: 'ada', key: APPROVER, scopes: ['approve'] },
    ]),
    heartbeatMs: 200,
    restWaitMs: 5_000,
  });
  servers.push(server);
  return { server, url: (await server.listen()).url };
}

const post = (url: string, path: string, key: string) => fetch(`${url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` }, body: '{}' });
const job = async (url: string, id: string) => (await (await fetch(`${url}/v1/jobs/${id}`, { headers: { authorization: `Bearer ${KEY}` } })).json()) as Record<string, any>;

describePostgres(pg, () => {
  it('a job asked for on one instance is approved on the other and runs once, its row closing as approved', async () => {
    const target = await pg.createDatabase();
    const a = await start(target);
    const b = await start(target);
    const waiting = (await (await post(a.url, '/v1/capabilities/crm.export', KEY)).json()) as Record<string, any>;
    expect(waiting.status).toBe('waiting');
    expect((await job(b.url, waiting.id)).status).toBe('waiting');

    const approved = await post(b.url, `/v1/jobs/${waiting.id}/approve`, APPROVER);
    expect([200, 202]).toContain(approved.status);
    await expect.poll(async () => (await job(a.url, waiting.id)).status, { timeout: 10_000 }).toBe('done');
    expect(exported).toBe(1);
    const events = await b.server.host.events.read({ user: 'ada', space: 'default', id: 'main' }, 0);
    const row = foldAll(initialThreadState, events).rows.find((r): r is ApprovalRow => r.kind === 'approval');
    expect(row).toMatchObject({ id: `approval_${waiting.id}`, status: 'approved' });
  });

  it('the chat on one instance and REST on the other deciding at once run it once', async () => {
    const target = await pg.createDatabase();
    const a = await start(target);
    const b = await start(target);
    const waiting = (await (await post(a.url, '/v1/capabilities/crm.export', KEY)).json()) as Record<string, any>;
    await Promise.allSettled([
      a.server.host.decide({ user: 'ada' }, { threadId: 'main', id: `approval_${waiting.id}`, decision: 'approve' }),
      post(b.url, `/v1/jobs/${waiting.id}/approve`, APPROVER),
      post(a.url, `/v1/jobs/${waiting.id}/approve`, APPROVER),
    ]);
    await expect.poll(async () => (await job(b.url, waiting.id)).status, { timeout: 10_000 }).toBe('done');
    expect(exported).toBe(1);
  });
});
