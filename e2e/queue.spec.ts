import { expect, test } from '@playwright/test';
import { startOwnDemo, type OwnDemo } from './fixtures/demo';

/**
 * Typing while a reply runs, on a demo of its own (the offline model; enrichment takes 1.5 s a
 * record): messages sent then wait in a visible queue under the transcript and are sent after the
 * reply, in order; one can be edited first.
 */
let demo: OwnDemo;
test.beforeAll(async () => {
  test.setTimeout(120_000);
  demo = await startOwnDemo();
});
test.afterAll(async () => demo?.stop());

test('messages sent during a reply wait in a queue and are sent after it, in order', async ({ page }) => {
  test.setTimeout(120_000);
  const errors: string[] = [];
  page.on('console', (message) => void (message.type() === 'error' && errors.push(message.text())));
  await page.goto(demo.url);
  await expect(page.getByRole('region', { name: 'Chat' })).toBeVisible({ timeout: 30_000 });
  const log = page.getByRole('log', { name: 'Conversation' });
  const input = page.getByRole('textbox', { name: 'Message' });
  const say = async (text: string) => {
    await input.fill(text);
    await input.press('Enter');
  };

  await page.getByRole('group', { name: 'Suggested next steps' }).getByRole('button', { name: 'Import customers.csv' }).click();
  await expect(log.getByRole('article', { name: 'Import CSV' }).last()).toHaveAttribute('data-state', 'done');
  await say('enrich records limit=4');
  await expect(log.getByRole('article', { name: 'Enrich records' }).last()).toHaveAttribute('data-state', /running|streaming/);

  await say('how many records are there?');
  await say('how many are enriched?');
  const queue = page.getByRole('region', { name: 'Queued messages' });
  await expect(queue).toHaveAttribute('data-state', 'waiting');
  await expect(queue.getByRole('listitem')).toHaveText([/how many records are there\?/, /how many are enriched\?/]);
  await expect(queue.getByRole('status')).toHaveText('2 messages will be sent, in order, when the reply ends.');
  // Not sent yet: the transcript's last message of the user's is still the enrichment.
  await expect(log.locator('[data-part="message"][data-role="user"]').last()).toContainText('enrich records limit=4');

  await queue.getByRole('button', { name: 'Edit: how many are enriched?' }).click();
  const box = queue.getByRole('textbox', { name: 'Edit the queued message' });
  await expect(box).toBeFocused();
  await box.fill('how many records are enriched?');
  await queue.getByRole('button', { name: 'Save' }).click();

  await expect(queue).toHaveCount(0, { timeout: 60_000 });
  const mine = log.locator('[data-part="message"][data-role="user"] [data-part="message-text"]');
  await expect(mine).toHaveText(['enrich records limit=4', 'how many records are there?', 'how many records are enriched?'], { timeout: 30_000 });
  await expect(log.getByRole('article', { name: 'Enrich records' }).last()).toHaveAttribute('data-state', 'done');
  expect(errors).toEqual([]);
});
