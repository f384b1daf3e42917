import { expect, test, type Page } from '@playwright/test';
import { startFakeOpenAI, type FakeOpenAI, type FakeOpenAIReply, type RecordedOpenAIRequest } from '../src/runtime/node/fakeOpenAI';
import { demoProcess, type DemoProcess } from './fixtures/demo';

/**
 * The reference demo on an OpenAI-compatible model server (OPENAI_BASE_URL):
 * the contract fake of Chat Completions, scripted as a model would answer the
 * README's demo steps, with the demo started by this file (its own port and
 * state folder) so it can be killed and started again mid-turn. After every
 * step the fake has refused nothing: each request the driver sent after a
 * Stop, an approval or a restart is one the API accepts.
 */
const PORT = Number(process.env.E2E_OPENAI_DEMO_PORT ?? Number(process.env.E2E_REFERENCE_PORT ?? 4174) + 6);
const DEMO = `http://127.0.0.1:${PORT}/`;
const MODEL = 'gpt-fake';
test.describe.configure({ mode: 'serial' });
test.setTimeout(60_000);

/** The user's words in a request: the last user message (the turn's context slab comes before them). */
function userText(request: RecordedOpenAIRequest): string {
  const last = [...request.body.messages].reverse().find((m: { role: string }) => m.role === 'user');
  return typeof last?.content === 'string' ? last.content : '';
}

/** The model, scripted: what a model would answer the demo's sentences with. */
function reply(request: RecordedOpenAIRequest): FakeOpenAIReply {
  const messages = request.body.messages as { role: string; content: string | null }[];
  const said = userText(request);
  if (messages.at(-1)!.role === 'tool') {
    const result = (messages.at(-1)!.content ?? '').split('\n')[0]!;
    return { text: /^Exported/.test(result) ? `Done: ${result}` : 'That step has finished.' };
  }
  if (said.endsWith('enrich records limit=4')) return { toolCalls: [{ name: 'enrich_batch', arguments: { limit: 4, unscored: false } }] };
  if (said.endsWith('export to CRM')) return { text: 'I will export the enriched records.', toolCalls: [{ name: 'crm_export', arguments: {} }] };
  if (said.endsWith('tell me about the records')) return { text: 'The records come from the customers file and each one has', hang: true, delayMs: 60 };
  if (said.endsWith('walk me through every record slowly')) return { text: 'First, Ada Lovelace, then Grace Hopper, then', hang: true, delayMs: 60 };
  if (said.endsWith('how many records do I have?')) return { text: 'You have 4 records, all of them enriched.' };
  return { text: 'I am the scripted model.' };
}

let fake: FakeOpenAI;
let demo: DemoProcess;
let page: Page;

test.beforeAll(async ({ browser }) => {
  test.setTimeout(120_000);
  fake = await startFakeOpenAI({ models: [MODEL], reply });
  demo = demoProcess({
    port: PORT,
    cache: '.vite-e2e-openai-demo',
    env: { DEMO_ENRICH_DELAY_MS: '1500', OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: fake.apiKey!, OPENAI_MODEL: MODEL, ANTHROPIC_API_KEY: '' },
  });
  await demo.start();
  page = await (await browser.newContext()).newPage();
  await page.goto(DEMO);
  await expect(page.getByRole('region', { name: 'Chat' })).toBeVisible({ timeout: 30_000 });
});

test.afterAll(async () => {
  await page?.context().close();
  await demo?.close();
  await fake?.close();
});

test.afterEach(() => {
  // Whatever the step did (a Stop, an approval, a restart), the model server refused nothing.
  expect(fake.rejections().map((r) => r.error?.message)).toEqual([]);
});

const log = () => page.getByRole('log', { name: 'Conversation' });
const chips = () => page.getByRole('group', { name: 'Suggested next steps' });
const say = async (text: string) => {
  const input = page.getByRole('textbox', { name: 'Message' });
  await input.fill(text);
  await input.press('Enter');
};
const lastReply = () => log().locator('[data-part="message"][data-role="assistant"]').last();
/** The next request the driver sends is taken by the fake and answered (200). */
const nextRequestAccepted = async (from: number) => {
  await expect.poll(() => fake.requests.length).toBeGreaterThan(from);
  expect(fake.requests.slice(from).map((r) => r.error?.message ?? r.status)).toEqual(fake.requests.slice(from).map(() => 200));
};

