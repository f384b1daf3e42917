import { expect, test, type ConsoleMessage, type Page } from '@playwright/test';
import type { ViteDevServer } from 'vite';
import { startExampleAppServer } from '../src/test/exampleMcpApp';
import { freePort } from '../src/test/freePort';
import { ownDependencyCache } from './fixtures/viteCache';

/**
 * MCP Apps in Chromium against a real MCP App server from npm: the official
 * example `@modelcontextprotocol/server-basic-vanillajs` (tool `get-time`,
 * view `ui://get-time/mcp-app.html`), started here on 127.0.0.1 and
 * consumed by a workspace server that this file serves with its page
 * (e2e/pages/mcp-app.html) on one origin. Both stop at the end.
 */
// One worker for the file (one pair of servers); the first page load transforms the page's modules on this busy machine.
test.describe.configure({ mode: 'serial', timeout: 60_000 });

let example: Awaited<ReturnType<typeof startExampleAppServer>>;
let vite: ViteDevServer;
let base: string;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  example = await startExampleAppServer();
  const { createServer } = await import('vite');
  const { getRequestListener } = await import('@hono/node-server');
  const port = Number(process.env.E2E_MCP_APP_PORT ?? (await freePort()));
  let workspace: { fetch(request: Request): Promise<Response>; close(): Promise<void> } | null = null;
  vite = await createServer({
    configFile: new URL('../vite.config.ts', import.meta.url).pathname,
    logLevel: 'warn',
    ...ownDependencyCache('mcp-app', ['e2e/pages/mcp-app.html'], ['@modelcontextprotocol/ext-apps/app-bridge']),
    server: { host: '127.0.0.1', port, strictPort: true, cors: false, hmr: false },
    plugins: [
      {
        name: 'mcp-app-host',
        async configureServer(server) {
          const mod = await server.ssrLoadModule('/e2e/fixtures/mcpAppHost.ts');
          workspace = await mod.createMcpAppHost(example.url);
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
  await fetch(`${base}/e2e/pages/mcp-app.html`);
  await fetch(`${base}/e2e/pages/mcp-app.tsx`);
});

test.afterAll(async () => {
  await vite?.close();
  await example?.stop();
});

async function askForTheTime(page: Page) {
  await page.goto(`${base}/e2e/pages/mcp-app.html`);
  const log = page.getByRole('log', { name: 'Conversation' });
  const input = page.getByRole('textbox', { name: 'Message' });
  await input.fill('get time');
  await input.press('Enter');
  const card = log.getByRole('article', { name: 'Get Time' }).first();
  await expect(card).toHaveAttribute('data-state', 'done', { timeout: 20_000 });
  return { log, card };
}

test('the card shows the example’s view in a sandboxed frame; the frame follows its size', async ({ page }) => {
  const { card } = await askForTheTime(page);
  const app = card.locator('[data-part="mcp-app"]');
  await expect(app).toHaveAttribute('data-state', 'ready', { timeout: 20_000 });
  const iframe = card.locator('iframe[title="Get Time app"]');
  await expect(iframe).toHaveAttribute('sandbox', 'allow-scripts');
  const view = card.frameLocator('iframe[title="Get Time app"]');
  // The tool result reached the view: it shows the server's time, not "Loading...".
  const time = view.locator('#server-time');
  await expect(time).toHaveText(/^\d{4}-\d{2}-\d{2}T/);

  // The view said its size: the frame grew from its initial 120px to the view's height, within the bound.
  await expect.poll(async () => (await iframe.boundingBox())?.height ?? 0).toBeGreaterThan(200);
  const before = (await iframe.boundingBox())!.height;
  expect(before).toBeLessThanOrEqual(640);

  // The view grows (content added inside it): the frame follows, up to its bound and no further.
  const frame = (await (await iframe.elementHandle())!.contentFrame())!;
  // Chromium pauses rendering (and so ResizeObserver) in a cross-origin frame scrolled out of view: bring it back first.
  await iframe.scrollIntoViewIfNeeded();
  await frame.evaluate(() => {
    const tall = document.createElement('div');
    tall.style.height = '100px';
    tall.id = 'taller';
    document.body.append(tall);
  });
  await expect.poll(async () => (await iframe.boundingBox())?.height ?? 0).toBeGreaterThan(before + 50);
  await frame.evaluate(() => (document.getElementById('taller')!.style.height = '5000px'));
  await expect.poll(async () => (await iframe.boundingBox())?.height ?? 0).toBe(640);
});

test('a call from inside the app runs inside its card (no second card), and the view shows the new time', async ({ page }) => {
  // What the page saw, told if the new time does not come.
  const seen: string[] = [];
  page.on('console', (message) => seen.push(`console ${message.type()}: ${message.text()}`));
  page.on('pageerror', (error) => seen.push(`page error: ${error.message}`));
  page.on('response', (response) => void (response.url().includes('/v1/') && seen.push(`${response.request().method()} ${new URL(response.url()).pathname} → ${response.status()}`)));
  page.on('requestfailed', (request) => seen.push(`failed: ${request.method()} ${request.url()} ${request.failure()?.errorText}`));
  const { log, card } = await askForTheTime(page);
  await expect(card.locator('[data-part="mcp-app"]')).toHaveAttribute('data-state', 'ready', { timeout: 20_000 });
  const view = card.frameLocator('iframe[title="Get Time app"]');
  const time = view.locator('#server-time');
  await expect(time).toHaveText(/^\d{4}-\d{2}-\d{2}T/);
  const first = await time.textContent();
  // The view said its size once the result was in, and the frame grows to it: click once it has, or the
  // button moves under the click (in a full run the click landed beside it and no call was made).
  const iframe = card.locator('iframe[title="Get Time app"]');
  await expect.poll(async () => (await iframe.boundingBox())?.height ?? 0).toBeGreaterThan(200);
  let height = 0;
  await expect.poll(async () => height === (height = (await iframe.boundingBox())?.height ?? 0), { intervals: [250] }).toBe(true);
  await iframe.scrollIntoViewIfNeeded();
  // A tool call from inside the app: the workspace server runs it inside this card (no card of its own, issue 44), the view shows the new time.
  await view.getByRole('button', { name: 'Get Server Time' }).click();
  // The call goes view → card → workspace server → MCP server and back: on a loaded machine (two workers, dev servers starting) more than the default 10 s.
  await expect(time)
    .not.toHaveText(first!, { timeout: 30_000 })
    .catch((error: Error) => {
      throw new Error(`${error.message}\nWhat the page saw:\n${seen.join('\n')}`);
    });
  await expect(log.getByRole('article', { name: 'Get Time' })).toHaveCount(1);
  await expect(time).not.toHaveText(first!);
  await expect(time).toHaveText(/^\d{4}-\d{2}-\d{2}T/);

});

test('script in the frame cannot reach the host page’s DOM, cookies or globals, nor the network', async ({ page }) => {
  const { card } = await askForTheTime(page);
  await expect(card.locator('[data-part="mcp-app"]')).toHaveAttribute('data-state', 'ready', { timeout: 20_000 });
  expect(await page.evaluate(() => document.cookie)).toContain('host_secret=do-not-leak');
  const frame = (await (await card.locator('iframe[title="Get Time app"]').elementHandle())!.contentFrame())!;
  const probe = await frame.evaluate(async () => {
    const attempt = (read: () => unknown) => {
      try {
        return `read: ${String(read())}`;
      } catch (error) {
        return `blocked: ${(error as Error).name}`;
      }
    };
    let network: string;
    try {
      await fetch('http://127.0.0.1:9/steal');
      network = 'reached';
    } catch {
      network = 'blocked';
    }
    return {
      parentDocument: attempt(() => window.parent.document.title),
      parentCookie: attempt(() => window.parent.document.cookie),
      parentGlobal: attempt(() => (window.parent as unknown as { hostSecret: string }).hostSecret),
      cookie: attempt(() => document.cookie),
      storage: attempt(() => window.localStorage.length),
      origin: window.origin,
      network,
    };
  });
  expect(probe.parentDocument).toBe('blocked: SecurityError');
  expect(probe.parentCookie).toBe('blocked: SecurityError');
  expect(probe.parentGlobal).toMatch(/^blocked|read: undefined/);
  expect(probe.cookie).not.toContain('do-not-leak');
  expect(probe.storage).toBe('blocked: SecurityError');
  expect(probe.origin).toBe('null');
  expect(probe.network).toBe('blocked');
});

test('teardown: Close tears the view down (the app hears it), unmounting removes the frame, apps off shows the plain result', async ({ page }) => {
  const said: string[] = [];
  page.on('console', (message: ConsoleMessage) => said.push(message.text()));
  const { card } = await askForTheTime(page);
  const app = card.locator('[data-part="mcp-app"]');
  await expect(app).toHaveAttribute('data-state', 'ready', { timeout: 20_000 });
  await card.getByRole('button', { name: 'Close Get Time app' }).click();
  await expect(app).toHaveAttribute('data-state', 'closed');
  await expect(card.locator('iframe')).toHaveCount(0);
  expect(said).toContain('App is being torn down');

  await card.getByRole('button', { name: 'Open Get Time app again' }).click();
  await expect(app).toHaveAttribute('data-state', 'ready', { timeout: 20_000 });
  await expect(card.frameLocator('iframe[title="Get Time app"]').locator('#server-time')).toHaveText(/^\d{4}-/);

  // The host turns apps off: the frame unmounts, the card keeps its result as text.
  await page.getByRole('checkbox', { name: 'Show MCP Apps' }).uncheck();
  await expect(card.locator('iframe')).toHaveCount(0);
  await expect(card.locator('[data-part="invocation-card-app"]')).toHaveAttribute('data-state', 'off');
  await expect(card.locator('[data-part="result-summary"]')).toHaveText(/^\d{4}-\d{2}-\d{2}T/);
  expect(page.frames().filter((f) => f.url() === 'about:srcdoc' || f.url().includes('/v1/app-frame'))).toHaveLength(0);
});
