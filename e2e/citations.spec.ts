import { expect, test, type Page } from '@playwright/test';
import { startFakeAnthropic, type FakeAnthropic, type RecordedRequest } from '../src/runtime/node/fakeAnthropic';
import { openClaudeDemo } from './fixtures/claudeDemo';
import type { DemoProcess } from './fixtures/demo';

/**
 * Citations (issue 41 item 3), on the reference demo answering with Claude through the contract
 * fake of the Messages API, with extended thinking (ANTHROPIC_THINKING_BUDGET) and citations
 * (ANTHROPIC_CITATIONS=1) on: the capability's result goes to the model as a citable search
 * result; the reply that cites it shows "Thought for N s" above the turn's text, a numbered marker
 * after the cited words and a "Sources" list under the reply; activating marker 1 moves focus to
 * source 1.
 */
test.describe.configure({ mode: 'serial' });
test.setTimeout(90_000);

type Block = { type: string; [key: string]: unknown };
const lastIsToolResult = (request: RecordedRequest) => (request.body.messages as { role: string; content: Block[] }[]).at(-1)?.content[0]?.type === 'tool_result';

let fake: FakeAnthropic;
let demo: DemoProcess;
let page: Page;

test.beforeAll(async ({ browser }) => {
  test.setTimeout(120_000);
  fake = await startFakeAnthropic({
    delayMs: 20,
    reply: (request) =>
      lastIsToolResult(request)
        ? {
            content: [
              { type: 'text', text: 'You have ' },
              { type: 'text', text: 'a few records', citations: [{ search_result: 0 }] },
              { type: 'text', text: ', listed newest last.' },
            ],
          }
        : { content: [{ type: 'thinking', thinking: 'The user asks how many records there are; list them.' }, { type: 'tool_use', name: 'records_list', input: { limit: 5 } }] },
  });
  ({ demo, page } = await openClaudeDemo(browser, { fake, cache: '.vite-e2e-citations', env: { ANTHROPIC_THINKING_BUDGET: '1024', ANTHROPIC_CITATIONS: '1' } }));
});

test.afterAll(async () => {
  await page?.context().close();
  await demo?.close();
  await fake?.close();
});

const log = () => page.getByRole('log', { name: 'Conversation' });
const idle = () => expect(page.getByRole('button', { name: 'Stop' })).toHaveCount(0, { timeout: 20_000 });

test('a reply with thinking and citations: "Thought for N s", a numbered marker after the cited words, and its Sources', async () => {
  const input = page.getByRole('textbox', { name: 'Message' });
  await input.fill('how many records do I have?');
  await input.press('Enter');
  await idle();
  await expect(log().getByRole('button', { name: /^Thought for \d+ s$/ })).toBeVisible();
  const marker = log().getByRole('link', { name: 'Source 1: List records' });
  await expect(marker).toHaveText('[1]');
  const reply = log().locator('[data-part="message"][data-role="assistant"]').filter({ has: page.getByRole('link', { name: 'Source 1: List records' }) });
  await expect(reply.locator('[data-part="markdown"]')).toHaveText('You have a few records[1], listed newest last.');
  const sources = reply.getByRole('list', { name: 'Sources' });
  const first = sources.getByRole('listitem').first();
  await expect(first).toContainText('List records');
  await expect(first).toContainText('passage 1');
  // The cited passage is the first block of the result the model was given, quoted as text.
  const sent = (fake.requests[1]!.body.messages as { content: Block[] }[]).at(-1)!.content[0]!.content as { content: { text: string }[] }[];
  await expect(first.locator('[data-part="source-quote"]')).toHaveText(sent[0]!.content[0]!.text);
  // The search result's source is the capability's name, not a web address: no link.
  await expect(first.getByRole('link')).toHaveCount(0);
});

test('activating marker 1 moves focus to source 1', async () => {
  const marker = log().getByRole('link', { name: 'Source 1: List records' });
  await marker.focus();
  await page.keyboard.press('Enter');
  const source = log().getByRole('list', { name: 'Sources' }).getByRole('listitem').first();
  await expect(source).toBeFocused();
});

test('the result went to the model as a citable search result, and the fake took every request', async () => {
  expect(fake.requests.map((r) => r.error?.message ?? r.status)).toEqual([200, 200]);
  const result = (fake.requests[1]!.body.messages as { role: string; content: Block[] }[]).at(-1)!.content[0]!;
  expect((result.content as Block[])[0]).toMatchObject({ type: 'search_result', source: 'records.list', title: 'List records', citations: { enabled: true } });
});
