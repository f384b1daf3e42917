import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineCapability } from '../runtime/capability';
import { textResult } from '../runtime/results';
import { foldAll, initialThreadState, type ApprovalRow, type InvocationRow } from '../runtime/fold';
import type { Principal } from '../runtime/principal';
import { createMemorySessionStore } from '../runtime/stores/sessionStore';
import { anyOf, bearerKeys, issueSession, sessionCookie } from './authenticators';
import { createWorkspaceServer, type WorkspaceServer, type WorkspaceServerOptions } from './createWorkspaceServer';

// Confirmation on every door (issue 43): a capability that requires confirmation never runs on a
// key's or a cookie's say-so alone. REST holds it as a job that waits; the person decides it on the
// approval row in their thread (the chat's own row and decide path) or with an `approve` key.

const ALICE = 'alice-key-0123456789';
const APPROVER = 'alice-approver-key-0123';
const BOB = 'bob-key-0123456789012';
let exported: string[] = [];
const servers: WorkspaceServer[] = [];
const dirs: string[] = [];

afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  exported = [];
});

const exportCrm = defineCapability({
  name: 'crm.export',
  title: 'Export to CRM',
  description: 'Writes the enriched records to the CRM staging table (overwrites it).',
  kind: 'mutate',
  requires_user_confirmation: true,
  annotations: { destructiveHint: true, openWorldHint: false },
  input: z.object({ table: z.string().default('staging') }),
  handler: async ({ table }) => {
    exported.push(table);
    return textResult(`Exported 3 records to ${table}.`, { exported: 3, table });
  },
});

const sessions = createMemorySessionStore();
const keys = bearerKeys([
  { id: 'alice', key: ALICE },
  { id: 'alice', key: APPROVER, scopes: ['approve'] },
  { id: 'bob', key: BOB, scopes: ['approve'] },
]);

async function start(options: Partial<WorkspaceServerOptions> = {}) {
  const server = await createWorkspaceServer({
    capabilities: [exportCrm],
    database: ':memory:',
    authenticate: anyOf(sessionCookie({ sessions }), keys),
    restWaitMs: 2_000,
    ...options,
  });
  servers.push(server);
  const { url } = await server.listen();
  return { server, url };
}

