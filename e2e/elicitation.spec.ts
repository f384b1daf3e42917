import { expect, test, type Page } from '@playwright/test';
import type { ViteDevServer } from 'vite';
import { startEverythingServer, type EverythingServer } from '../src/test/everythingServer';
import { freePort } from '../src/test/freePort';
import { ownDependencyCache } from './fixtures/viteCache';

/**
 * A running MCP tool's question in the chat (MCP elicitation, issue 44), in Chromium, against the
 * official server-everything 2026.8.31 started here on 127.0.0.1 and consumed by a workspace
 * server that this file serves with its page (e2e/pages/elicitation.html) on one origin. The chat
 * runs the tool; its question is a row (a form, or a link); the user answers; the tool's result is
 * made of the answer. Both servers stop at the end.
 */
test.describe.configure({ mode: 'serial', timeout: 60_000 });

let everything: EverythingServer;
let vite: ViteDevServer;
let base: string;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  everything = await startEverythingServer();
  const { createServer } = await import('vite');
  const { getRequestListener } = await import('@hono/node-server');
  const port = await freePort();
  let workspace: { fetch(request: Request): Promise<Response>; close(): Promise<void> } | null = null;
  vite = await createServer({
    configFile: new URL('../vite.config.ts', import.meta.url).pathname,
    logLevel: 'warn',
    ...ownDependencyCache('elicitation', ['e2e/pages/elicitation.html']),
    server: { host: '127.0.0.1', port, strictPort: true, cors: false, hmr: false },
    plugins: [
      {
        name: 'elicitation-host',
        async configureServer(server) {
          const mod = await server.ssrLoadModule('/e2e/fixtures/elicitationHost.ts');
          workspace = await mod.createElicitationHost(everything.url);
          const listener = getRequestListener((request: Request) => workspace!.fetch(request));
          server.middlewares.use((req, res, next) => (req.url?.startsWith('/v1/') ? listener(req, res) : next()));
          server.httpServer?.once('close', () => void workspace?.close());
        },
      },
    ],
  });
  await vite.listen();
  base = `http://127.0.0.1:${port}`;
  await fetch(`${base}/e2e/pages/elicitation.html`);
  await fetch(`${base}/e2e/pages/elicitation.tsx`);
});

test.afterAll(async () => {
  await vite?.close();
  await everything?.stop();
});

const log = (page: Page) => page.getByRole('log', { name: 'Conversation' });
async function say(page: Page, text: string) {
  const input = page.getByRole('textbox', { name: 'Message' });
  await expect(input).toBeVisible({ timeout: 30_000 });
  await input.fill(text);
  await input.press('Enter');
}

