import { expect, test, type Page } from '@playwright/test';
import type { ViteDevServer } from 'vite';
import { freePort } from '../src/test/freePort';
import { ownDependencyCache } from './fixtures/viteCache';

/**
 * What a page says when its workspace server (another origin) refuses it, in real Chromium
 * (issue 39): a page on 127.0.0.1:A (Vite) and workspace servers on 127.0.0.1:B, set up as
 * docs/server.md's two-origin quick start. Chromium hides a refusal without CORS headers from
 * the page ("Failed to fetch"); the remote workspace finds out whether the server answered and
 * says so: refused origin (naming allowedOrigins), signed out (401), or nothing there.
 */
test.describe.configure({ mode: 'serial', timeout: 60_000 });

type Host = { url: string; close(): Promise<void> };
let vite: ViteDevServer;
let page0: string;
let refusing: Host;
let listed: Host;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  const { createServer } = await import('vite');
  const port = await freePort();
  page0 = `http://127.0.0.1:${port}`;
  vite = await createServer({
    configFile: new URL('../vite.config.ts', import.meta.url).pathname,
    logLevel: 'warn',
    ...ownDependencyCache('remote-errors', ['e2e/pages/remote-errors.html']),
    server: { host: '127.0.0.1', port, strictPort: true, cors: false, hmr: false },
  });
  await vite.listen();
  const { startSignedInServer } = await vite.ssrLoadModule('/e2e/fixtures/remoteErrorsHost.ts');
  refusing = await startSignedInServer({ port: await freePort() });
  listed = await startSignedInServer({ port: await freePort(), allowedOrigins: [page0] });
  // Warm the page's modules once, so the first test does not pay for the transform.
  await fetch(`${page0}/e2e/pages/remote-errors.html`);
  await fetch(`${page0}/e2e/pages/remote-errors.tsx`);
});

test.afterAll(async () => {
  await refusing?.close();
  await listed?.close();
  await vite?.close();
});

const open = (page: Page, server: string, manifest = false) => page.goto(`${page0}/e2e/pages/remote-errors.html?server=${encodeURIComponent(server)}${manifest ? '&manifest=1' : ''}`);
const composer = (page: Page) => page.getByRole('form', { name: 'Message composer' });

async function say(page: Page, text: string) {
  const input = page.getByRole('textbox', { name: 'Message' });
  await input.fill(text);
  await input.press('Enter');
}

test('origin refused: Chromium says only "Failed to fetch"; the page says the server refused its origin and to list it in allowedOrigins', async ({ page }) => {
  await open(page, refusing.url);
  const alert = page.getByRole('alert');
  await expect(alert).toHaveText(
    `The chat could not start: The workspace server at ${refusing.url} answered, but not to this page: it answers only its own origin and the origins in its allowedOrigins. List ${page0} in allowedOrigins, or serve this page and the server from one origin (a dev proxy).`,
  );
  // What Chromium itself gives the page for that request: no status, no body.
  const raw = await page.evaluate(async (url) => fetch(`${url}/v1/manifest`).then((r) => `answered ${r.status}`, (error: Error) => error.message), refusing.url);
  expect(raw).toBe('Failed to fetch');

  // A page that already has the manifest: the surface shows, and a send says the same on the surface.
  await open(page, refusing.url, true);
  await expect(page.getByRole('region', { name: 'Chat' })).toBeVisible();
  await say(page, 'hello');
  const error = composer(page).getByRole('alert');
  await expect(error).toHaveText(
    `Not sent: The workspace server at ${refusing.url} answered, but not to this page: it answers only its own origin and the origins in its allowedOrigins. List ${page0} in allowedOrigins, or serve this page and the server from one origin (a dev proxy). Your message is back in the box.`,
  );
  await expect(page.getByRole('textbox', { name: 'Message' })).toHaveValue('hello');
  await expect(composer(page)).toHaveAttribute('data-state', 'ready');
});

test('two origins with allowedOrigins: the page signs in and chats; signed out, a send says so with the status and the server’s words', async ({ page, context }) => {
  await open(page, listed.url);
  const log = page.getByRole('log', { name: 'Conversation' });
  await say(page, 'hello');
  await expect(log.locator('[data-part="message"][data-role="assistant"]').last()).toContainText('Hello!');
  await expect(composer(page).getByRole('alert')).toHaveCount(0);

  await context.clearCookies();
  await say(page, 'are you there?');
  await expect(composer(page).getByRole('alert')).toHaveText(`Not sent: You are not signed in to the workspace server at ${listed.url} (401): Sign in to use this workspace. Your message is back in the box.`);
  await expect(page.getByRole('textbox', { name: 'Message' })).toHaveValue('are you there?');
});

test('server down: the page says the server cannot be reached, naming its URL', async ({ page }) => {
  const down = `http://127.0.0.1:${await freePort()}`;
  await open(page, down);
  await expect(page.getByRole('alert')).toHaveText(`The chat could not start: Could not reach the workspace server at ${down} (Failed to fetch). Check that it is running and that the address is right.`);
});
