import { expect, test, type Locator, type Page } from '@playwright/test';
import { startFakeAnthropic, type FakeAnthropic, type RecordedRequest } from '../src/runtime/node/fakeAnthropic';
import { openClaudeDemo } from './fixtures/claudeDemo';
import type { DemoProcess } from './fixtures/demo';

/**
 * Edit and regenerate as branches (issue 40 item 1), on the reference demo answering with Claude
 * through the contract fake of the Messages API (ANTHROPIC_BASE_URL), the demo started by this file
 * so it can be restarted. The second message is edited three times and its reply regenerated
 * twice; "Previous version" / "Next version" move through every version, each with its own
 * continuation; a reload and a server restart keep them; the next turn's request to the model
 * holds exactly the branch on screen.
 */
test.describe.configure({ mode: 'serial' });
test.setTimeout(90_000);

/** The text of a Messages API message (a string, or its text blocks). */
const textOf = (content: unknown): string =>
  typeof content === 'string' ? content : Array.isArray(content) ? content.map((b: { type?: string; text?: string }) => (b.type === 'text' ? (b.text ?? '') : '')).join('') : '';
/** The conversation of a request, as `role: text` lines (the turn's context slab may stand before the user's words). */
const conversation = (request: RecordedRequest): string[] => (request.body.messages as { role: string; content: unknown }[]).map((m) => `${m.role}: ${textOf(m.content)}`);

let fake: FakeAnthropic;
let demo: DemoProcess;
let page: Page;
let replies = 0;

test.beforeAll(async ({ browser }) => {
  test.setTimeout(120_000);
  // The model answers with a numbered line about the user's last words.
  fake = await startFakeAnthropic({
    reply: (request) => {
      const messages = request.body.messages as { role: string; content: unknown }[];
      // The user's words: the last line of the last message, without the router's tag before them.
      const last = (textOf(messages.at(-1)?.content).split('\n').at(-1) ?? '').replace(/<[^>]*>/g, '');
      return { text: `Reply ${++replies} to ${last}.` };
    },
  });
  ({ demo, page } = await openClaudeDemo(browser, { fake, cache: '.vite-e2e-versions' }));
});

test.afterAll(async () => {
  await page?.context().close();
  await demo?.close();
  await fake?.close();
});

const log = () => page.getByRole('log', { name: 'Conversation' });
const users = () => log().locator('[data-part="message"][data-role="user"]');
const assistants = () => log().locator('[data-part="message"][data-role="assistant"]');
const versionsOf = (message: Locator) => message.getByRole('group', { name: 'Versions' });
const idle = () => expect(page.getByRole('button', { name: 'Stop' })).toHaveCount(0, { timeout: 20_000 });

async function say(text: string) {
  const input = page.getByRole('textbox', { name: 'Message' });
  await input.fill(text);
  await input.press('Enter');
  await expect(users().last()).toContainText(text);
  await idle();
}

async function editSecond(text: string) {
  const second = users().nth(1);
  await second.hover();
  await second.getByRole('button', { name: 'Edit message' }).click();
  const box = second.getByRole('textbox', { name: 'Edit your message' });
  await expect(box).toBeFocused();
  await box.fill(text);
  await second.getByRole('button', { name: 'Send' }).click();
  await expect(users().nth(1)).toContainText(text);
  await idle();
}

/** The shown texts of the second exchange: its message and its reply. */
async function secondExchange(): Promise<[string, string]> {
  const textOf = (message: Locator) => message.locator('[data-part="message-text"]').innerText();
  return [(await textOf(users().nth(1))).trim(), (await textOf(assistants().nth(1))).trim()];
}