test('a form question: the row shows the fields, says what to fix in words, survives a reload, and the tool uses the answer', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`${base}/e2e/pages/elicitation.html`);
  await say(page, 'Open an account for me');
  const card = log(page).getByRole('article', { name: 'Trigger Elicitation Request Tool' });
  const row = log(page).getByRole('article', { name: 'Please provide inputs for the following fields:' });
  await expect(row).toHaveAttribute('data-state', 'pending', { timeout: 20_000 });
  await expect(row).toHaveAttribute('data-mode', 'form');
  await expect(row).toContainText('From the MCP server "everything", while trigger-elicitation-request runs.');
  await expect(card).toHaveAttribute('data-state', 'running');

  // The thread is its log: a reload shows the same question, still waiting.
  await page.reload();
  await expect(row).toHaveAttribute('data-state', 'pending', { timeout: 20_000 });
  const form = row.getByRole('form', { name: 'Answer for everything' });
  const name = form.getByRole('textbox', { name: 'String (required)' });
  await expect(name).toHaveAttribute('aria-required', 'true');
  await expect(form.getByRole('textbox', { name: 'String with default' })).toHaveValue('It was a dark and stormy night.');
  await expect(form.getByRole('textbox', { name: 'Integer', exact: true })).toHaveValue('42');
  await expect(form.getByRole('combobox', { name: 'Titled Single Select Enum', exact: true })).toHaveValue('hero-1');
  await expect(form.getByRole('group', { name: 'Titled Multiple Select Enum', exact: true })).toBeVisible();
  // 390 px wide: the form fits the row, nothing to scroll sideways.
  const overflow = await row.evaluate((el) => el.scrollWidth - el.clientWidth);
  expect(overflow).toBeLessThanOrEqual(1);

  // Bad input, said in words by each field; the first field that needs a change takes focus.
  const integer = form.getByRole('textbox', { name: 'Integer', exact: true });
  await integer.fill('500');
  await form.getByRole('button', { name: 'Submit' }).click();
  await expect(form.getByRole('alert')).toContainText('2 fields need a change before this can be sent:');
  await expect(form.getByRole('alert')).toContainText('String is required.');
  await expect(form.getByRole('alert')).toContainText('Integer must be at most 100.');
  await expect(name).toBeFocused();
  await expect(name).toHaveAttribute('aria-invalid', 'true');
  await expect(row).toHaveAttribute('data-state', 'pending');

  // By keyboard: type the name, then the integer, and send with Enter.
  await page.keyboard.type('Ada Lovelace');
  await integer.fill('7');
  await form.getByRole('combobox', { name: 'Untitled Single Select Enum', exact: true }).selectOption('Joey');
  await form.getByRole('checkbox', { name: 'Boolean', exact: true }).check();
  await integer.press('Enter');

  await expect(row).toHaveAttribute('data-state', 'accepted');
  await expect(row).toContainText('You sent your answer to everything.');
  await expect(card).toHaveAttribute('data-state', 'done', { timeout: 20_000 });
  await expect(card).toContainText('- Name: Ada Lovelace');
  await expect(card).toContainText('- Favorite Integer: 7');
  await expect(card).toContainText('- Agreed to terms: true');
});

test('Decline reaches the server as a decline', async ({ page }) => {
  await page.goto(`${base}/e2e/pages/elicitation.html`);
  await say(page, 'Open an account for me');
  const row = log(page).getByRole('article', { name: 'Please provide inputs for the following fields:' });
  await row.getByRole('button', { name: 'Decline' }).click();
  await expect(row).toHaveAttribute('data-state', 'declined', { timeout: 20_000 });
  const card = log(page).getByRole('article', { name: 'Trigger Elicitation Request Tool' });
  await expect(card).toHaveAttribute('data-state', 'done', { timeout: 20_000 });
  await expect(card).toContainText('User declined to provide the requested information.');
});

test('a URL question: a link with the server and the host that opens only when chosen; Done tells the server', async ({ page }) => {
  await page.goto(`${base}/e2e/pages/elicitation.html`);
  await say(page, 'Sign in to my calendar');
  const row = log(page).getByRole('article', { name: 'Sign in to continue.' });
  await expect(row).toHaveAttribute('data-state', 'pending', { timeout: 20_000 });
  await expect(row).toHaveAttribute('data-mode', 'url');
  await expect(row).toContainText('"everything" asks you to open a page on accounts.example.com.');
  const link = row.getByRole('link', { name: 'Open accounts.example.com' });
  await expect(link).toHaveAttribute('href', 'https://accounts.example.com/consent');
  await expect(link).toHaveAttribute('target', '_blank');
  await expect(link).toHaveAttribute('rel', 'noopener noreferrer');
  // Nothing opened by itself.
  expect(page.context().pages()).toHaveLength(1);
  await row.getByRole('button', { name: 'Done Sign in to continue.' }).click();
  await expect(row).toHaveAttribute('data-state', 'accepted', { timeout: 20_000 });
  await expect(row).toContainText('You said you finished on accounts.example.com.');
  const card = log(page).getByRole('article', { name: 'Trigger URL Elicitation Tool' });
  await expect(card).toHaveAttribute('data-state', 'done', { timeout: 20_000 });
});
