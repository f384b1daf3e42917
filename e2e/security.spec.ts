import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, request, test, type APIRequestContext, type Browser, type BrowserContext, type Page } from '@playwright/test';

/**
 * The reference demo's front door as a security reviewer checks it, in real
 * Chromium: each browser is its own signed-in user whose threads, approvals
 * and skills no other user can reach; nothing answers without credentials;
 * form and text/plain posts, pages on other origins and hostile JSON run
 * nothing. Every test signs in fresh users (new browser contexts) and touches
 * no shared records (no imports, enrichments or approved exports), so it can
 * run beside reference.spec.ts on the same server.
 */
const PORT = Number(process.env.E2E_REFERENCE_PORT ?? 4174);
/** The demo's own origin. */
const ORIGIN = `http://127.0.0.1:${PORT}`;
/**
 * The hostile site: a page of its own on another origin and site of this machine (`localhost`, where the
 * demo is `127.0.0.1`), served by a small server the tests start (the demo serves nothing but its app).
 */
let OTHER_ORIGIN = '';
let OTHER_PAGE = '';
let otherSite: Server | null = null;
test.beforeAll(async () => {
  const html = readFileSync('e2e/fixtures/other-origin.html');
  otherSite = createServer((req, res) => {
    if (req.url === '/other-origin.html') res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html);
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => otherSite!.listen(0, '127.0.0.1', resolve));
  OTHER_ORIGIN = `http://localhost:${(otherSite.address() as AddressInfo).port}`;
  OTHER_PAGE = `${OTHER_ORIGIN}/other-origin.html`;
});
test.afterAll(() => new Promise<void>((resolve) => (otherSite ? otherSite.close(() => resolve()) : resolve())));

/** Opens the hostile page in a new tab of the context. */
async function openOtherSite(context: BrowserContext): Promise<Page> {
  const page = await context.newPage();
  await page.goto(OTHER_PAGE);
  return page;
}

/** A distinctive word to find (or not find) in a transcript or an event log. */
const marker = (prefix: string) => `${prefix}-${randomBytes(5).toString('hex')}`;

// ---------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------

interface User {
  context: BrowserContext;
  page: Page;
  /** The `guest-…` name the header shows. */
  name: string;
  /** Thread ids the page sent turns to (read off its requests). */
  turnThreads: string[];
}

/** A new browser (context) loading the demo: it gets its own anonymous user and session cookie. */
async function signIn(browser: Browser): Promise<User> {
  const context = await browser.newContext();
  const page = await context.newPage();
  const turnThreads: string[] = [];
  page.on('request', (req) => {
    const match = /^\/v1\/threads\/([^/]+)\/turns$/.exec(new URL(req.url()).pathname);
    if (match && req.method() === 'POST') turnThreads.push(decodeURIComponent(match[1]!));
  });
  await page.goto(`${ORIGIN}/`);
  await expect(page.getByRole('region', { name: 'Chat' })).toBeVisible({ timeout: 20_000 });
  const badge = page.locator('[data-part="signed-in-user"]');
  await expect(badge).toHaveText(/^Signed in as guest-[0-9a-f]{16}$/);
  const name = (await badge.locator('strong').textContent())!;
  return { context, page, name, turnThreads };
}

const log = (page: Page) => page.getByRole('log', { name: 'Conversation' });
const userMessages = (page: Page) => log(page).locator('[data-part="message"][data-role="user"]');
const lastReply = (page: Page) => log(page).locator('[data-part="message"][data-role="assistant"]').last();

/** Types a message into the chat and sends it. */
async function say(page: Page, text: string) {
  const input = page.getByRole('textbox', { name: 'Message' });
  await input.fill(text);
  await input.press('Enter');
}

/** A's thread with a pending `crm.export` approval, started by chatting; returns its id (from the page's own request). */
async function chatIntoApproval(user: User, text: string): Promise<string> {
  await say(user.page, text);
  const approval = log(user.page).locator('[data-part="approval"]').last();
  await expect(approval).toHaveAttribute('data-state', 'pending');
  await expect(approval).toContainText('Export to CRM');
  expect(user.turnThreads.length).toBeGreaterThan(0);
  return user.turnThreads.at(-1)!;
}

interface Answer {
  status: number;
  text: string;
  /** The parsed JSON body, or null. */
  json: { error?: { code?: string; message?: string } } & Record<string, unknown>;
  headers: Record<string, string>;
}

/**
 * A `fetch` from the page (same origin unless the page is elsewhere, with its
 * cookies), answered as status and body. `body` objects are sent as JSON text;
 * `form` sends URL-encoded fields, `multipart` a FormData.
 */
async function pageFetch(
  page: Page,
  path: string,
  init: { method?: string; headers?: Record<string, string>; body?: unknown; form?: Record<string, string>; multipart?: Record<string, string> } = {},
): Promise<Answer> {
  return page.evaluate(
    async ({ path, init }) => {
      let body: BodyInit | undefined;
      if (init.form) body = new URLSearchParams(init.form);
      else if (init.multipart) {
        const data = new FormData();
        for (const [k, v] of Object.entries(init.multipart)) data.append(k, v);
        body = data;
      } else if (init.body !== undefined) body = typeof init.body === 'string' ? init.body : JSON.stringify(init.body);
      const res = await fetch(path, { method: init.method ?? (body === undefined ? 'GET' : 'POST'), headers: init.headers ?? {}, ...(body !== undefined ? { body } : {}) });
      const text = await res.text();
      let json: unknown = null;
      try {
        json = JSON.parse(text);
      } catch {
        // Not JSON.
      }
      return { status: res.status, text, json: json as never, headers: Object.fromEntries(res.headers.entries()) };
    },
    { path, init },
  );
}

