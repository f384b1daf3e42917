import { expect, test, type Browser, type Cookie, type Page } from '@playwright/test';

/**
 * The thread list on the reference demo (the kit's server, SQLite, the
 * offline model): the store keeps each user's threads, so two browsers of one
 * user show the same list. The demo signs each browser in as a new guest (a
 * session cookie); "the same user in two browsers" is two browser contexts
 * holding that one cookie, and nothing else of each other's (no localStorage).
 */
const DEMO = `http://127.0.0.1:${process.env.E2E_REFERENCE_PORT ?? 4174}/`;
// Two browsers take turns, each step a round trip to the server: a minute a test on a loaded machine.
test.describe.configure({ mode: 'serial', timeout: 60_000 });

async function open(browser: Browser, cookies?: Cookie[], viewport = { width: 1280, height: 900 }): Promise<Page> {
  const context = await browser.newContext({ viewport, ...(cookies ? { storageState: { cookies, origins: [] } } : {}) });
  const page = await context.newPage();
  await page.goto(DEMO);
  await expect(page.getByRole('region', { name: 'Chat' })).toBeVisible({ timeout: 20_000 });
  return page;
}

async function say(page: Page, text: string) {
  const input = page.getByRole('textbox', { name: 'Message' });
  await input.fill(text);
  await input.press('Enter');
  await expect(page.getByRole('log', { name: 'Conversation' }).locator('[data-part="message"][data-role="user"]').last()).toContainText(text);
}

async function newThread(page: Page) {
  const input = page.getByRole('textbox', { name: 'Message' });
  await input.fill('/clear');
  await expect(page.getByRole('listbox', { name: 'Slash skills' }).getByRole('option').first()).toContainText('/clear');
  await input.press('Enter');
  await expect(page.getByRole('log', { name: 'Conversation' }).locator('[data-part="message"]')).toHaveCount(0);
}

const panel = (page: Page) => page.getByRole('region', { name: 'Threads' });
const titles = (page: Page) => panel(page).getByRole('list', { name: /threads/i }).locator('[data-part="thread-list-title"]');

