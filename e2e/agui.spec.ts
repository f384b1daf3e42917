import { expect, test, type Page } from '@playwright/test';

/** `<ChatSurface>` on an AG-UI agent (the official client over an encoder-built event stream), in Chromium. */
const STORYBOOK = `http://127.0.0.1:${process.env.E2E_STORYBOOK_PORT ?? 6007}`;

async function open(page: Page) {
  await page.goto(`${STORYBOOK}/iframe.html?id=ag-ui--agent&viewMode=story`);
  const log = page.getByRole('log', { name: 'Conversation' });
  const say = async (text: string) => {
    const input = page.getByRole('textbox', { name: 'Message' });
    await input.fill(text);
    await input.press('Enter');
  };
  return { log, say };
}

test('streams the agent’s reply into an assistant row, its step in a card while it runs', async ({ page }) => {
  const { log, say } = await open(page);
  await say('hello');
  const reply = log.locator('[data-part="message"][data-role="assistant"]').last();
  await expect(reply).toHaveAttribute('data-state', 'streaming');
  await expect(reply).toHaveAttribute('data-state', 'done');
  await expect(reply).toContainText('Hello, I am an AG-UI agent.');
  await expect(log.getByRole('article', { name: 'think' })).toHaveAttribute('data-state', 'done');
});

test('the agent’s tool call is a card, its interrupt an approval row; Approve resumes the run', async ({ page }) => {
  const { log, say } = await open(page);
  await say('deploy');
  const approval = log.locator('[data-part="approval"]').last();
  await expect(approval).toHaveAttribute('data-state', 'pending');
  await expect(approval).toContainText('Deploy build 42 to production?');
  const card = log.locator('[data-part="invocation-card"][data-capability="deploy.run"]');
  await expect(card).toContainText('{"build":42}');
  await approval.getByRole('button', { name: /^Approve/ }).click();
  await expect(approval).toHaveAttribute('data-state', 'approved');
  await expect(card).toHaveAttribute('data-state', 'done');
  await expect(card).toContainText('Deployed build 42.');
  await expect(log.locator('[data-part="message"][data-role="assistant"]').last()).toContainText('Deployed.');
});

test('a frontend tool: the agent calls the page’s Add note, which runs in the page, and the run goes on', async ({ page }) => {
  const { log, say } = await open(page);
  await say('note buy milk');
  const card = log.getByRole('article', { name: 'Add note' });
  await expect(card).toHaveAttribute('data-state', 'done');
  await expect(log.locator('[data-part="message"][data-role="assistant"]').last()).toContainText('The note tool said: Saved “buy milk”.');
});