/** `pageFetch` with a JSON body and `content-type: application/json`. */
const postJson = (page: Page, path: string, body: unknown) => pageFetch(page, path, { method: 'POST', headers: { 'content-type': 'application/json' }, body });

interface ThreadEvent {
  type: string;
  seq: number;
  text?: string;
  role?: string;
  approval_id?: string;
  turn_id?: string;
  capability?: string;
  [key: string]: unknown;
}

/**
 * A thread's event log as the page can read it: `GET /v1/threads/:id/events`
 * from the page (its cookie, its origin). A 200 is a stream that never ends,
 * so it is read until it has been quiet for `quietMs` (the server writes the
 * stored backlog at once on connect; the keep-alive comes every 15 s), then
 * closed. Anything else comes back as status and body.
 */
async function readEvents(page: Page, threadId: string, quietMs = 500): Promise<{ status: number; text: string; events: ThreadEvent[] }> {
  return page.evaluate(
    async ({ threadId, quietMs }) => {
      const abort = new AbortController();
      const res = await fetch(`/v1/threads/${encodeURIComponent(threadId)}/events`, { signal: abort.signal });
      if (res.status !== 200 || !res.body) return { status: res.status, text: await res.text(), events: [] };
      const reader = res.body.getReader();
      const decoder = new TextDecoder();
      let text = '';
      let timer = setTimeout(() => abort.abort(), quietMs);
      try {
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          text += decoder.decode(value, { stream: true });
          clearTimeout(timer);
          timer = setTimeout(() => abort.abort(), quietMs);
        }
      } catch {
        // Aborted after the quiet period: the backlog is in.
      }
      clearTimeout(timer);
      const events = text
        .split('\n')
        .filter((line) => line.startsWith('data: '))
        .map((line) => JSON.parse(line.slice(6)));
      return { status: 200, text, events };
    },
    { threadId, quietMs },
  );
}

/** The seqs and types of a log, for comparing before and after. */
const shape = (events: readonly ThreadEvent[]) => events.map((e) => `${e.seq}:${e.type}`);

/** A body of `depth` nested arrays inside an invocation's args. */
const nestedInvocation = (threadId: string, depth: number) =>
  `{"threadId":"${threadId}","capability":"records.list","args":{"limit":1,"a":${'['.repeat(depth)}${']'.repeat(depth)}}}`;

const MCP_INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'e2e-security', version: '1.0.0' } },
};
const MCP_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

/** Every route of the workspace protocol, each with a valid body. */
const WORKSPACE_ROUTES: { method: 'GET' | 'POST'; path: string; body?: unknown }[] = [
  { method: 'GET', path: '/v1/manifest' },
  { method: 'POST', path: '/v1/threads/main/turns', body: { text: 'hello' } },
  { method: 'GET', path: '/v1/threads/main/events' },
  { method: 'POST', path: '/v1/threads/main/view', body: { view: { kind: 'record_list', title: 'Records' } } },
  { method: 'POST', path: '/v1/threads/main/decisions', body: { id: 'approval_x', decision: 'approve' } },
  { method: 'POST', path: '/v1/threads/main/composer', body: { composer: { modelName: 'Model/offline' } } },
  { method: 'POST', path: '/v1/threads/main/providers', body: { provider: 'ClaudeCode', action: 'connect' } },
  { method: 'POST', path: '/v1/invocations', body: { threadId: 'main', capability: 'records.list', args: {} } },
  { method: 'POST', path: '/v1/invocations/inv_x/cancel', body: { threadId: 'main' } },
  { method: 'GET', path: '/v1/nodes?q=nodeType%3ASkill&threadId=main' },
  { method: 'POST', path: '/v1/skills', body: { threadId: 'main', id: 'no-creds', description: 'x', instructions: 'x' } },
];

/**
 * Once per worker: the demo is Vite's dev server, so the first page load
 * compiles the app on demand and may re-optimise dependencies, which reloads
 * the page. Load it once here, with room for that (and one reload if the
 * first load never renders), so each test's own sign-in is timed fairly.
 */
test.beforeAll(async ({ browser }) => {
  test.setTimeout(120_000);
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    const chat = page.getByRole('region', { name: 'Chat' });
    await page.goto(`${ORIGIN}/`);
    try {
      await expect(chat).toBeVisible({ timeout: 45_000 });
    } catch {
      await page.reload();
      await expect(chat).toBeVisible({ timeout: 45_000 });
    }
  } finally {
    await context.close();
  }
});

// ---------------------------------------------------------------------------
// 1. Two users
// ---------------------------------------------------------------------------