async function showList(page: Page) {
  await page.bringToFront();
  const toggle = page.getByRole('button', { name: 'All threads' });
  if ((await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click();
  await expect(panel(page)).toHaveAttribute('data-state', /ready|empty|no-results/);
}

let first: Page;
let second: Page;

test.beforeAll(async ({ browser }) => {
  first = await open(browser);
  await say(first, 'Plan the Berlin budget review');
  await newThread(first);
  await say(first, 'Draft the supplier letter');
  // A second browser of the same user: the session cookie only.
  second = await open(browser, await first.context().cookies());
});
test.afterAll(async () => {
  await first.context().close();
  await second.context().close();
});

test('two browsers of one user show the same thread list, newest first', async () => {
  await showList(first);
  await showList(second);
  for (const page of [first, second]) {
    await expect(titles(page)).toHaveText([/^Draft the supplier letter/, /^Plan the Berlin budget review/]);
    await expect(panel(page).getByRole('status')).toHaveText('2 threads');
  }
  // Another user (a fresh browser, a guest of its own) sees none of them.
  const stranger = await open(first.context().browser()!);
  await showList(stranger);
  await expect(panel(stranger)).toHaveAttribute('data-state', 'empty');
  await expect(panel(stranger).getByRole('status')).toHaveText('No threads yet. Send a message to start one.');
  await stranger.context().close();
});

test('search finds a thread by its words, and says when nothing matches', async () => {
  await second.bringToFront();
  const search = panel(second).getByRole('searchbox', { name: 'Search threads' });
  await search.fill('berlin');
  await expect(titles(second)).toHaveText([/^Plan the Berlin budget review/]);
  await search.fill('zanzibar');
  await expect(panel(second)).toHaveAttribute('data-state', 'no-results');
  await expect(panel(second).getByRole('status')).toHaveText('No threads match “zanzibar”.');
  await search.press('Escape');
  await expect(titles(second)).toHaveCount(2);
});

test('a rename in one browser shows in the other', async () => {
  await panel(second).getByRole('button', { name: /^Plan the Berlin budget review/ }).focus();
  await second.keyboard.press('F2');
  const name = panel(second).getByRole('textbox', { name: 'Thread name' });
  await expect(name).toBeFocused();
  await name.fill('Budget 2027');
  await name.press('Enter');
  await expect(panel(second).getByRole('status')).toContainText('Renamed to “Budget 2027”.');
  await expect(panel(second).getByRole('button', { name: /^Budget 2027/ })).toBeFocused();
  // The first browser reads the list again when it is opened (closed, then opened: the user turns to it).
  await first.bringToFront();
  await first.getByRole('button', { name: 'All threads' }).click();
  await showList(first);
  await expect(titles(first)).toHaveText([/^Draft the supplier letter/, /^Budget 2027/]);
});

test('archive hides a thread until "Show archived", and unarchive brings it back', async () => {
  await panel(first).getByRole('button', { name: 'Archive “Budget 2027”' }).click();
  await expect(titles(first)).toHaveText([/^Draft the supplier letter/]);
  await panel(first).getByRole('checkbox', { name: 'Show archived' }).check();
  const archived = panel(first).getByRole('list', { name: 'Archived threads' });
  await expect(archived.locator('[data-part="thread-list-title"]')).toHaveText(['Budget 2027']);
  await archived.getByRole('button', { name: 'Unarchive “Budget 2027”' }).click();
  await expect(panel(first)).toHaveAttribute('data-state', 'empty');
  await panel(first).getByRole('checkbox', { name: 'Show archived' }).uncheck();
  await expect(titles(first)).toHaveCount(2);
});

test('delete asks first; Cancel keeps the thread; confirmed, it is gone in both browsers and its messages with it', async () => {
  await panel(first).getByRole('button', { name: /^Budget 2027/ }).focus();
  await first.keyboard.press('Delete');
  const dialog = first.getByRole('alertdialog', { name: 'Delete “Budget 2027”?' });
  await expect(dialog).toContainText('removed for good');
  await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  await expect(titles(first)).toHaveCount(2);
  const id = await panel(first).getByRole('button', { name: /^Budget 2027/ }).getAttribute('data-thread-id');
  await panel(first).getByRole('button', { name: 'Delete “Budget 2027”' }).click();
  await first.getByRole('alertdialog').getByRole('button', { name: 'Delete thread' }).click();
  await expect(panel(first).getByRole('status')).toContainText('Deleted “Budget 2027”.');
  await expect(titles(first)).toHaveText([/^Draft the supplier letter/]);
  // Its events are gone from the store: the server answers 404 for its log, in this user's session.
  const events = await first.request.get(`${DEMO}v1/threads/${id}/events`);
  expect(events.status()).toBe(404);
  await second.reload();
  await expect(second.getByRole('region', { name: 'Chat' })).toBeVisible();
  await showList(second);
  await expect(titles(second)).toHaveText([/^Draft the supplier letter/]);
});

test('at 390 px the list fits the screen and opens a thread with the keyboard', async ({ browser }) => {
  const phone = await open(browser, await first.context().cookies(), { width: 390, height: 844 });
  await showList(phone);
  const box = await panel(phone).boundingBox();
  expect(box!.x).toBeGreaterThanOrEqual(0);
  expect(box!.x + box!.width).toBeLessThanOrEqual(390);
  expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await panel(phone).getByRole('button', { name: /^Draft the supplier letter/ }).focus();
  await phone.keyboard.press('Enter');
  await expect(phone.getByRole('button', { name: 'All threads' })).toHaveAttribute('aria-expanded', 'false');
  await expect(phone.getByRole('log', { name: 'Conversation' }).locator('[data-part="message"][data-role="user"]').first()).toContainText('Draft the supplier letter');
  await phone.context().close();
});
