import { expect, test } from '@playwright/test';

/**
 * A reply's actions on the reference demo (the kit's server, the offline model): Copy puts the
 * reply on the clipboard and says so; a rating is a toggle (`aria-pressed`) with an optional
 * comment, kept by the server, so a reload shows it pressed; pressing again withdraws it.
 */
const DEMO = `http://127.0.0.1:${process.env.E2E_REFERENCE_PORT ?? 4174}/`;

test('copy a reply, rate it with a comment, reload: the rating is still there; change it, withdraw it', async ({ browser }) => {
  const context = await browser.newContext({ permissions: ['clipboard-read', 'clipboard-write'] });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('console', (message) => void (message.type() === 'error' && errors.push(message.text())));
  await page.goto(DEMO);
  await expect(page.getByRole('region', { name: 'Chat' })).toBeVisible({ timeout: 20_000 });
  const log = page.getByRole('log', { name: 'Conversation' });
  const input = page.getByRole('textbox', { name: 'Message' });
  await input.fill('how many records are there?');
  await input.press('Enter');

  const reply = log.locator('[data-part="message"][data-role="assistant"][data-state="done"]').last();
  const actions = reply.getByRole('group', { name: 'Message actions' });
  await expect(actions).toHaveAttribute('data-state', 'none');
  const text = (await reply.locator('[data-part="message-text"]').innerText()).trim();
  expect(text.length).toBeGreaterThan(0);

  await actions.getByRole('button', { name: 'Copy' }).click();
  await expect(actions.getByRole('button', { name: 'Copied' })).toHaveAttribute('data-state', 'copied');
  await expect(actions.locator('[data-part="message-actions-announcement"]')).toHaveText('Copied');
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  expect(copied.replace(/[*_`#]/g, '').replace(/\s+/g, ' ').trim()).toBe(text.replace(/\s+/g, ' '));

  const good = actions.getByRole('button', { name: 'Good response' });
  await expect(actions.getByRole('button', { name: 'Bad response' })).toHaveAttribute('aria-pressed', 'false');
  await expect(good).toHaveAttribute('aria-pressed', 'false');
  await good.click();
  await expect(good).toHaveAttribute('aria-pressed', 'true');
  const comment = actions.getByRole('textbox', { name: 'Tell us more (optional)' });
  await expect(comment).toBeFocused();
  await comment.fill('Quick and right.');
  await actions.getByRole('button', { name: 'Send feedback' }).click();
  await expect(comment).toHaveCount(0);
  await expect(good).toBeFocused();
  await expect(actions.locator('[data-part="message-actions-announcement"]')).toHaveText('Thanks for your feedback');

  await page.reload();
  const again = page.getByRole('log', { name: 'Conversation' }).locator('[data-part="message"][data-role="assistant"][data-state="done"]').last().getByRole('group', { name: 'Message actions' });
  await expect(again).toHaveAttribute('data-state', 'good', { timeout: 20_000 });
  await expect(again.getByRole('button', { name: 'Good response' })).toHaveAttribute('aria-pressed', 'true');

  await again.getByRole('button', { name: 'Bad response' }).click();
  await expect(again).toHaveAttribute('data-state', 'bad');
  await expect(again.getByRole('button', { name: 'Good response' })).toHaveAttribute('aria-pressed', 'false');
  await again.getByRole('button', { name: 'Skip' }).click();
  await again.getByRole('button', { name: 'Bad response' }).click();
  await expect(again).toHaveAttribute('data-state', 'none');
  await expect(again.getByRole('button', { name: 'Bad response' })).toHaveAttribute('aria-pressed', 'false');
  await expect(again.locator('[data-part="message-actions-announcement"]')).toHaveText('Feedback removed');
  expect(errors).toEqual([]);
  await context.close();
});