test.describe('two users in two browsers', () => {
  let a: User;
  let b: User;
  test.beforeEach(async ({ browser }) => {
    [a, b] = await Promise.all([signIn(browser), signIn(browser)]);
  });
  test.afterEach(async () => {
    await Promise.all([a?.context.close(), b?.context.close()]);
  });

  test('each browser is its own signed-in user, with an HttpOnly SameSite=Lax session cookie scripts cannot read', async () => {
    expect(a.name).not.toBe(b.name);
    await expect(b.page.locator('[data-part="signed-in-user"]')).not.toContainText(a.name);

    const cookieOf = async (user: User) => {
      const cookies = (await user.context.cookies(ORIGIN)).filter((c) => c.name === 'cs_session');
      expect(cookies).toHaveLength(1);
      return cookies[0]!;
    };
    const [ca, cb] = await Promise.all([cookieOf(a), cookieOf(b)]);
    for (const cookie of [ca, cb]) {
      expect(cookie.httpOnly).toBe(true);
      expect(cookie.sameSite).toBe('Lax');
      expect(cookie.path).toBe('/');
      expect(cookie.value).toMatch(/^[A-Za-z0-9_-]{43}$/);
    }
    expect(ca.value).not.toBe(cb.value);
    // HttpOnly, as the page's own scripts see it.
    expect(await a.page.evaluate(() => document.cookie)).not.toContain('cs_session');

    // The server agrees on who each is, and a reload keeps the user (no new session).
    expect((await pageFetch(a.page, '/app/me')).json).toEqual({ user: a.name });
    expect((await pageFetch(b.page, '/app/me')).json).toEqual({ user: b.name });
    await a.page.reload();
    await expect(a.page.locator('[data-part="signed-in-user"]')).toHaveText(`Signed in as ${a.name}`);
    expect((await cookieOf(a)).value).toBe(ca.value);
  });

  test("B reads none of A's threads: A's thread id is 404 for B, and B's own transcript and log show nothing of A's", async () => {
    const secret = marker('alpha');
    // The secret in A's own words first (the offline model acts only on what it understood, so not in the request itself).
    await say(a.page, `my reference is ${secret}`);
    const threadId = await chatIntoApproval(a, 'export to CRM');
    expect(threadId).toBe('main'); // the page's thread (App.tsx: defaultThreadId 'main')
    // A second thread of A's under an id only A uses (thread ids are the client's choice).
    const privateThread = marker('a-private');
    expect((await postJson(a.page, `/v1/threads/${privateThread}/turns`, { text: `my reference is ${secret}` })).status).toBe(200);
    expect((await postJson(a.page, `/v1/threads/${privateThread}/turns`, { text: 'export to CRM' })).status).toBe(200);

    const aMain = await readEvents(a.page, threadId);
    const aPrivate = await readEvents(a.page, privateThread);
    expect(aMain.status).toBe(200);
    expect(aPrivate.status).toBe(200);
    const approvals = [...aMain.events, ...aPrivate.events].filter((e) => e.type === 'approval.requested').map((e) => e.approval_id!);
    expect(approvals).toHaveLength(2);
    expect(aPrivate.text).toContain(secret);

    // A's private thread does not exist for B: 404, nothing of A's in the answer.
    const bPrivate = await readEvents(b.page, privateThread);
    expect(bPrivate.status).toBe(404);
    expect(JSON.parse(bPrivate.text)).toEqual({ error: { code: 'unknown_thread', message: expect.any(String) } });
    expect(bPrivate.text).not.toContain(secret);

    // The same id 'main' is B's own thread: none of A's messages or approvals in it.
    await say(b.page, 'What can you do here?');
    await expect(lastReply(b.page)).toHaveAttribute('data-state', 'done');
    const bMain = await readEvents(b.page, 'main');
    expect(bMain.status).toBe(200);
    expect(bMain.events.length).toBeGreaterThan(0);
    expect(bMain.text).not.toContain(secret);
    for (const id of approvals) expect(bMain.text).not.toContain(id);
    expect(bMain.events.filter((e) => e.type === 'approval.requested')).toHaveLength(0);

    // What each sees on screen: only their own words.
    await expect(userMessages(b.page)).toHaveCount(1);
    await expect(userMessages(b.page)).toHaveText(/What can you do here\?/);
    await expect(log(b.page)).not.toContainText(secret);
    await expect(log(b.page).locator('[data-part="approval"]')).toHaveCount(0);
    await expect(userMessages(a.page)).toHaveCount(2);
    await expect(userMessages(a.page).first()).toContainText(secret);
    await expect(log(a.page)).not.toContainText('What can you do here?');
  });

  test("B can neither decide nor cancel A's approval; A's approval stays pending and A can still decide it", async () => {
    const secret = marker('alpha');
    // The secret in A's own words first (the offline model acts only on what it understood, so not in the request itself).
    await say(a.page, `my reference is ${secret}`);
    const threadId = await chatIntoApproval(a, 'export to CRM');
    const privateThread = marker('a-private');
    expect((await postJson(a.page, `/v1/threads/${privateThread}/turns`, { text: `my reference is ${secret}` })).status).toBe(200);
    expect((await postJson(a.page, `/v1/threads/${privateThread}/turns`, { text: 'export to CRM' })).status).toBe(200);
    const mainBefore = await readEvents(a.page, threadId);
    const privateBefore = await readEvents(a.page, privateThread);
    const mainApproval = mainBefore.events.find((e) => e.type === 'approval.requested')!;
    const privateApproval = privateBefore.events.find((e) => e.type === 'approval.requested')!;
    expect(mainApproval.approval_id).toMatch(/^approval_/);
    expect(privateApproval.approval_id).toMatch(/^approval_/);

    // Decisions: 404 nothing_waiting, under A's private id and under 'main' (B's own thread).
    for (const decision of ['approve', 'deny'] as const) {
      const onPrivate = await postJson(b.page, `/v1/threads/${privateThread}/decisions`, { id: privateApproval.approval_id, decision });
      expect(onPrivate.status).toBe(404);
      expect(onPrivate.json.error?.code).toBe('nothing_waiting');
      const onMain = await postJson(b.page, `/v1/threads/${threadId}/decisions`, { id: mainApproval.approval_id, decision });
      expect(onMain.status).toBe(404);
      expect(onMain.json.error?.code).toBe('nothing_waiting');
    }
    // Cancel: A's thread is unknown to B; in B's own 'main' nothing of that id runs.
    for (const id of [privateApproval.approval_id!, privateApproval.turn_id!]) {
      const cancel = await postJson(b.page, `/v1/invocations/${id}/cancel`, { threadId: privateThread });
      expect(cancel.status).toBe(404);
      expect(cancel.json.error?.code).toBe('unknown_thread');
    }
    const cancelMain = await postJson(b.page, `/v1/invocations/${mainApproval.turn_id}/cancel`, { threadId });
    expect(cancelMain.status).toBe(404);
    expect(cancelMain.json.error?.code).toBe('unknown_invocation');

    // A's side: nothing moved. Both logs are as they were, the approval still waits on screen, no export card.
    expect(shape((await readEvents(a.page, threadId)).events)).toEqual(shape(mainBefore.events));
    expect(shape((await readEvents(a.page, privateThread)).events)).toEqual(shape(privateBefore.events));
    const approval = log(a.page).locator('[data-part="approval"]');
    await expect(approval).toHaveCount(1);
    await expect(approval).toHaveAttribute('data-state', 'pending');
    await expect(approval.getByRole('button', { name: 'Approve Export to CRM' })).toBeEnabled();
    await expect(log(a.page).locator('[data-part="invocation-card"][data-capability="crm.export"]')).toHaveCount(0);

    // The same route works for its owner (deny: nothing is exported): the 404s above were about who asked.
    const own = await postJson(a.page, `/v1/threads/${privateThread}/decisions`, { id: privateApproval.approval_id, decision: 'deny' });
    expect(own.status).toBe(200);
    const after = await readEvents(a.page, privateThread);
    expect(after.events).toContainEqual(expect.objectContaining({ type: 'approval.resolved', approval_id: privateApproval.approval_id, decision: 'denied' }));
  });

  test("B saving a skill under A's slash word changes nothing of A's, and B cannot see A's private skill", async () => {
    const word = marker('sec-skill');
    const secret = marker('alpha');
    const saved = await postJson(a.page, '/v1/skills', { threadId: 'main', id: word, description: `A's report ${secret}`, instructions: `ALPHA instructions ${secret}` });
    expect(saved.status).toBe(201);
    expect(saved.json.node).toMatchObject({ path: `${a.name}/Skill/${word}`, owner: a.name, name: `/${word}` });

    const other = await postJson(b.page, '/v1/skills', { threadId: 'main', id: word, description: "B's report", instructions: 'BRAVO instructions' });
    expect(other.status).toBe(201);
    expect(other.json.node).toMatchObject({ path: `${b.name}/Skill/${word}`, owner: b.name });
    // Nor may B write it for the whole space (guests hold no skills:space scope).
    const space = await postJson(b.page, '/v1/skills', { threadId: 'main', id: word, description: "B's report", instructions: 'BRAVO instructions', scope: 'space' });
    expect(space.status).toBe(403);
    expect(space.json.error?.code).toBe('forbidden');

    type Node = { path: string; owner?: string; description: string; skill?: { instructions?: string } };
    const nodes = async (user: User, q: string) => {
      const answer = await pageFetch(user.page, `/v1/nodes?q=${encodeURIComponent(q)}&threadId=main`);
      expect(answer.status).toBe(200);
      return { list: (answer.json as unknown as { nodes: Node[] }).nodes, text: answer.text };
    };

    // A still has exactly its own skill, with its own words.
    const mine = (await nodes(a, word)).list.filter((n) => n.path.endsWith(`/Skill/${word}`));
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ path: `${a.name}/Skill/${word}`, owner: a.name, description: `A's report ${secret}`, skill: { instructions: `ALPHA instructions ${secret}` } });

    // B sees only its own, by word, by discovery, and even when naming A's namespace.
    const byWord = await nodes(b, word);
    expect(byWord.list.filter((n) => n.path.endsWith(`/Skill/${word}`)).map((n) => n.path)).toEqual([`${b.name}/Skill/${word}`]);
    expect(byWord.text).not.toContain(secret);
    const discovery = await nodes(b, 'namespace:{user}/Skill|{space}/Skill|Skill nodeType:Skill sort:order');
    expect(discovery.text).not.toContain(secret);
    expect(discovery.text).not.toContain(`${a.name}/Skill`);
    const aimed = await nodes(b, `namespace:${a.name}/Skill`);
    expect(aimed.list).toEqual([]);
  });
});

