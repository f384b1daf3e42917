import { expect, test, type Page } from '@playwright/test';
import type { ViteDevServer } from 'vite';
import { freePort } from '../src/test/freePort';
import { startOfficialAppServer, type StartedAppServer } from '../src/test/officialAppServers';
import { ownDependencyCache } from './fixtures/viteCache';

/**
 * MCP Apps of the user's own MCP servers (issue 44 item 3), in Chromium: the official MCP Apps
 * example servers from npm (2.0.3: basic-vanillajs, system-monitor, budget-allocator) started here on
 * 127.0.0.1, each connected by the user from the chat (/mcp) as a user connects their own server.
 * Their views render in the card; an app's own calls stay inside its card (one approval row per app
 * session for a tool that is not read-only, no card per call); the polling system monitor runs for
 * 60 s without adding anything to the transcript. The workspace server (e2e/fixtures/connectedAppsHost.ts)
 * is served with the page (e2e/pages/connected-apps.html) on one origin.
 */
test.describe.configure({ mode: 'serial', timeout: 90_000 });

let basic: StartedAppServer;
let monitor: StartedAppServer;
let budget: StartedAppServer;
let vite: ViteDevServer;
let base: string;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  [basic, monitor, budget] = await Promise.all([startOfficialAppServer('basic'), startOfficialAppServer('system-monitor'), startOfficialAppServer('budget-allocator')]);
  const { createServer } = await import('vite');
  const { getRequestListener } = await import('@hono/node-server');
  const port = Number(process.env.E2E_CONNECTED_APPS_PORT ?? (await freePort()));
  let workspace: { fetch(request: Request): Promise<Response>; close(): Promise<void> } | null = null;
  vite = await createServer({
    configFile: new URL('../vite.config.ts', import.meta.url).pathname,
    logLevel: 'warn',
    ...ownDependencyCache('connected-apps', ['e2e/pages/connected-apps.html'], ['@modelcontextprotocol/ext-apps/app-bridge']),
    server: { host: '127.0.0.1', port, strictPort: true, cors: false, hmr: false },
    plugins: [
      {
        name: 'connected-apps-host',
        async configureServer(server) {
          const mod = await server.ssrLoadModule('/e2e/fixtures/connectedAppsHost.ts');
          workspace = await mod.createConnectedAppsHost();
          const listener = getRequestListener((request: Request) => workspace!.fetch(request));
          server.middlewares.use((req, res, next) => (req.url?.startsWith('/v1/') ? listener(req, res) : next()));
          server.httpServer?.once('close', () => void workspace?.close());
        },
      },
    ],
  });
  await vite.listen();
  base = `http://127.0.0.1:${port}`;
  // Warm the page's modules once, so the first test does not pay for the transform.
  await fetch(`${base}/e2e/pages/connected-apps.html`);
  await fetch(`${base}/e2e/pages/connected-apps.tsx`);
});

test.afterAll(async () => {
  await vite?.close();
  await Promise.all([basic, monitor, budget].map((s) => s?.stop()));
});

const log = (page: Page) => page.getByRole('log', { name: 'Conversation' });
const say = async (page: Page, text: string) => {
  const input = page.getByRole('textbox', { name: 'Message' });
  await input.fill(text);
  await input.press('Enter');
};
const approvals = (page: Page) => log(page).locator('[data-part="approval"]');
/** The invocation cards named `title` (an approval row of the same tool has the same name). */
const cardsNamed = (page: Page, title: string | RegExp) => log(page).getByRole('article', { name: title }).and(page.locator('[data-part="invocation-card"]'));

/** Opens the page as `user` and connects `url` as `label` from the chat's /mcp panel, as a user does. */
async function connect(page: Page, label: string, url: string, user = 'alice') {
  await page.goto(`${base}/e2e/pages/connected-apps.html?user=${user}`);
  await expect(page.getByRole('region', { name: 'Chat' })).toBeVisible({ timeout: 20_000 });
  await say(page, '/mcp');
  const panel = page.getByRole('dialog', { name: 'Your MCP servers' });
  await expect(panel).toHaveAttribute('data-state', 'ready');
  const form = panel.getByRole('form', { name: 'Connect an MCP server' });
  await form.getByRole('textbox', { name: 'Name' }).fill(label);
  await form.getByRole('textbox', { name: 'Server URL' }).fill(url);
  await form.getByRole('button', { name: 'Connect' }).click();
  await expect(panel.getByRole('listitem', { name: label })).toHaveAttribute('data-state', 'connected', { timeout: 20_000 });
  await panel.getByRole('button', { name: 'Close' }).click();
  await expect(panel).toHaveCount(0);
}

/** Asks for the tool by its name; it is not read-only, so the user approves it; its card finishes and its view is up. */
async function openApp(page: Page, words: string, title: string) {
  await say(page, words);
  const asked = approvals(page).last();
  await expect(asked).toHaveAttribute('data-state', 'pending', { timeout: 20_000 });
  await asked.getByRole('button', { name: `Approve ${title}` }).click();
  const card = cardsNamed(page, title);
  await expect(card).toHaveAttribute('data-state', 'done', { timeout: 20_000 });
  await expect(card.locator('[data-part="mcp-app"]')).toHaveAttribute('data-state', 'ready', { timeout: 30_000 });
  const iframe = card.locator(`iframe[title="${title} app"]`);
  await expect(iframe).toHaveAttribute('sandbox', 'allow-scripts');
  await expect(iframe).toHaveAttribute('src', /\/v1\/app-frame$/);
  return { card, iframe, view: card.frameLocator(`iframe[title="${title} app"]`) };
}

