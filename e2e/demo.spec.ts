import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';

test.beforeEach(async ({ page }) => {
  await page.goto('/playground.html');
  await expect(page.getByRole('region', { name: 'Chat' })).toBeVisible();
});

test('naming a slow capability shows its card running, then done, and its actor in the cast row', async ({ page }) => {
  const input = page.getByRole('textbox', { name: 'Message' });
  await input.fill('build report sections=3');
  await input.press('Enter');

  const log = page.getByRole('log', { name: 'Conversation' });
  await expect(log.locator('[data-part="message"][data-role="user"]')).toHaveText(/build report sections=3/);

  const card = log.getByRole('article', { name: 'Build report' });
  await expect(card).toHaveAttribute('data-state', /^(running|streaming)$/);
  await expect(card.getByRole('progressbar', { name: 'Build report progress' })).toBeVisible();

  const cast = page.getByRole('list', { name: 'Working now' });
  await expect(cast.getByRole('listitem')).toHaveText(/Analyst.*Build report/);
  await expect(page.getByRole('status')).toHaveText('Analyst started Build report.');

  await expect(card).toHaveAttribute('data-state', 'done', { timeout: 15_000 });
  await expect(card).toContainText('Report with 3 sections');
  await expect(cast).toHaveCount(0);
  await expect(page.getByRole('status')).toHaveText('Analyst finished Build report.');

  const reply = log.locator('[data-part="message"][data-role="assistant"]').last();
  await expect(reply).toHaveAttribute('data-state', 'done');
  await expect(reply).toContainText('The report has 3 sections.');
});

test('bad arguments give a field-level error on the card and run nothing', async ({ page }) => {
  const input = page.getByRole('textbox', { name: 'Message' });
  await input.fill('build report sections=99');
  await input.press('Enter');
  const card = page.getByRole('article', { name: 'Build report' });
  await expect(card).toHaveAttribute('data-state', 'failed');
  await expect(card.getByRole('list', { name: 'Problems with the arguments' })).toHaveText(/^Sections must be \d+ or less\.$/);
  await expect(page.getByRole('list', { name: 'Working now' })).toHaveCount(0);
  await expect(page.locator('[data-part="message"][data-role="assistant"] [data-part="message-text"]').last()).toHaveText(/^Build report was not run: Sections must be \d+ or less\.$/);
});

test('a running invocation can be cancelled from its card', async ({ page }) => {
  const input = page.getByRole('textbox', { name: 'Message' });
  await input.fill('build report sections=20');
  await input.press('Enter');
  const card = page.getByRole('article', { name: 'Build report' });
  await expect(card).toHaveAttribute('data-state', /^(running|streaming)$/);
  await card.getByRole('button', { name: 'Cancel Build report' }).click();
  await expect(card).toHaveAttribute('data-state', 'cancelled');
  await expect(card).toContainText('Cancelled');
  await expect(page.getByRole('list', { name: 'Working now' })).toHaveCount(0);
});

test('the composer: Send is disabled while empty, Shift+Enter adds a line, Enter sends', async ({ page }) => {
  const input = page.getByRole('textbox', { name: 'Message' });
  const send = page.getByRole('button', { name: 'Send' });
  await expect(send).toBeDisabled();
  await input.fill('   ');
  await expect(send).toBeDisabled();
  await input.fill('what can');
  await input.press('Shift+Enter');
  await input.pressSequentially('you do?');
  await expect(input).toHaveValue('what can\nyou do?');
  await expect(send).toBeEnabled();
  await input.press('Enter');
  await expect(input).toHaveValue('');
  const reply = page.locator('[data-part="message"][data-role="assistant"]').last();
  await expect(reply).toHaveAttribute('data-state', 'done');
  await expect(reply).toContainText('Build report');
  await expect(page.locator('[data-part="driver-badge"]')).toHaveText('Answering: Offline model');
});

test('axe finds no violations on the demo page, before and after a turn', async ({ page }) => {
  const before = await new AxeBuilder({ page }).analyze();
  expect(before.violations.map((v) => `${v.id}: ${v.help}`)).toEqual([]);

  const input = page.getByRole('textbox', { name: 'Message' });
  // Six sections (2.4 s): long enough to catch the card running on a loaded machine.
  await input.fill('build report sections=6');
  await input.press('Enter');
  await expect(page.getByRole('article', { name: 'Build report' })).toHaveAttribute('data-state', /^(running|streaming)$/);
  const during = await new AxeBuilder({ page }).analyze();
  expect(during.violations.map((v) => `${v.id}: ${v.help}`)).toEqual([]);
  await expect(page.getByRole('article', { name: 'Build report' })).toHaveAttribute('data-state', 'done', { timeout: 15_000 });
  const after = await new AxeBuilder({ page }).analyze();
  expect(after.violations.map((v) => `${v.id}: ${v.help}`)).toEqual([]);
});