// ---------------------------------------------------------------------------
// 2. No credentials
// ---------------------------------------------------------------------------

test.describe('without credentials', () => {
  let anonymous: APIRequestContext;
  test.beforeEach(async () => {
    anonymous = await request.newContext({ baseURL: ORIGIN });
  });
  test.afterEach(async () => anonymous.dispose());

  for (const route of WORKSPACE_ROUTES) {
    test(`${route.method} ${route.path.split('?')[0]} answers 401 with no cookie, a made-up cookie or a made-up key`, async () => {
      const attempts: Record<string, string>[] = [
        {},
        { cookie: `cs_session=${randomBytes(32).toString('base64url')}` },
        { authorization: `Bearer ${randomBytes(16).toString('hex')}` },
      ];
      for (const headers of attempts) {
        const res = await anonymous.fetch(route.path, {
          method: route.method,
          headers: { ...headers, ...(route.body !== undefined ? { 'content-type': 'application/json' } : {}) },
          ...(route.body !== undefined ? { data: JSON.stringify(route.body) } : {}),
        });
        expect(res.status(), `${route.method} ${route.path} with ${Object.keys(headers).join(', ') || 'nothing'}`).toBe(401);
        expect(res.headers()['www-authenticate']).toBe('Bearer');
        expect((await res.json()).error.code).toBe('unauthorized');
      }
    });
  }

  test("the app's own /app/me answers 401 too, and no request without a page load gets a session", async () => {
    const me = await anonymous.get('/app/me');
    expect(me.status()).toBe(401);
    const turns = await anonymous.post('/v1/threads/main/turns', { headers: { 'content-type': 'application/json' }, data: JSON.stringify({ text: 'hello' }) });
    expect(turns.status()).toBe(401);
    expect(turns.headers()['set-cookie']).toBeUndefined();
    expect((await anonymous.storageState()).cookies).toEqual([]);
  });
});

