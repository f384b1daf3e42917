import { expect, test, type Page } from '@playwright/test';
import { startOwnDemo, type OwnDemo } from './fixtures/demo';

/**
 * The offline model on the reference demo (issue 42), in Chromium: the
 * composed flow in the user's words, two steps of one message run in order,
 * and a two-step request said twice offered as a skill and saved. Strict
 * alignment throughout: the steps are named, so they run without a proposal.
 * A demo of its own (its own records: the steps import and enrich them), so the steps run in order.
 */
let demo: OwnDemo;
test.describe.configure({ mode: 'serial', timeout: 60_000 });

let page: Page;
test.beforeAll(async ({ browser }, info) => {
  // The dev server compiles the page on its first load: slow on a busy machine.
  info.setTimeout(120_000);
  demo = await startOwnDemo();
  page = await (await browser.newContext()).newPage();
  await page.goto(demo.url);
  await expect(page.getByRole('region', { name: 'Chat' })).toBeVisible({ timeout: 100_000 });
});
test.afterAll(async () => {
  await page?.context().close();
  await demo?.stop();
});

const chips = () => page.getByRole('group', { name: 'Suggested next steps' });
const log = () => page.getByRole('log', { name: 'Conversation' });
const say = async (text: string) => {
  const input = page.getByRole('textbox', { name: 'Message' });
  await input.fill(text);
  await input.press('Enter');
};
const replies = () => log().locator('[data-part="message"][data-role="assistant"]');
const cards = (name: string) => log().getByRole('article', { name });
const status = () => page.getByRole('status').filter({ hasText: 'records,' });

test('the composed flow in words: after an import, "yeah, do that for the unscored ones" enriches them with the Enricher, its check passes, the next chips show', async () => {
  await expect(page.getByText('Answering: Offline model')).toBeVisible();
  await say('Import CSV customers.csv');
  await expect(cards('Import CSV').last()).toHaveAttribute('data-state', 'done');
  await expect(status()).toHaveText('4 records, 0 enriched');
  await expect(chips().getByRole('button', { name: 'Enrich the new records' })).toBeVisible();

  await say('yeah, do that for the unscored ones');
  const card = cards('Enrich records').last();
  await expect(card).toHaveAttribute('data-state', 'running');
  await expect(page.getByRole('list', { name: 'Working now' })).toContainText('Enricher');
  await expect(card).toHaveAttribute('data-state', 'done', { timeout: 20_000 });
  await expect(log().locator('[data-part="proposal"]')).toHaveCount(0);
  await expect(card.locator('[data-part="checks"]')).toHaveText('✓ checked: 4 more enriched records');
  await expect(replies().last()).toHaveAttribute('data-state', 'done');
  await expect(replies().last().locator('[data-part="message-text"]')).toHaveText('Enriched 4 records.');
  await expect(status()).toHaveText('4 records, 4 enriched');
  await expect(chips().getByRole('button', { name: 'Export the enriched records to the CRM' })).toBeVisible();
});

test('two steps in one message run in order, each with its card and its report', async () => {
  const before = await cards('Enrich records').count();
  await say('Import CSV new-leads.csv and then Enrich records for the unscored ones');
  await expect(cards('Import CSV').last()).toHaveAttribute('data-state', 'done');
  await expect(cards('Enrich records')).toHaveCount(before + 1);
  const enrich = cards('Enrich records').last();
  await expect(enrich).toHaveAttribute('data-state', 'done', { timeout: 20_000 });
  await expect(enrich.locator('[data-part="checks"]')).toHaveText('✓ checked: 2 more enriched records');
  await expect(log().locator('[data-part="proposal"]')).toHaveCount(0);
  await expect(replies().last().locator('[data-part="message-text"]')).toHaveText('Enriched 2 records.');
  await expect(replies().nth(-2).locator('[data-part="message-text"]')).toHaveText('Imported 2 records from new-leads.csv.');
  await expect(status()).toHaveText('6 records, 6 enriched');
});

test('a two-step request said twice is offered as a skill, and saving it says how to run it again', async () => {
  const offer = () => log().getByRole('article', { name: /Save as a skill|Save this as|Saved as/ });
  await say('Enrich records for the unscored ones, then List records');
  await expect(replies().last().locator('[data-part="message-text"]')).toHaveText('You have 6 records; all 6 are enriched.');
  await expect(offer()).toHaveCount(0);

  await say('Enrich records for the unscored ones, then List records');
  await expect(offer()).toHaveCount(1);
  await expect(offer()).toHaveAttribute('data-state', 'pending');
  await expect(offer()).toContainText('Save this as /enrich-records-then-list-records?');
  await expect(offer().getByRole('list', { name: 'Steps' }).getByRole('listitem')).toHaveText(['Enrich records', 'List records']);
  await offer().getByRole('button', { name: 'Save as /enrich-records-then-list-records' }).click();
  await expect(offer()).toHaveAttribute('data-state', 'saved');
  await expect(offer()).toContainText('Type /enrich-records-then-list-records to run it again.');
  if (process.env.E2E_SHOTS) await page.screenshot({ path: `${process.env.E2E_SHOTS}/offline-skill-offer.png`, fullPage: true });
});

test('what it cannot do is said back in one sentence, and nothing runs', async () => {
  const before = await log().locator('[data-part="invocation-card"]').count();
  await say('export only the software ones to the CRM');
  await expect(replies().last().locator('[data-part="message-text"]')).toHaveText('I can export to CRM, but not only the software ones.');
  await say('delete Barbara Liskov');
  await expect(replies().last().locator('[data-part="message-text"]')).toHaveText(/^I can't delete Barbara Liskov here; I can /);
  await expect(log().locator('[data-part="invocation-card"]')).toHaveCount(before);
  await expect(log().locator('[data-part="proposal"], [data-part="approval"]')).toHaveCount(0);
});
