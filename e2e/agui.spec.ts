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

test('a messages snapshot renders its rows; a user-role message shows as the user’s; a call with no result ends', async ({ page }) => {
  const { log, say } = await open(page);
  const user = log.locator('[data-part="message"][data-role="user"]');
  const agent = log.locator('[data-part="message"][data-role="assistant"]');
  await say('snapshot');
  await expect(user.filter({ hasText: 'What did we decide yesterday?' })).toHaveCount(1);
  await expect(agent.filter({ hasText: 'We decided to ship on Friday.' })).toHaveAttribute('data-state', 'done');
  const card = log.locator('[data-part="invocation-card"][data-capability="notes.search"]');
  await expect(card).toHaveAttribute('data-state', 'done');
  await expect(card).toContainText('Ship on Friday.');
  await expect(agent.last()).toContainText('That is all so far.');
  await say('roles');
  await expect(user.filter({ hasText: 'Also: what about Tuesday?' })).toHaveCount(1);
  await expect(agent.last()).toContainText('Tuesday works.');
  await expect(log).not.toContainText('Be brief.');
  // The user's own message, echoed back by the agent, is not shown twice: snapshot, the snapshot's earlier question, roles, Tuesday.
  await expect(user).toHaveCount(4);
  await say('lookup');
  await expect(log.locator('[data-part="invocation-card"][data-capability="docs.lookup"]')).toHaveAttribute('data-state', 'done');
});