test.describe('what the demo serves', () => {
  test('the page and its modules, and nothing else of the checkout: state, data, server source, packages and fixtures answer 404', async ({ page }) => {
    const anonymous = await request.newContext({ baseURL: ORIGIN });
    try {
      const state = process.env.E2E_REFERENCE_STATE!;
      for (const path of [
        '/package.json',
        '/README.md',
        '/.git/config',
        '/reference/workspace/server.ts',
        '/reference/data/customers.csv',
        '/reference/exports/',
        '/reference/scripts/import-csv.mjs',
        '/src/server/authenticators.ts',
        '/src/runtime/node/postgres.ts',
        '/src/components/chat-surface/ChatSurface.test.tsx',
        '/node_modules/zod/package.json',
        '/e2e/fixtures/other-origin.html',
        '/.demo-state/workspace.db-wal',
        `/@fs${state}/workspace.db`,
        `/@fs${process.cwd()}/package.json`,
      ]) {
        const res = await anonymous.get(path);
        expect(res.status(), path).toBe(404);
        expect(await res.text(), path).not.toContain('guest-');
      }
      // A write to anything but the kit's routes is refused the same way.
      expect((await anonymous.post('/src/index.ts', { data: '{}' })).status()).toBe(404);
    } finally {
      await anonymous.dispose();
    }
    // The page itself still loads, with every module it asks for.
    const failed: string[] = [];
    page.on('response', (res) => {
      const path = new URL(res.url()).pathname;
      if (res.status() === 404 && !path.startsWith('/v1/')) failed.push(path);
    });
    await page.goto(`${ORIGIN}/`);
    await expect(page.getByRole('region', { name: 'Chat' })).toBeVisible({ timeout: 20_000 });
    expect(failed).toEqual([]);
  });

  test('Sign out in the header ends the session: the page comes back as a new guest without the old threads, and the old cookie opens nothing', async ({ browser }) => {
    const a = await signIn(browser);
    try {
      const words = marker('before-sign-out');
      await say(a.page, words);
      await expect(userMessages(a.page).filter({ hasText: words })).toHaveCount(1);
      const old = (await a.context.cookies()).find((c) => c.name === 'cs_session')!.value;
      await a.page.getByRole('button', { name: 'Sign out' }).click();
      const badge = a.page.locator('[data-part="signed-in-user"]');
      await expect(badge).toHaveText(/^Signed in as guest-[0-9a-f]{16}$/);
      await expect(badge).not.toContainText(a.name);
      await expect(log(a.page).getByText(words)).toHaveCount(0);
      const anonymous = await request.newContext({ baseURL: ORIGIN });
      try {
        expect((await anonymous.get('/app/me', { headers: { cookie: `cs_session=${old}` } })).status()).toBe(401);
      } finally {
        await anonymous.dispose();
      }
    } finally {
      await a.context.close();
    }
  });
});

// ---------------------------------------------------------------------------
// 3. Form and text/plain posts
// ---------------------------------------------------------------------------