test('a connected server’s app renders and calls back: the first call asks once for the session, every call stays in the card', async ({ page }) => {
  await connect(page, 'clock', basic.url);
  const { iframe, view } = await openApp(page, 'clock get time', 'Get Time (clock)');
  const time = view.locator('#server-time');
  await expect(time).toHaveText(/^\d{4}-\d{2}-\d{2}T/);
  // Click once the frame has grown to the view's size (the button moves otherwise).
  let height = 0;
  await expect.poll(async () => height === (height = (await iframe.boundingBox())?.height ?? 0), { intervals: [250] }).toBe(true);
  await iframe.scrollIntoViewIfNeeded();
  const cards = cardsNamed(page, 'Get Time (clock)');
  await expect(cards).toHaveCount(1);

  // The app's own call of a tool that is not read-only: one approval row for this app session.
  const first = await time.textContent();
  await view.getByRole('button', { name: 'Get Server Time' }).click();
  await expect(approvals(page)).toHaveCount(2, { timeout: 20_000 });
  const asked = approvals(page).last();
  await expect(asked).toHaveAttribute('data-state', 'pending');
  await expect(asked).toContainText('The Get Time (clock) app asks to run Get Time (clock) from inside its card.');
  await asked.getByRole('button', { name: 'Approve Get Time (clock)' }).click();
  await expect(asked).toHaveAttribute('data-state', 'approved');
  await expect(asked).toContainText('Approved for this app until it is closed: its calls run inside its card.');
  // The waiting call ran: the view shows the new time.
  await expect(time).not.toHaveText(first!, { timeout: 20_000 });

  // Again: no second row, no second card; the view updates.
  for (let i = 0; i < 3; i++) {
    const before = await time.textContent();
    await page.waitForTimeout(5);
    await iframe.scrollIntoViewIfNeeded();
    await view.getByRole('button', { name: 'Get Server Time' }).click();
    await expect(time).not.toHaveText(before!, { timeout: 20_000 });
  }
  await expect(approvals(page)).toHaveCount(2);
  await expect(cards).toHaveCount(1);
});

test('another user never reaches it: their /mcp lists nothing and the same words run nothing', async ({ page }) => {
  await page.goto(`${base}/e2e/pages/connected-apps.html?user=bob`);
  await expect(page.getByRole('region', { name: 'Chat' })).toBeVisible({ timeout: 20_000 });
  await say(page, 'clock get time');
  const reply = log(page).locator('[data-part="message"][data-role="assistant"]').last();
  await expect(reply).toHaveAttribute('data-state', 'done', { timeout: 20_000 });
  await expect(cardsNamed(page, 'Get Time (clock)')).toHaveCount(0);
  await expect(approvals(page)).toHaveCount(0);
  await say(page, '/mcp');
  const panel = page.getByRole('dialog', { name: 'Your MCP servers' });
  await expect(panel).toHaveAttribute('data-state', 'ready');
  await expect(panel.getByText('You have not connected any MCP server yet.')).toBeVisible();
});

test('the budget allocator’s view renders from the user’s own connection', async ({ page }) => {
  await connect(page, 'budget', budget.url);
  const { view } = await openApp(page, 'budget get budget data', 'Get Budget Data (budget)');
  await expect(view.getByRole('heading', { name: 'Budget Allocator' })).toBeVisible({ timeout: 20_000 });
  await expect(view.locator('#sliders-container input').first()).toBeAttached({ timeout: 20_000 });
});

test('a polling app (system monitor, every 2 s) adds no cards and no rows over 60 s', async ({ page }) => {
  test.setTimeout(180_000);
  const calls: number[] = [];
  page.on('response', (response) => {
    if (/\/app\/calls$/.test(new URL(response.url()).pathname)) calls.push(response.status());
  });
  // Labelled "sysinfo": "monitor …" reads as a standing request to the offline model.
  await connect(page, 'sysinfo', monitor.url);
  const { view } = await openApp(page, 'sysinfo get system info', 'Get System Info (sysinfo)');
  // It starts polling its app-only tool at once: one approval row for the session.
  await expect(approvals(page)).toHaveCount(2, { timeout: 20_000 });
  const asked = approvals(page).last();
  await expect(asked).toContainText('asks to run Poll System Stats (sysinfo)');
  await asked.getByRole('button', { name: 'Approve Poll System Stats (sysinfo)' }).click();
  await expect(asked).toHaveAttribute('data-state', 'approved');
  const status = view.locator('#status-text');
  await expect(status).toHaveText(/^\d{2}:\d{2}:\d{2}$/, { timeout: 20_000 });

  const rows = log(page).locator('[data-part="transcript-rows"] > [data-index]');
  const shown = await rows.count();
  const callsBefore = calls.length;
  await page.waitForTimeout(60_000);
  const made = calls.slice(callsBefore);
  // About one call every 2 s, each answered, inside the card.
  expect(made.length).toBeGreaterThanOrEqual(25);
  expect(made.every((s) => s === 200)).toBe(true);
  await expect(status).toHaveText(/^\d{2}:\d{2}:\d{2}$/);
  await expect(rows).toHaveCount(shown);
  await expect(cardsNamed(page, /Poll System Stats/)).toHaveCount(0);
  await expect(approvals(page)).toHaveCount(2);
  test.info().annotations.push({ type: 'app calls in 60 s', description: String(made.length) });
});