test('the badge and the model picker name the model that answers', async () => {
  await expect(page.getByText(`Answering: ${MODEL}`)).toBeVisible();
  const input = page.getByRole('textbox', { name: 'Message' });
  await input.focus();
  await page.keyboard.type('/model');
  await expect(page.getByRole('listbox', { name: 'Slash skills' }).getByRole('option').first()).toContainText('/model');
  await page.keyboard.press('Enter');
  const picker = page.getByRole('dialog');
  await expect(picker).toBeVisible();
  await expect(picker.getByRole('option').first()).toContainText(MODEL);
  await expect(picker.getByRole('option', { name: /Offline model/ })).toBeVisible();
  await expect(picker.getByRole('option', { name: /Claude/ })).toHaveCount(0);
  await page.keyboard.press('Escape');
  await expect(picker).toHaveCount(0);
  await input.fill('');
});

test('step 1 and 2: a chip imports the CSV; the model enriches, and Stop cancels it', async () => {
  await chips().getByRole('button', { name: 'Import customers.csv' }).click();
  await expect(log().getByRole('article', { name: 'Import CSV' }).last()).toHaveAttribute('data-state', 'done');
  await expect(page.getByRole('status').filter({ hasText: 'records,' })).toHaveText('4 records, 0 enriched');

  const before = fake.requests.length;
  await say('enrich records limit=4');
  const card = log().getByRole('article', { name: 'Enrich records' }).last();
  await expect(card).toHaveAttribute('data-state', 'running');
  expect(fake.requests[before]!.body.model).toBe(MODEL);
  await page.getByRole('button', { name: 'Stop the reply' }).click();
  await expect(card).toHaveAttribute('data-state', 'cancelled');

  // The thread goes on after the Stop: the next request carries the stopped call, answered.
  const next = fake.requests.length;
  await say('how many records do I have?');
  await expect(lastReply()).toContainText(/You have 4 records/);
  await nextRequestAccepted(next);
  const sent = fake.requests.at(-1)!.body.messages as { role: string; tool_calls?: { id: string }[]; tool_call_id?: string }[];
  const call = sent.find((m) => m.tool_calls)!.tool_calls![0]!.id;
  expect(sent.some((m) => m.role === 'tool' && m.tool_call_id === call)).toBe(true);
});

test('step 6: export to CRM waits for approval; Approve runs it and the model answers from the result', async () => {
  await chips().getByRole('button', { name: 'Enrich the new records' }).click();
  await expect(log().getByRole('article', { name: 'Enrich records' }).last()).toHaveAttribute('data-state', 'done', { timeout: 20_000 });

  const before = fake.requests.length;
  await say('export to CRM');
  const approval = log().locator('[data-part="approval"]').last();
  await expect(approval).toBeVisible();
  await approval.getByRole('button', { name: 'Approve' }).click();
  await expect(log().getByRole('article', { name: 'Export to CRM' }).last()).toHaveAttribute('data-state', 'done');
  // The reply's own text, to its end (not its author or the actions under it).
  await expect(lastReply().locator('[data-part="message-text"]')).toContainText(/Done: Exported 4 enriched records to exports\/crm-[\w-]+\.csv\.$/);
  await nextRequestAccepted(before);
  const answered = fake.requests.at(-1)!.body.messages.at(-1);
  expect(answered).toMatchObject({ role: 'tool', content: expect.stringMatching(/^Exported 4 enriched records/) });
});

test('Stop mid-reply: the reply stops where it was, and the next request is accepted', async () => {
  await say('tell me about the records');
  const reply = lastReply();
  await expect(reply).toHaveAttribute('data-state', 'streaming');
  await expect(reply).toContainText('customers file');
  const index = fake.requests.length - 1;
  await page.getByRole('button', { name: 'Stop the reply' }).click();
  await fake.settled(index);
  expect(fake.requests[index]!.closedEarly).toBe(true);
  await expect(page.getByRole('button', { name: 'Stop the reply' })).toHaveCount(0);

  const next = fake.requests.length;
  await say('how many records do I have?');
  await expect(lastReply()).toContainText(/You have 4 records/);
  await nextRequestAccepted(next);
});

test('a restart of the demo server mid-reply: the reply is marked interrupted, and the next request is accepted', async () => {
  await say('walk me through every record slowly');
  const reply = lastReply();
  await expect(reply).toHaveAttribute('data-state', 'streaming');
  await expect(reply).toContainText('Grace Hopper');
  await demo.kill();
  await demo.start();
  // The page reconnects by itself and sees the cut reply closed.
  await expect(log().locator('[data-part="message"][data-role="assistant"]').filter({ hasText: 'Ada Lovelace' }).last()).toHaveAttribute('data-state', 'interrupted', { timeout: 30_000 });

  const next = fake.requests.length;
  await say('how many records do I have?');
  await expect(lastReply()).toContainText(/You have 4 records/, { timeout: 20_000 });
  await nextRequestAccepted(next);
  const sent = fake.requests.at(-1)!.body.messages as { role: string; content: string | null }[];
  expect(sent.some((m) => m.role === 'assistant' && (m.content ?? '').startsWith('First, Ada Lovelace'))).toBe(true);
});
