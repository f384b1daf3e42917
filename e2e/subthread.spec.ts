import { expect, test, type Page } from '@playwright/test';

/**
 * Sub-threads on the reference demo (the kit's server, the offline model): `/review` has
 * `launchesSubThread`, so it runs in a child thread of the same user, linked from a row in the
 * parent, listed in the thread switcher as a sub-thread, and summarised back when it ends.
 */
const DEMO = `http://127.0.0.1:${process.env.E2E_REFERENCE_PORT ?? 4174}/`;

const log = (page: Page) => page.getByRole('log', { name: 'Conversation' });

test('a /review sub-thread: opened from the parent, its own transcript, keyboard there and back, its outcome summarised', async ({ browser }) => {
  // A fresh browser profile is a fresh anonymous user with no threads.
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(DEMO);
  await expect(page.getByRole('region', { name: 'Chat' })).toBeVisible({ timeout: 20_000 });
  const input = page.getByRole('textbox', { name: 'Message' });
  await input.fill('/review how many records do I have?');
  await input.press('Enter');

  const opened = log(page).getByRole('article', { name: 'Opened a sub-thread: /review' });
  await expect(opened).toBeVisible();
  // It runs, then ends; the parent gets the child's answer in words.
  await expect(opened).toHaveAttribute('data-state', /^(running|done)$/);
  await expect(opened).toHaveAttribute('data-state', 'done');
  const summary = log(page).getByRole('article', { name: 'The /review sub-thread finished' });
  await expect(summary).toHaveAttribute('data-state', 'done');
  await expect(summary).toContainText(/record/i);
  // The parent's own transcript has no reply of the child's: it ran elsewhere.
  await expect(log(page).locator('[data-part="message"][data-role="assistant"]')).toHaveCount(0);

  // The switcher lists the child after its parent, named as its sub-thread.
  const switcher = page.getByRole('combobox', { name: 'Thread' });
  const childOption = switcher.getByRole('option', { name: /sub-thread of “\/review how many records/ });
  await expect(childOption).toHaveCount(1);
  await expect(childOption).toHaveText('↳ /review how many records do I have? (sub-thread of “/review how many records do I have?”)');

  // Keyboard: the row's link opens the child's own transcript.
  await opened.getByRole('button', { name: 'Opened a sub-thread: /review' }).focus();
  await page.keyboard.press('Enter');
  const origin = log(page).getByRole('article', { name: /^Sub-thread of “/ });
  await expect(origin).toBeVisible();
  await expect(origin).toHaveAttribute('data-state', 'linked');
  const childReply = log(page).locator('[data-part="message"][data-role="assistant"]').last();
  await expect(childReply).toHaveAttribute('data-state', 'done');
  await expect(childReply).toContainText(/record/i);
  await expect(switcher).toHaveValue(/\.sub-/);

  // And back, by keyboard.
  await origin.getByRole('button', { name: /^Back to “/ }).focus();
  await page.keyboard.press('Enter');
  await expect(log(page).getByRole('article', { name: 'Opened a sub-thread: /review' })).toHaveAttribute('data-state', 'done');
  await expect(switcher).not.toHaveValue(/\.sub-/);

  // The switcher reaches the child too, and the parent can keep chatting meanwhile.
  await switcher.selectOption({ label: await childOption.innerText() });
  await expect(log(page).getByRole('article', { name: /^Sub-thread of “/ })).toBeVisible();
  await switcher.selectOption({ index: 0 });
  await input.fill('what can you do?');
  await input.press('Enter');
  await expect(log(page).locator('[data-part="message"][data-role="assistant"]').last()).toHaveAttribute('data-state', 'done');

  // A reload keeps the link: the child is an ordinary thread of this user, on the server.
  await page.reload();
  await expect(page.getByRole('combobox', { name: 'Thread' }).getByRole('option', { name: /sub-thread of/ })).toHaveCount(1);
  await context.close();
});
