import { expect, test, type Page } from '@playwright/test';

/** A host renderer gets a call's arguments while the model writes them (the Writing arguments stories). */
const STORYBOOK = `http://127.0.0.1:${process.env.E2E_STORYBOOK_PORT ?? 6007}`;
const open = (page: Page, id: string) => page.goto(`${STORYBOOK}/iframe.html?id=writing-arguments--${id}&viewMode=story`);

test('a call the model is writing shows its card, "Writing arguments…", with the arguments so far and no Cancel', async ({ page }) => {
  await open(page, 'midway');
  const card = page.getByRole('article', { name: 'Search records' });
  const status = card.locator('[data-part="invocation-card-status"]');
  await expect(status).toHaveText('Writing arguments…');
  await expect(status).toHaveAttribute('data-state', 'writing');
  await expect(card.getByTestId('search-filters')).toHaveText('Searching records where stage: lead');
  await expect(card.getByRole('button', { name: /Cancel/ })).toHaveCount(0);
});

test('streamed arguments fill the renderer as they come, then the same card runs and shows its rows', async ({ page }) => {
  await open(page, 'streaming');
  const box = page.getByRole('textbox', { name: 'Message' });
  await box.fill('Find the Acme leads.');
  await box.press('Enter');
  const card = page.getByRole('article', { name: 'Search records' });
  await expect(card.locator('[data-part="invocation-card-status"]')).toHaveText('Writing arguments…');
  const filters = card.getByTestId('search-filters');
  await expect(filters).toContainText('stage: lead');
  await expect(filters).toContainText('company: Acme');
  await expect(card.locator('[data-part="invocation-card-status"]')).toHaveText(/^Done/);
  const table = card.getByRole('table', { name: '2 records where stage: lead, company: Acme, limit: 20' });
  await expect(table.getByRole('row')).toHaveCount(3);
  await expect(page.getByRole('article', { name: 'Search records' })).toHaveCount(1);
});
