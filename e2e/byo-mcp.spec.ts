import { expect, test, type Browser, type Page } from '@playwright/test';
import { startEverythingServer, type EverythingServer } from '../src/test/everythingServer';
import { freePort } from '../src/test/freePort';

/**
 * The user's own MCP servers (issue 17): a signed-in user of the reference
 * demo connects the official "everything" MCP server from the chat (/mcp),
 * calls one of its tools by words, and another signed-in user (another
 * browser) does not see it; disconnecting removes it. The MCP server is
 * started here on 127.0.0.1 (the demo allows loopback) and stopped at the end.
 */
const DEMO = `http://127.0.0.1:${process.env.E2E_REFERENCE_PORT ?? 4174}/`;
const TOKEN = 'e2e-byo-secret-token';
test.describe.configure({ mode: 'serial' });

let everything: EverythingServer;
let alice: Page;
let bob: Page;

async function signIn(browser: Browser): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await page.goto(DEMO);
  await expect(page.getByRole('region', { name: 'Chat' })).toBeVisible({ timeout: 20_000 });
  return page;
}
const log = (page: Page) => page.getByRole('log', { name: 'Conversation' });
const say = async (page: Page, text: string) => {
  const input = page.getByRole('textbox', { name: 'Message' });
  await input.fill(text);
  await input.press('Enter');
};
const panel = (page: Page) => page.getByRole('dialog', { name: 'Your MCP servers' });
const replies = (page: Page) => log(page).locator('[data-part="message"][data-role="assistant"]');

test.beforeAll(async ({ browser }) => {
  everything = await startEverythingServer(process.env.E2E_MCP_PORT ? Number(process.env.E2E_MCP_PORT) : undefined);
  alice = await signIn(browser);
  bob = await signIn(browser);
});
test.afterAll(async () => {
  await alice?.context().close();
  await bob?.context().close();
  await everything?.stop();
});

test('a user connects an MCP server from the chat with /mcp; the token goes into a password field and never shows again', async () => {
  await say(alice, '/mcp');
  await expect(panel(alice)).toHaveAttribute('data-state', 'ready');
  await expect(panel(alice).getByText('You have not connected any MCP server yet.')).toBeVisible();
  const form = panel(alice).getByRole('form', { name: 'Connect an MCP server' });

  // A local port the demo does not allow (another service on this machine) is refused in plain words, and what was typed stays.
  await form.getByRole('textbox', { name: 'Name' }).fill('everything');
  await form.getByRole('textbox', { name: 'Server URL' }).fill(`http://127.0.0.1:${await freePort()}/mcp`);
  await form.getByRole('button', { name: 'Connect' }).click();
  await expect(form).toHaveAttribute('data-state', 'error');
  await expect(form.getByRole('alert')).toContainText('private or local address');
  await expect(form.getByRole('textbox', { name: 'Name' })).toHaveValue('everything');

  await form.getByRole('textbox', { name: 'Server URL' }).fill(everything.url);
  const token = form.getByLabel('Token (optional)');
  await expect(token).toHaveAttribute('type', 'password');
  await token.fill(TOKEN);
  await form.getByRole('button', { name: 'Connect' }).click();
  await expect(panel(alice).getByRole('status').filter({ hasText: 'Connected everything' })).toContainText('tools in your chats now');
  const item = panel(alice).getByRole('listitem', { name: 'everything' });
  await expect(item).toHaveAttribute('data-state', 'connected');
  await expect(token).toHaveValue('');
  await panel(alice).getByRole('button', { name: 'Close' }).click();
  await expect(panel(alice)).toHaveCount(0);
  await expect(alice.getByRole('textbox', { name: 'Message' })).toBeFocused();
});

test('the user calls one of its tools by words: the card runs it and shows its answer', async () => {
  await say(alice, 'everything echo message=hello');
  const card = log(alice).getByRole('article', { name: 'Echo Tool (everything)' }).last();
  await expect(card).toHaveAttribute('data-state', 'done');
  await expect(card).toContainText('Echo: hello');
  // The token is nowhere on the page, nor in what the server sends the browser about the server.
  expect(await alice.content()).not.toContain(TOKEN);
  const listed = await alice.evaluate(async () => (await fetch('/v1/mcp-servers')).text());
  expect(listed).toContain('"hasToken":true');
  expect(listed).not.toContain(TOKEN);
});

test('another user does not see it: the same words run nothing, and their /mcp lists nothing', async () => {
  const before = await replies(bob).count();
  await say(bob, 'everything echo message=hello');
  await expect(replies(bob)).toHaveCount(before + 1);
  await expect(replies(bob).last()).toHaveAttribute('data-state', 'done');
  await expect(log(bob).getByRole('article', { name: 'Echo Tool (everything)' })).toHaveCount(0);
  await say(bob, '/mcp');
  await expect(panel(bob)).toHaveAttribute('data-state', 'ready');
  await expect(panel(bob).getByText('You have not connected any MCP server yet.')).toBeVisible();
  await panel(bob).getByRole('button', { name: 'Close' }).click();
});

test('disconnecting removes its tools from the chat', async () => {
  await say(alice, '/mcp');
  await panel(alice).getByRole('button', { name: 'Disconnect everything' }).click();
  await expect(panel(alice).getByRole('status').filter({ hasText: 'Disconnected everything' })).toBeVisible();
  await expect(panel(alice).getByText('You have not connected any MCP server yet.')).toBeVisible();
  await panel(alice).getByRole('button', { name: 'Close' }).click();
  const cards = log(alice).getByRole('article', { name: 'Echo Tool (everything)' });
  const count = await cards.count();
  const before = await replies(alice).count();
  await say(alice, 'everything echo message=again');
  await expect(replies(alice)).toHaveCount(before + 1);
  await expect(replies(alice).last()).toHaveAttribute('data-state', 'done');
  await expect(cards).toHaveCount(count);
});
