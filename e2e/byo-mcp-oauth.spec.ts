import { expect, test, type Browser, type Page } from '@playwright/test';
import { startOAuthMcpServer, type OAuthMcpServer } from '../src/test/oauthMcpServer';

/**
 * A user's own MCP server that signs its users in with OAuth (issue 44): a signed-in user of the
 * reference demo connects it from the chat (/mcp) with no token; the server answers 401 with its
 * resource metadata, the chat opens its authorization server's sign-in page in a pop-up
 * (authorization code with PKCE, the resource bound), the pop-up comes back to the kit's landing
 * page, which finishes the sign-in for this user's session, tells the chat and closes; then one of
 * the server's tools runs with the user's token. Another user sees nothing of it. The MCP server
 * (the kit's own MCP door behind `mcpAuth`) and its authorization server (oidc-provider, its
 * login scripted) run here on the two loopback ports the demo allows (playwright.config.ts).
 */
const DEMO = `http://127.0.0.1:${process.env.E2E_REFERENCE_PORT ?? 4174}/`;
test.describe.configure({ mode: 'serial' });

let server: OAuthMcpServer;
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

test.beforeAll(async ({ browser }) => {
  server = await startOAuthMcpServer({ mcp: Number(process.env.E2E_OAUTH_MCP_PORT), issuer: Number(process.env.E2E_OAUTH_ISSUER_PORT) });
  alice = await signIn(browser);
  bob = await signIn(browser);
});
test.afterAll(async () => {
  await alice?.context().close();
  await bob?.context().close();
  await server?.stop();
});

test('a user connects an OAuth-protected MCP server: the chat opens its sign-in in a pop-up and lists the server once signed in', async () => {
  await say(alice, '/mcp');
  await expect(panel(alice)).toHaveAttribute('data-state', 'ready');
  const form = panel(alice).getByRole('form', { name: 'Connect an MCP server' });
  await form.getByRole('textbox', { name: 'Name' }).fill('journal');
  await form.getByRole('textbox', { name: 'Server URL' }).fill(server.url);
  // Every page the pop-up is sent to, redirects included.
  const visited: URL[] = [];
  alice.context().on('request', (request) => {
    if (request.isNavigationRequest() && request.frame().page() !== alice) visited.push(new URL(request.url()));
  });
  const popupOpened = alice.waitForEvent('popup');
  await form.getByRole('button', { name: 'Connect' }).click();

  const popup = await popupOpened;
  await expect(panel(alice).getByRole('status').filter({ hasText: 'journal asks you to sign in on its own page' })).toBeVisible();
  await expect(panel(alice).getByRole('listitem', { name: 'journal' })).toHaveAttribute('data-state', 'signing-in');
  // The pop-up goes through the authorization server's sign-in, comes back to the kit's landing page, and is closed once signed in.
  await popup.waitForEvent('close', { timeout: 20_000 });
  const issuer = new URL(server.auth.issuer).origin;
  const authorize = visited.find((url) => url.origin === issuer && url.searchParams.has('code_challenge'));
  expect(authorize?.searchParams.get('code_challenge_method')).toBe('S256');
  expect(authorize?.searchParams.get('resource')).toBe(server.url);
  const landing = visited.find((url) => url.pathname === '/v1/mcp-servers/oauth/callback');
  expect(landing?.origin).toBe(new URL(DEMO).origin);
  expect(landing?.searchParams.get('code')).toBeTruthy();

  const item = panel(alice).getByRole('listitem', { name: 'journal' });
  await expect(item).toHaveAttribute('data-state', 'connected');
  await expect(panel(alice).getByRole('status').filter({ hasText: 'Signed in to journal' })).toHaveText('Signed in to journal: 1 tool in your chats now.');
  await expect(item.getByRole('button', { name: 'Sign in to journal' })).toHaveCount(0);
  await panel(alice).getByRole('button', { name: 'Close' }).click();
  await expect(alice.getByRole('textbox', { name: 'Message' })).toBeFocused();
});

test("one of its tools runs by words with the user's own token", async () => {
  await say(alice, 'journal count notes');
  // The offline model offers it (the words did not name it outright); accepting runs it.
  await log(alice).getByRole('button', { name: 'Accept Count notes (journal)' }).click();
  const card = log(alice).getByRole('article', { name: 'Count notes (journal)' }).last();
  await expect(card).toHaveAttribute('data-state', 'done');
  await expect(card).toContainText('7 notes for alice@');
  expect(server.seen.at(-1)).toMatch(/^alice@/);
  // What the browser is told about the server holds no token.
  const listed = await alice.evaluate(async () => (await fetch('/v1/mcp-servers')).text());
  expect(listed).toContain('"signIn":"oauth"');
  expect(listed).not.toMatch(/access_token|refresh_token|eyJ/);
});

test("another user sees none of it, and cannot start a sign-in for it", async () => {
  const answers = await bob.evaluate(async () => {
    const list = await (await fetch('/v1/mcp-servers')).json();
    const start = await fetch('/v1/mcp-servers/journal/authorize', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    return { servers: list.servers, start: start.status };
  });
  expect(answers).toEqual({ servers: [], start: 404 });
});