test.describe('form and text/plain posts (the shapes CSRF arrives in)', () => {
  let a: User;
  test.beforeEach(async ({ browser }) => {
    a = await signIn(browser);
  });
  test.afterEach(async () => a?.context.close());

  test('are refused with 415 on every state-changing route, even signed in on the same origin, and run nothing', async () => {
    const secret = marker('plain');
    const text = JSON.stringify({ text: `hello ${secret}` });
    const attempts: { path: string; init: Parameters<typeof pageFetch>[2] }[] = [
      { path: '/v1/threads/x/turns', init: { method: 'POST', headers: { 'content-type': 'text/plain' }, body: text } },
      { path: '/v1/threads/x/turns', init: { method: 'POST', headers: { 'content-type': 'text/plain;charset=UTF-8' }, body: text } },
      { path: '/v1/threads/x/turns', init: { method: 'POST', form: { text: `hello ${secret}` } } },
      { path: '/v1/threads/x/turns', init: { method: 'POST', multipart: { text: `hello ${secret}` } } },
      { path: '/v1/threads/x/turns', init: { method: 'POST', body: text } }, // fetch labels a string body text/plain
      { path: '/v1/invocations', init: { method: 'POST', headers: { 'content-type': 'text/plain' }, body: JSON.stringify({ threadId: 'x', capability: 'records.list', args: {} }) } },
      { path: '/v1/invocations', init: { method: 'POST', form: { threadId: 'x', capability: 'records.list' } } },
      { path: '/v1/threads/x/view', init: { method: 'POST', headers: { 'content-type': 'text/plain' }, body: JSON.stringify({ view: { kind: 'record_list' } }) } },
      { path: '/v1/skills', init: { method: 'POST', form: { threadId: 'x', id: 'plain-skill', description: 'x', instructions: 'x' } } },
      { path: '/mcp', init: { method: 'POST', headers: { 'content-type': 'text/plain' }, body: JSON.stringify(MCP_INITIALIZE) } },
    ];
    for (const { path, init } of attempts) {
      const answer = await pageFetch(a.page, path, init);
      expect(answer.status, `${path} ${JSON.stringify(init?.headers ?? (init?.form ? 'form' : init?.multipart ? 'multipart' : 'default'))}`).toBe(415);
      expect(answer.json.error?.code).toBe('unsupported_media_type');
    }

    // Nothing ran: thread x was never written, no skill was saved, and the page's own thread has no such message.
    const x = await readEvents(a.page, 'x');
    expect(x.status).toBe(404);
    expect(JSON.parse(x.text).error.code).toBe('unknown_thread');
    const skills = await pageFetch(a.page, `/v1/nodes?q=plain-skill&threadId=main`);
    expect(skills.text).not.toContain(`${a.name}/Skill/plain-skill`);
    expect((await readEvents(a.page, 'main')).text).not.toContain(secret);
    await expect(userMessages(a.page)).toHaveCount(0);

    // The same turn as application/json is served: the refusals were about the content type.
    const json = await postJson(a.page, '/v1/threads/x-json/turns', { text: `hello ${secret}` });
    expect(json.status).toBe(200);
    expect((await readEvents(a.page, 'x-json')).text).toContain(secret);
  });
});

// ---------------------------------------------------------------------------
// 4. A page on another origin
// ---------------------------------------------------------------------------