test('three edits and two regenerations: every version with its own continuation, one at a time', async () => {
  await say('first question');
  await say('second question');
  for (const v of ['v2', 'v3', 'v4']) await editSecond(`second question ${v}`);
  await expect(versionsOf(users().nth(1))).toContainText('4 / 4');
  await expect(users()).toHaveCount(2);
  await expect(assistants().nth(1)).toContainText('to second question v4.');
  for (let k = 0; k < 2; k++) {
    await assistants().nth(1).getByRole('button', { name: 'Regenerate' }).click();
    await idle();
  }
  const reply = versionsOf(assistants().nth(1));
  await expect(reply).toContainText('3 / 3');
  await expect(assistants()).toHaveCount(2);
  const regenerated = await assistants().nth(1).locator('[data-part="message-text"]').innerText();

  // Back through the replies, then through the messages: each version shows its own continuation.
  await reply.getByRole('button', { name: 'Previous version' }).click();
  await expect(reply).toContainText('2 / 3');
  await reply.getByRole('button', { name: 'Previous version' }).click();
  await expect(reply).toContainText('1 / 3');
  await expect(reply.getByRole('button', { name: 'Previous version' })).toBeDisabled();
  await expect(assistants().nth(1)).toContainText('to second question v4.');
  const picker = versionsOf(users().nth(1));
  const seen: string[] = [];
  for (let k = 0; k < 3; k++) {
    await picker.getByRole('button', { name: 'Previous version' }).click();
    await expect(picker).toContainText(`${3 - k} / 4`);
    seen.push((await secondExchange()).join(' → '));
  }
  expect(seen).toEqual([
    expect.stringMatching(/^second question v3 → Reply \d+ to second question v3\.$/),
    expect.stringMatching(/^second question v2 → Reply \d+ to second question v2\.$/),
    expect.stringMatching(/^second question → Reply \d+ to second question\.$/),
  ]);
  // Never two versions at once.
  await expect(users()).toHaveCount(2);
  await expect(assistants()).toHaveCount(2);
  // Forward to the newest message again: its reply is the one last shown there.
  for (let k = 0; k < 3; k++) await picker.getByRole('button', { name: 'Next version' }).click();
  await expect(picker).toContainText('4 / 4');
  await expect(versionsOf(assistants().nth(1))).toContainText('1 / 3');
  await versionsOf(assistants().nth(1)).getByRole('button', { name: 'Next version' }).click();
  await versionsOf(assistants().nth(1)).getByRole('button', { name: 'Next version' }).click();
  await expect(assistants().nth(1).locator('[data-part="message-text"]')).toHaveText(regenerated);
});

test('after a reload and after a server restart the same versions are there', async () => {
  // A restarted dev server transforms the page's modules again on the first load: slow on a busy machine.
  test.setTimeout(240_000);
  const before = await secondExchange();
  await page.reload();
  await expect(versionsOf(users().nth(1))).toContainText('4 / 4');
  await expect(versionsOf(assistants().nth(1))).toContainText('3 / 3');
  expect(await secondExchange()).toEqual(before);
  await demo.kill();
  await demo.start();
  // A new visit (the old page's dev client reloads itself once the server is back).
  const old = page;
  page = await old.context().newPage();
  await old.close();
  await page.goto(demo.url, { timeout: 150_000 });
  await expect(versionsOf(users().nth(1))).toContainText('4 / 4', { timeout: 60_000 });
  await expect(versionsOf(assistants().nth(1))).toContainText('3 / 3');
  expect(await secondExchange()).toEqual(before);
});

test('the next turn’s request to the model holds exactly the branch on screen', async () => {
  // Show the second version of the message (with its one reply), then ask on.
  const picker = versionsOf(users().nth(1));
  for (let k = 0; k < 2; k++) await picker.getByRole('button', { name: 'Previous version' }).click();
  await expect(picker).toContainText('2 / 4');
  const [message, answer] = await secondExchange();
  const from = fake.requests.length;
  await say('third question');
  await expect.poll(() => fake.requests.length).toBeGreaterThan(from);
  const sent = conversation(fake.requests.at(-1)!);
  const first = (await assistants().nth(0).locator('[data-part="message-text"]').innerText()).trim();
  expect(sent.filter((line) => !line.startsWith('user: ') || line.includes('question'))).toEqual([
    expect.stringMatching(/^user: (.|\n)*first question$/),
    `assistant: ${first}`,
    expect.stringMatching(new RegExp(`^user: (.|\\n)*${message}$`)),
    `assistant: ${answer}`,
    expect.stringMatching(/^user: (.|\n)*third question$/),
  ]);
  // No word of a version not shown.
  expect(sent.join('\n')).not.toMatch(/second question v[34]|second question\n|Reply \d+ to second question\.$/m);
  expect(fake.requests.filter((r) => r.status !== 200)).toEqual([]);
});
