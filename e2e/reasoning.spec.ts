import { expect, test, type Page } from '@playwright/test';
import { startFakeAnthropic, type FakeAnthropic, type RecordedRequest } from '../src/runtime/node/fakeAnthropic';
import { openClaudeDemo } from './fixtures/claudeDemo';
import type { DemoProcess } from './fixtures/demo';

/**
 * Reasoning (issue 41 item 2), on the reference demo answering with Claude through the contract
 * fake of the Messages API with extended thinking on (ANTHROPIC_THINKING_BUDGET): a reply that
 * thinks shows "Thinking…", then "Thought for N s" collapsed above its text; opening it shows the
 * reasoning; the tool loop's request carries the thinking block, signed, before its tool_use, and
 * the next turn's request carries it again, all accepted by the fake, which checks the signatures.
 */
test.describe.configure({ mode: 'serial' });
test.setTimeout(90_000);

type Block = { type: string; thinking?: string; signature?: string; text?: string };
const assistants = (request: RecordedRequest) => (request.body.messages as { role: string; content: Block[] }[]).filter((m) => m.role === 'assistant');
const lastIsToolResult = (request: RecordedRequest) => (request.body.messages as { role: string; content: Block[] }[]).at(-1)?.content[0]?.type === 'tool_result';

const THOUGHT = 'The user asks how many records there are. I should list them first, then count.';

let fake: FakeAnthropic;
let demo: DemoProcess;
let page: Page;

test.beforeAll(async ({ browser }) => {
  test.setTimeout(120_000);
  fake = await startFakeAnthropic({
    // Slow enough that the reasoning is seen streaming.
    delayMs: 40,
    reply: (request, index) => {
      if (lastIsToolResult(request)) return { content: [{ type: 'text', text: 'You have some records.' }] };
      if (index === 0) return { content: [{ type: 'thinking', thinking: THOUGHT }, { type: 'tool_use', name: 'records_list', input: { limit: 5 } }] };
      return { content: [{ type: 'thinking', thinking: 'A thank-you needs a short answer.' }, { type: 'text', text: 'You are welcome.' }] };
    },
  });
  ({ demo, page } = await openClaudeDemo(browser, { fake, cache: '.vite-e2e-reasoning', env: { ANTHROPIC_THINKING_BUDGET: '1024' } }));
});

test.afterAll(async () => {
  await page?.context().close();
  await demo?.close();
  await fake?.close();
});

const log = () => page.getByRole('log', { name: 'Conversation' });
const idle = () => expect(page.getByRole('button', { name: 'Stop' })).toHaveCount(0, { timeout: 20_000 });

async function say(text: string) {
  const input = page.getByRole('textbox', { name: 'Message' });
  await input.fill(text);
  await input.press('Enter');
}

test('a reply that thinks: "Thinking…" while it streams, then "Thought for N s" collapsed; opened, its text', async () => {
  await say('how many records do I have?');
  const reasoning = log().locator('[data-part="reasoning"]').first();
  await expect(reasoning).toHaveAttribute('data-state', 'streaming');
  await expect(reasoning.getByRole('button', { name: 'Thinking…' })).toBeVisible();
  await idle();
  const toggle = reasoning.getByRole('button', { name: /^Thought for \d+ s$/ });
  await expect(reasoning).toHaveAttribute('data-state', 'done');
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  await expect(log().getByRole('region', { name: 'Reasoning' })).toHaveCount(0);
  await toggle.focus();
  await page.keyboard.press('Enter');
  await expect(toggle).toHaveAttribute('aria-expanded', 'true');
  await expect(reasoning.getByRole('region', { name: 'Reasoning' })).toHaveText(THOUGHT);
  await expect(log()).toContainText('You have some records.');
});

test('the tool loop and the next turn send the thinking block back with its signature, and the fake accepts them', async () => {
  expect(fake.requests.map((r) => r.error?.message ?? r.status)).toEqual([200, 200]);
  expect(fake.requests[0]!.body.thinking).toEqual({ type: 'enabled', budget_tokens: 1024 });
  const loop = assistants(fake.requests[1]!).at(-1)!;
  expect(loop.content.map((b) => b.type)).toEqual(['thinking', 'tool_use']);
  expect(loop.content[0]).toEqual({ type: 'thinking', thinking: THOUGHT, signature: expect.stringMatching(/^fake_sig_/) });

  await say('thanks');
  await idle();
  await expect(log().locator('[data-part="reasoning"]')).toHaveCount(2);
  expect(fake.requests.map((r) => r.error?.message ?? r.status)).toEqual([200, 200, 200]);
  const earlier = assistants(fake.requests[2]!).map((m) => m.content[0]);
  expect(earlier[0]).toEqual(loop.content[0]);
});