test.describe('a page on another origin, in the signed-in browser', () => {
  let a: User;
  test.beforeEach(async ({ browser }) => {
    a = await signIn(browser);
  });
  test.afterEach(async () => a?.context.close());

  test("can neither read nor drive A's thread, and the server answers it 403", async () => {
    // A's real thread, with a conversation and a pending approval a forger would love to approve.
    const threadId = await chatIntoApproval(a, 'export to CRM');
    const before = await readEvents(a.page, threadId);
    expect(before.status).toBe(200);
    const approvalId = before.events.find((e) => e.type === 'approval.requested')!.approval_id!;
    const cardsBefore = await log(a.page).locator('[data-part="invocation-card"]').count();

    const answered: { method: string; url: string; status: number }[] = [];
    const evil = await openOtherSite(a.context);
    evil.on('response', (res) => {
      if (res.url().startsWith(`${ORIGIN}/`)) answered.push({ method: res.request().method(), url: res.url(), status: res.status() });
    });
    await expect(evil.getByRole('heading', { name: 'Another site' })).toBeVisible();
    expect(new URL(evil.url()).origin).not.toBe(ORIGIN);
    const forged = marker('forged');
    const target = { origin: ORIGIN, threadId, approvalId, forged };

    // 1. Reading the thread's events with A's credentials: the browser gets nothing.
    const read = await evil.evaluate(async ({ origin, threadId }) => {
      try {
        const res = await fetch(`${origin}/v1/threads/${threadId}/events`, { credentials: 'include' });
        return { read: true, status: res.status, text: (await res.text()).slice(0, 200) };
      } catch (error) {
        return { read: false, error: String(error) };
      }
    }, target);
    expect(read).toEqual({ read: false, error: expect.stringContaining('Failed to fetch') });

    // 2. A no-cors text/plain POST of a turn (no preflight; the response is opaque), and a JSON one (preflighted).
    const blind = await evil.evaluate(async ({ origin, threadId, forged }) => {
      const res = await fetch(`${origin}/v1/threads/${threadId}/turns`, {
        method: 'POST',
        mode: 'no-cors',
        credentials: 'include',
        headers: { 'content-type': 'text/plain' },
        body: JSON.stringify({ text: `export to CRM ${forged}` }),
      });
      return { type: res.type, status: res.status };
    }, target);
    expect(blind).toEqual({ type: 'opaque', status: 0 });
    const preflighted = await evil.evaluate(async ({ origin, threadId, approvalId }) => {
      try {
        await fetch(`${origin}/v1/threads/${threadId}/decisions`, {
          method: 'POST',
          credentials: 'include',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ id: approvalId, decision: 'approve' }),
        });
        return 'sent';
      } catch (error) {
        return String(error);
      }
    }, target);
    expect(preflighted).toContain('Failed to fetch');

    // 3. Auto-submitted HTML forms (text/plain shaped as JSON, and URL-encoded) into a frame.
    for (const enctype of ['text/plain', 'application/x-www-form-urlencoded']) {
      const formAnswer = evil.waitForResponse((res) => res.url() === `${ORIGIN}/v1/invocations` && res.request().method() === 'POST');
      await evil.evaluate(
        ({ origin, threadId, forged, enctype }) => {
          const form = document.createElement('form');
          form.method = 'POST';
          form.action = `${origin}/v1/invocations`;
          form.enctype = enctype;
          form.target = 'sink';
          const field = document.createElement('input');
          field.type = 'hidden';
          // text/plain sends `name=value`: this makes the body {"threadId":…,"capability":"crm.export","args":{},"pad":"="}.
          field.name = `{"threadId":"${threadId}","capability":"crm.export","args":{},"pad":"${forged}`;
          field.value = '"}';
          form.append(field);
          document.body.append(form);
          form.submit();
        },
        { ...target, enctype },
      );
      const res = await formAnswer;
      expect(res.status()).toBe(403);
      expect(res.request().headers()['origin']).toBe(OTHER_ORIGIN);
      await expect(evil.frameLocator('iframe[name="sink"]').locator('body')).toContainText('cross_origin');
    }

    // What the server answered the requests it got from the other page: 403, every one.
    expect(answered.filter((r) => r.url.endsWith(`/v1/threads/${threadId}/turns`))).toEqual([{ method: 'POST', url: `${ORIGIN}/v1/threads/${threadId}/turns`, status: 403 }]);
    expect(answered.filter((r) => r.url.endsWith('/v1/invocations')).map((r) => r.status)).toEqual([403, 403]);
    expect(answered.filter((r) => r.status !== 403)).toEqual([]);

    // The same requests with A's cookie attached and the other origin named: 403 cross_origin before anything reads the session.
    const api = a.context.request;
    const foreign = { origin: OTHER_ORIGIN };
    const refusals = [
      await api.get(`${ORIGIN}/v1/threads/${threadId}/events`, { headers: foreign }),
      await api.get(`${ORIGIN}/v1/manifest`, { headers: foreign }),
      await api.post(`${ORIGIN}/v1/threads/${threadId}/turns`, { headers: { ...foreign, 'content-type': 'application/json' }, data: JSON.stringify({ text: `export to CRM ${forged}` }) }),
      await api.post(`${ORIGIN}/v1/threads/${threadId}/decisions`, { headers: { ...foreign, 'content-type': 'application/json' }, data: JSON.stringify({ id: approvalId, decision: 'approve' }) }),
      await api.post(`${ORIGIN}/v1/invocations`, { headers: { ...foreign, 'content-type': 'application/json' }, data: JSON.stringify({ threadId, capability: 'crm.export', args: {} }) }),
      await api.fetch(`${ORIGIN}/v1/threads/${threadId}/decisions`, { method: 'OPTIONS', headers: { ...foreign, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' } }),
      // No Origin at all, but a cross-site fetch (an <img>, a <script>, a link): refused too.
      await api.get(`${ORIGIN}/v1/threads/${threadId}/events`, { headers: { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'no-cors', 'sec-fetch-dest': 'image' } }),
    ];
    for (const res of refusals) {
      expect(res.status(), `${res.url()}`).toBe(403);
      expect((await res.json()).error.code).toBe('cross_origin');
      expect(res.headers()['access-control-allow-origin']).toBeUndefined();
    }
    // The cookie itself is good: from no other origin, the same client is served.
    expect((await api.get(`${ORIGIN}/v1/manifest`)).status()).toBe(200);

    // A's thread is exactly as it was: same events, no forged message, no new card, the approval still pending.
    const after = await readEvents(a.page, threadId);
    expect(shape(after.events)).toEqual(shape(before.events));
    expect(after.text).not.toContain(forged);
    await expect(userMessages(a.page)).toHaveCount(1);
    await expect(log(a.page)).not.toContainText(forged);
    await expect(log(a.page).locator('[data-part="invocation-card"]')).toHaveCount(cardsBefore);
    await expect(log(a.page).locator('[data-part="approval"]').last()).toHaveAttribute('data-state', 'pending');
  });
});

// ---------------------------------------------------------------------------
// 5. /mcp and Origin
// ---------------------------------------------------------------------------

test.describe('/mcp and Origin', () => {
  let anonymous: APIRequestContext;
  test.beforeEach(async () => {
    anonymous = await request.newContext({ baseURL: ORIGIN });
  });
  test.afterEach(async () => anonymous.dispose());

  /** The demo's key when the run set one (playwright.config.ts does not), else one the server never issued. */
  const key = process.env.DEMO_API_KEY ?? `not-a-key-${randomBytes(8).toString('hex')}`;

  test('a foreign Origin gets 403 cross_origin, before any key is looked at; the own Origin is answered by auth, not 403', async () => {
    for (const origin of [OTHER_ORIGIN, 'http://evil.test', 'null']) {
      for (const auth of [{}, { authorization: `Bearer ${key}` }] as Record<string, string>[]) {
        const post = await anonymous.post('/mcp', { headers: { ...MCP_HEADERS, ...auth, origin }, data: JSON.stringify(MCP_INITIALIZE) });
        expect(post.status(), `POST /mcp from ${origin} ${Object.keys(auth).join('') || 'without a key'}`).toBe(403);
        expect(await post.json()).toEqual({ error: { code: 'cross_origin', message: expect.any(String) } });
        expect(post.headers()['access-control-allow-origin']).toBeUndefined();
      }
      const get = await anonymous.get('/mcp', { headers: { origin, accept: 'text/event-stream' } });
      expect(get.status()).toBe(403);
      expect((await get.json()).error.code).toBe('cross_origin');
    }

    // The same request from the server's own origin is not refused for its origin.
    const own = await anonymous.post('/mcp', { headers: { ...MCP_HEADERS, origin: ORIGIN }, data: JSON.stringify(MCP_INITIALIZE) });
    expect(own.status()).toBe(401);
    expect((await own.json()).error.code).toBe('unauthorized');
    expect(own.headers()['www-authenticate']).toBe('Bearer');
    if (process.env.DEMO_API_KEY) {
      const keyed = await anonymous.post('/mcp', { headers: { ...MCP_HEADERS, origin: ORIGIN, authorization: `Bearer ${key}` }, data: JSON.stringify(MCP_INITIALIZE) });
      expect(keyed.status()).toBe(200);
      expect(await keyed.text()).toContain('"serverInfo"');
    } else {
      const wrong = await anonymous.post('/mcp', { headers: { ...MCP_HEADERS, origin: ORIGIN, authorization: `Bearer ${key}` }, data: JSON.stringify(MCP_INITIALIZE) });
      expect(wrong.status()).toBe(401);
      expect((await wrong.json()).error.message).toMatch(/not valid/);
    }
  });

  test('a signed-in browser session is served on its own Origin and refused on a foreign one', async ({ browser }) => {
    const a = await signIn(browser);
    try {
      const api = a.context.request;
      const own = await api.post(`${ORIGIN}/mcp`, { headers: { ...MCP_HEADERS, origin: ORIGIN }, data: JSON.stringify(MCP_INITIALIZE) });
      expect(own.status()).toBe(200);
      expect(await own.text()).toMatch(/"serverInfo":\{"name":"chatsurface"/);
      const foreign = await api.post(`${ORIGIN}/mcp`, { headers: { ...MCP_HEADERS, origin: OTHER_ORIGIN }, data: JSON.stringify(MCP_INITIALIZE) });
      expect(foreign.status()).toBe(403);
      expect((await foreign.json()).error.code).toBe('cross_origin');
    } finally {
      await a.context.close();
    }
  });
});

// ---------------------------------------------------------------------------
// 6. Deeply nested JSON
// ---------------------------------------------------------------------------

test.describe('deeply nested JSON', () => {
  let a: User;
  test.beforeEach(async ({ browser }) => {
    a = await signIn(browser);
  });
  test.afterEach(async () => a?.context.close());

  test('10,000 levels deep is refused with 400 too_deep and leaves no thread, job or card behind', async () => {
    const cardsBefore = await log(a.page).locator('[data-part="invocation-card"]').count();
    const deep = nestedInvocation('deep', 10_000);
    expect(deep.length).toBeLessThan(65_536); // under the body limit: the depth is what is refused
    const refused = await pageFetch(a.page, '/v1/invocations', { method: 'POST', headers: { 'content-type': 'application/json' }, body: deep });
    expect(refused.status).toBe(400);
    expect(refused.json).toEqual({ error: { code: 'too_deep', message: 'The request nests more than 64 levels deep; flatten it.' } });

    // Into the page's own thread, on the turn route, and on /mcp: refused the same way.
    const intoMain = await pageFetch(a.page, '/v1/invocations', { method: 'POST', headers: { 'content-type': 'application/json' }, body: nestedInvocation('main', 10_000) });
    expect(intoMain.status).toBe(400);
    const turn = await pageFetch(a.page, '/v1/threads/deep/turns', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: `{"text":"hello","activeView":{"kind":"record_list","id":${'['.repeat(10_000)}${']'.repeat(10_000)}}}`,
    });
    expect(turn.status).toBe(400);
    expect(turn.json.error?.code).toBe('too_deep');
    const mcp = await pageFetch(a.page, '/mcp', { method: 'POST', headers: MCP_HEADERS, body: `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":${'['.repeat(10_000)}${']'.repeat(10_000)}}` });
    expect(mcp.status).toBe(400);
    expect(mcp.json.error?.code).toBe('too_deep');

    // Nothing was left: the thread was never written, the page shows no card, and the server still answers.
    const events = await readEvents(a.page, 'deep');
    expect(events.status).toBe(404);
    expect(JSON.parse(events.text).error.code).toBe('unknown_thread');
    expect((await readEvents(a.page, 'main')).events.filter((e) => e.type.startsWith('capability.'))).toEqual([]);
    await expect(log(a.page).locator('[data-part="invocation-card"]')).toHaveCount(cardsBefore);
    expect((await pageFetch(a.page, '/app/me')).json).toEqual({ user: a.name });

    // A shallow body of the same shape runs (records.list only reads): the refusal was about depth.
    const shallow = await pageFetch(a.page, '/v1/invocations', { method: 'POST', headers: { 'content-type': 'application/json' }, body: nestedInvocation('shallow', 60) });
    expect(shallow.status).toBe(200);
    const ran = (await readEvents(a.page, 'shallow')).events;
    expect(ran).toContainEqual(expect.objectContaining({ type: 'capability.started', capability: 'records.list' }));
    expect(ran).toContainEqual(expect.objectContaining({ type: 'capability.done' }));
  });
});