const post = (url: string, path: string, body: unknown, headers: Record<string, string>) =>
  fetch(`${url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

async function threadRows(server: WorkspaceServer, principal: Principal, threadId = 'main') {
  const events = await server.host.events.read({ user: principal.user, space: principal.space ?? 'default', id: threadId }, 0);
  return foldAll(initialThreadState, events).rows;
}
const approvalRow = (rows: Awaited<ReturnType<typeof threadRows>>) => rows.find((r): r is ApprovalRow => r.kind === 'approval');
const jobOf = async (url: string, id: string, key = ALICE) => (await fetch(`${url}/v1/jobs/${id}`, { headers: bearer(key) })).json() as Promise<Record<string, any>>;

describe('confirmation on the REST door', () => {
  it('holds a key\'s call as a job that waits, shows the chat\'s approval row, and runs once when the person approves in the chat', async () => {
    const { server, url } = await start();
    const res = await post(url, '/v1/capabilities/crm.export', { table: 'staging' }, bearer(ALICE));
    expect(res.status).toBe(202);
    const job = (await res.json()) as Record<string, any>;
    expect(res.headers.get('location')).toBe(`/v1/jobs/${job.id}`);
    expect(job).toMatchObject({ status: 'waiting', capability: 'crm.export', approval: { state: 'waiting', threadId: 'main', approvalId: `approval_${job.id}` } });
    expect(job.approval.message).toMatch(/^Export to CRM needs a person's approval before it runs, and nothing has run yet: a person approves or denies it in the chat \(the approval row in thread "main"\)/);
    expect(job).not.toHaveProperty('held');
    expect(exported).toEqual([]);

    // The row is the chat's own approval row, in alice's thread "main", saying where the call came from.
    const row = approvalRow(await threadRows(server, { user: 'alice' }))!;
    expect(row).toMatchObject({ id: `approval_${job.id}`, capability: 'crm.export', title: 'Export to CRM', args: { table: 'staging' }, status: 'pending' });
    expect(row.reason).toMatch(/^Asked for through the REST API, not in this chat\./);
    expect((await jobOf(url, job.id)).status).toBe('waiting');

    // The person approves it in the chat, through the thread host's decide path.
    await server.host.decide({ user: 'alice' }, { threadId: 'main', id: row.id, decision: 'approve' });
    expect(exported).toEqual(['staging']);
    const done = await jobOf(url, job.id);
    expect(done).toMatchObject({ id: job.id, status: 'done', result: { structuredContent: { exported: 3, table: 'staging' } }, approval: { state: 'approved', decidedVia: 'chat' } });
    expect(done.createdAt).toBe(job.createdAt);
    const rows = await threadRows(server, { user: 'alice' });
    expect(approvalRow(rows)!.status).toBe('approved');
    // Its run is a card in the thread, under the job's own id.
    expect(rows.find((r): r is InvocationRow => r.kind === 'invocation')).toMatchObject({ id: job.id, capability: 'crm.export', state: 'done' });

    // A second decision, in the chat or on REST, runs nothing.
    await expect(server.host.decide({ user: 'alice' }, { threadId: 'main', id: row.id, decision: 'approve' })).rejects.toThrow(/already decided|not waiting|Nothing/);
    const again = await post(url, `/v1/jobs/${job.id}/approve`, {}, bearer(APPROVER));
    expect(again.status).toBe(409);
    expect(((await again.json()) as { error: { message: string } }).error.message).toMatch(/already approved/);
    expect(exported).toEqual(['staging']);
  });

  it('holds a guest page cookie\'s call the same way, with the row in that guest\'s own thread', async () => {
    const { server, url } = await start();
    const { principal, setCookie } = await issueSession(new Request(url), { sessions });
    const cookie = setCookie.split(';')[0]!;
    const res = await post(url, '/v1/capabilities/crm.export', {}, { cookie, 'chatsurface-approval-thread': 'inbox' });
    expect(res.status).toBe(202);
    const job = (await res.json()) as Record<string, any>;
    expect(job).toMatchObject({ status: 'waiting', approval: { threadId: 'inbox' } });
    expect(exported).toEqual([]);
    const row = approvalRow(await threadRows(server, principal, 'inbox'))!;
    expect(row.status).toBe('pending');
    // The page's own decide route: what the Approve button sends.
    const decided = await post(url, `/v1/threads/inbox/decisions`, { id: row.id, decision: 'deny' }, { cookie });
    expect(decided.status).toBeLessThan(300);
    const declined = await (await fetch(`${url}/v1/jobs/${job.id}`, { headers: { cookie } })).json() as Record<string, any>;
    expect(declined).toMatchObject({ status: 'cancelled', error: { code: 'declined' }, approval: { state: 'declined', decidedVia: 'chat' } });
    expect(declined.error.message).toBe('Export to CRM was declined in the chat, so it did not run.');
    expect(exported).toEqual([]);
  });

  it('lets a key with the approve scope decide it on REST (403 without it, 404 for another user), closing the chat row too', async () => {
    const { server, url } = await start();
    const job = (await (await post(url, '/v1/capabilities/crm.export', {}, bearer(ALICE))).json()) as Record<string, any>;

    const noScope = await post(url, `/v1/jobs/${job.id}/approve`, {}, bearer(ALICE));
    expect(noScope.status).toBe(403);
    expect(((await noScope.json()) as { error: { message: string } }).error.message).toBe('Only a key with the "approve" scope may approve a job here; this one does not have it. A person can decide it in the chat (thread "main").');
    const otherUser = await post(url, `/v1/jobs/${job.id}/approve`, {}, bearer(BOB));
    expect(otherUser.status).toBe(404);
    expect((await fetch(`${url}/v1/jobs/${job.id}`, { headers: bearer(BOB) })).status).toBe(404);
    expect(exported).toEqual([]);

    const approved = await post(url, `/v1/jobs/${job.id}/approve`, {}, bearer(APPROVER));
    expect(approved.status).toBe(200);
    expect(await approved.json()).toMatchObject({ id: job.id, status: 'done', result: { content: [{ type: 'text', text: 'Exported 3 records to staging.' }] }, approval: { state: 'approved', decidedVia: 'rest' } });
    expect(exported).toEqual(['staging']);
    const rows = await threadRows(server, { user: 'alice' });
    expect(approvalRow(rows)!.status).toBe('approved');
    expect(rows.filter((r) => r.kind === 'invocation')).toHaveLength(1);
  });

  it('runs it once when the chat and REST decide at the same moment', async () => {
    const { server, url } = await start();
    const job = (await (await post(url, '/v1/capabilities/crm.export', {}, bearer(ALICE))).json()) as Record<string, any>;
    const results = await Promise.allSettled([
      server.host.decide({ user: 'alice' }, { threadId: 'main', id: `approval_${job.id}`, decision: 'approve' }),
      post(url, `/v1/jobs/${job.id}/approve`, {}, bearer(APPROVER)).then((r) => r.status),
      server.host.decide({ user: 'alice' }, { threadId: 'main', id: `approval_${job.id}`, decision: 'approve' }),
    ]);
    expect(results.filter((r) => r.status === 'fulfilled' && r.value !== 409).length).toBeGreaterThanOrEqual(1);
    expect(exported).toEqual(['staging']);
    expect((await jobOf(url, job.id)).status).toBe('done');
  });

  it('declines on REST without running, and an Idempotency-Key retry answers the same job', async () => {
    const { url } = await start();
    const first = await post(url, '/v1/capabilities/crm.export', {}, { ...bearer(ALICE), 'idempotency-key': 'export-1' });
    const job = (await first.json()) as Record<string, any>;
    const retry = await post(url, '/v1/capabilities/crm.export', {}, { ...bearer(ALICE), 'idempotency-key': 'export-1' });
    expect(retry.status).toBe(202);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(((await retry.json()) as { id: string }).id).toBe(job.id);
    const declined = await post(url, `/v1/jobs/${job.id}/decline`, {}, bearer(APPROVER));
    expect(declined.status).toBe(200);
    expect(await declined.json()).toMatchObject({ status: 'cancelled', approval: { state: 'declined', decidedVia: 'rest' }, error: { code: 'declined' } });
    expect(exported).toEqual([]);
  });

  it('expires a job nobody approved: it ends cancelled, its row closes, and it never runs', async () => {
    const { server, url } = await start({ approvals: { expireAfterMs: 150 } });
    const job = (await (await post(url, '/v1/capabilities/crm.export', {}, bearer(ALICE))).json()) as Record<string, any>;
    await expect.poll(async () => (await jobOf(url, job.id)).status, { timeout: 3_000 }).toBe('cancelled');
    expect(await jobOf(url, job.id)).toMatchObject({ approval: { state: 'expired' }, error: { code: 'expired' } });
    await expect.poll(async () => approvalRow(await threadRows(server, { user: 'alice' }))!.status).toBe('denied');
    const late = await post(url, `/v1/jobs/${job.id}/approve`, {}, bearer(APPROVER));
    expect(late.status).toBe(409);
    expect(((await late.json()) as { error: { message: string } }).error.message).toMatch(/expired before anyone approved it/);
    expect(exported).toEqual([]);
  });

  it('keeps a waiting job across a restart: still waiting, still decidable from its row, then run once', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cs-approvals-'));
    dirs.push(dir);
    const database = join(dir, 'workspace.db');
    const first = await start({ database });
    const job = (await (await post(first.url, '/v1/capabilities/crm.export', { table: 'after-restart' }, bearer(ALICE))).json()) as Record<string, any>;
    await first.server.close();
    servers.splice(servers.indexOf(first.server), 1);

    const second = await start({ database });
    expect(await jobOf(second.url, job.id)).toMatchObject({ status: 'waiting', approval: { state: 'waiting' } });
    expect(approvalRow(await threadRows(second.server, { user: 'alice' }))!.status).toBe('pending');
    await second.server.host.decide({ user: 'alice' }, { threadId: 'main', id: `approval_${job.id}`, decision: 'approve' });
    expect(exported).toEqual(['after-restart']);
    expect(await jobOf(second.url, job.id)).toMatchObject({ status: 'done', result: { structuredContent: { table: 'after-restart' } } });
  });

  it('refuses an approval thread that is not a thread id, before anything is stored', async () => {
    const { url } = await start();
    const res = await post(url, '/v1/capabilities/crm.export', {}, { ...bearer(ALICE), 'chatsurface-approval-thread': '../../etc' });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: { code: 'invalid_thread' } });
    expect(exported).toEqual([]);
  });
});
