import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRemoteWorkspace, type RemoteWorkspace } from 'chatsurface';
import { foldAll, initialThreadState, type InvocationRow, type ThreadEvent } from 'chatsurface/runtime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appRoot, createReferenceServer, type ReferenceServer } from './server';

let reference: ReferenceServer;
let remote: RemoteWorkspace;
let stateDir: string;
let baseUrl: string;
/** The `name=value` of this test browser's session cookie. */
let cookie: string;

beforeAll(async () => {
  stateDir = mkdtempSync(join(tmpdir(), 'reference-'));
  reference = await createReferenceServer({ stateDir, enrichDelayMs: 5 });
  const { url } = await reference.server.listen();
  baseUrl = url;
  cookie = await signIn();
  remote = await createRemoteWorkspace({ url, headers: { cookie } });
});

afterAll(async () => {
  remote?.close();
  await reference?.close();
  rmSync(stateDir, { recursive: true, force: true });
});

function safeList(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

/** A new browser: the session cookie the demo page load would set, as a `Cookie` header value. */
async function signIn(): Promise<string> {
  const setCookie = await reference.issueSessionCookie(new Request(`${baseUrl}/`));
  expect(setCookie).toMatch(/^cs_session=[A-Za-z0-9_-]{43}; HttpOnly; SameSite=Lax; Path=\/; Max-Age=\d+$/);
  return setCookie!.split(';')[0]!;
}

/** Every event of a thread so far, folded as the surface would show it. */
async function thread(threadId: string) {
  const events: ThreadEvent[] = [];
  const stop = remote.subscribe(threadId, (e) => events.push(e));
  await new Promise((resolve) => setTimeout(resolve, 300));
  stop();
  return { events, state: foldAll(initialThreadState, events) };
}

describe('the reference workspace on the kit server', () => {
  it('signs each browser in as its own anonymous user, and says who on /app/me', async () => {
    const me = await fetch(`${baseUrl}/app/me`, { headers: { cookie } });
    expect(me.status).toBe(200);
    const { user } = (await me.json()) as { user: string };
    expect(user).toMatch(/^guest-[0-9a-f]+$/);
    // A browser that already has a live session keeps it.
    expect(await reference.issueSessionCookie(new Request(`${baseUrl}/`, { headers: { cookie } }))).toBeNull();
    // Another browser is another user.
    const other = await signIn();
    const otherMe = (await (await fetch(`${baseUrl}/app/me`, { headers: { cookie: other } })).json()) as { user: string };
    expect(otherMe.user).toMatch(/^guest-/);
    expect(otherMe.user).not.toBe(user);
    // No session, or a forged one: 401.
    expect((await fetch(`${baseUrl}/app/me`)).status).toBe(401);
    expect((await fetch(`${baseUrl}/app/me`, { headers: { cookie: `cs_session=${'x'.repeat(43)}` } })).status).toBe(401);
    // The host's records screen sits behind the same sign-in.
    expect((await fetch(`${baseUrl}/app/records`)).status).toBe(401);
    expect((await fetch(`${baseUrl}/app/records`, { headers: { cookie } })).status).toBe(200);
  });

  it('signs in a bounded number of guests per client address, and says so in words beyond it', async () => {
    const made: string[] = [];
    let refusal: unknown = null;
    for (let i = 0; i < 40 && !refusal; i++) {
      await reference.issueSessionCookie(new Request(`${baseUrl}/`), '203.0.113.9').then(
        (cookie) => void made.push(cookie!),
        (error: unknown) => void (refusal = error),
      );
    }
    expect(made).toHaveLength(30);
    expect(refusal).toMatchObject({ name: 'GuestLimitError', message: expect.stringContaining('Too many new visitors from your address') });
    // Someone else still gets in, and a browser with a live session is never counted.
    expect(await reference.issueSessionCookie(new Request(`${baseUrl}/`), '198.51.100.4')).toMatch(/^cs_session=/);
    expect(await reference.issueSessionCookie(new Request(`${baseUrl}/`, { headers: { cookie: made[0]!.split(';')[0]! } }), '203.0.113.9')).toBeNull();
  });

  it('signs a browser out: its session ends, another site cannot do it, and the next page load is a new guest', async () => {
    const mine = await signIn();
    const json = { 'content-type': 'application/json', cookie: mine };
    // Another site's form or fetch is refused by the kit's guard, and the session lives on.
    const foreign = await fetch(`${baseUrl}/app/sign-out`, { method: 'POST', headers: { ...json, origin: 'https://evil.example' }, body: '{}' });
    expect(foreign.status).toBe(403);
    expect((await fetch(`${baseUrl}/app/sign-out`, { method: 'POST', headers: { cookie: mine, 'content-type': 'text/plain' }, body: '{}' })).status).toBe(415);
    expect((await fetch(`${baseUrl}/app/me`, { headers: { cookie: mine } })).status).toBe(200);
    const out = await fetch(`${baseUrl}/app/sign-out`, { method: 'POST', headers: json, body: '{}' });
    expect(out.status).toBe(200);
    expect(out.headers.get('set-cookie')).toBe('cs_session=; HttpOnly; SameSite=Lax; Path=/; Max-Age=0');
    expect((await fetch(`${baseUrl}/app/me`, { headers: { cookie: mine } })).status).toBe(401);
    expect(await reference.issueSessionCookie(new Request(`${baseUrl}/`, { headers: { cookie: mine } }))).toMatch(/^cs_session=/);
  });

  it('offers every verb of the demo, with corpus search from the local MCP server', () => {
    expect(remote.manifest.capabilities.map((c) => c.name)).toEqual([
      'corpus.search', 'crawl-fetch-ingest', 'crm.export', 'enrich.batch', 'records.import_csv', 'records.list',
    ]);
    const search = remote.manifest.capabilities.find((c) => c.name === 'corpus.search')!;
    expect(Object.keys((search.inputSchema as { properties: object }).properties)).not.toContain('collection');
  });

  it('imports a good CSV with no violation, and a CSV that inserts nothing with a row_count_change violation', async () => {
    const good = await remote.invoke({ threadId: 'csv', capability: 'records.import_csv', args: { file: 'customers.csv' } });
    expect(good.isError).toBeFalsy();
    const bad = await remote.invoke({ threadId: 'csv', capability: 'records.import_csv', args: { file: 'broken.csv' } });
    expect(bad.isError).toBeFalsy();
    const { state } = await thread('csv');
    const cards = state.rows.filter((r): r is InvocationRow => r.kind === 'invocation');
    expect(cards.map((c) => c.state)).toEqual(['done', 'done']);
    expect(cards[0]!.violations ?? []).toEqual([]);
    expect(cards[1]!.violations).toEqual([
      expect.objectContaining({ postcondition: 'row_count_change', expected: 'records +2', actual: 'records +0' }),
    ]);
    expect(state.rows.some((r) => r.kind === 'violation')).toBe(true);
  });

  it('refuses a hostile file argument before anything runs', async () => {
    const result = await remote.invoke({ threadId: 'hostile', capability: 'records.import_csv', args: { file: '../records/db.mjs' } });
    expect(result.isError).toBe(true);
    const { state } = await thread('hostile');
    expect(state.rows[0]).toMatchObject({ kind: 'invocation', state: 'failed', error: { code: 'invalid_arguments' } });
  });

  it('enriches records with progress and no violation, then the export asks for approval and writes a file', async () => {
    const enriched = await remote.invoke({ threadId: 'flow', capability: 'enrich.batch', args: { limit: 3 } });
    expect(enriched.structuredContent).toMatchObject({ enriched: 3 });
    await remote.send({ threadId: 'flow', text: 'export to CRM' });
    let { state } = await thread('flow');
    const approval = state.rows.find((r) => r.kind === 'approval');
    expect(approval).toMatchObject({ kind: 'approval', capability: 'crm.export', status: 'pending' });
    // Exports go to the state folder, never into the checkout the dev server serves.
    const inCheckout = safeList(join(appRoot, 'exports'));
    expect(safeList(join(stateDir, 'exports'))).toEqual([]);
    await remote.decide({ threadId: 'flow', id: approval!.id, decision: 'approve' });
    ({ state } = await thread('flow'));
    const exportCard = state.rows.find((r): r is InvocationRow => r.kind === 'invocation' && r.capability === 'crm.export');
    expect(exportCard).toMatchObject({ state: 'done' });
    expect(exportCard!.violations ?? []).toEqual([]);
    expect(safeList(join(stateDir, 'exports'))).toHaveLength(1);
    expect(safeList(join(appRoot, 'exports'))).toEqual(inCheckout);
    const enrichCard = state.rows.find((r): r is InvocationRow => r.kind === 'invocation' && r.capability === 'enrich.batch');
    expect(enrichCard).toMatchObject({ state: 'done', actor: { name: 'Enricher' } });
  });

  it('searches the tenant’s notes and never another tenant’s', async () => {
    const result = await remote.invoke({ threadId: 'search', capability: 'corpus.search', args: { query: 'pricing confidential discount churn' } });
    const { results } = result.structuredContent as { results: { id: string }[] };
    expect(results.length).toBeGreaterThan(0);
    expect(results.every((r) => r.id.startsWith('acme-'))).toBe(true);
    const sneaky = await remote.invoke({ threadId: 'search', capability: 'corpus.search', args: { query: 'pricing', collection: 'globex' } });
    expect(sneaky.isError).toBe(true);
  });

  it('asks exactly one question before taking over a standing request, then hands it to the host', async () => {
    await remote.send({ threadId: 'watch', text: 'keep an eye on new records every week' });
    let { state } = await thread('watch');
    const questions = state.rows.filter((r) => r.kind === 'question');
    expect(questions).toHaveLength(1);
    expect(questions[0]).toMatchObject({ question: 'Just this once, or should I keep watching it for you?', status: 'pending' });
    await remote.decide({ threadId: 'watch', id: questions[0]!.id, decision: 'answer', answer: 'keep watching' });
    ({ state } = await thread('watch'));
    expect(state.rows.filter((r) => r.kind === 'question')).toHaveLength(1);
    expect(state.rows.find((r) => r.kind === 'standing')).toMatchObject({ kind: 'standing', cadence: 'every week' });
  });

  it('keeps one browser’s threads from another', async () => {
    expect((await thread('csv')).events.length).toBeGreaterThan(0);
    const stranger = await createRemoteWorkspace({ url: baseUrl, headers: { cookie: await signIn() } });
    const seen: ThreadEvent[] = [];
    const stop = stranger.subscribe('csv', (e) => seen.push(e));
    await new Promise((resolve) => setTimeout(resolve, 300));
    stop();
    stranger.close();
    expect(seen).toEqual([]);
  });
});
