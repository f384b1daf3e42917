import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';

/**
 * The reference demo as a client sees it: the records app beside the chat, on
 * the kit's server (npm run demo), with the offline model. One shared server
 * and database, so the steps run in order.
 */
const DEMO = `http://127.0.0.1:${process.env.E2E_REFERENCE_PORT ?? 4174}/`;
test.describe.configure({ mode: 'serial' });

let page: Page;
test.beforeAll(async ({ browser }) => {
  page = await (await browser.newContext()).newPage();
  await page.goto(DEMO);
  await expect(page.getByRole('region', { name: 'Chat' })).toBeVisible({ timeout: 20_000 });
});
test.afterAll(async () => page.context().close());

const chips = () => page.getByRole('group', { name: 'Suggested next steps' });
const log = () => page.getByRole('log', { name: 'Conversation' });
const say = async (text: string) => {
  const input = page.getByRole('textbox', { name: 'Message' });
  await input.fill(text);
  await input.press('Enter');
};
const lastReply = () => log().locator('[data-part="message"][data-role="assistant"]').last();

/** What the user reads of the cards, chips, rows and replies on screen, without the Details disclosures. */
const readable = () =>
  page.evaluate(() => {
    const parts = [...document.querySelectorAll('[data-part="invocation-card"], [data-part="suggestion-chip"], [data-part="proposal"], [data-part="approval"], [data-part="question"], [data-part="violation"], [data-part="standing"], [data-part="message"][data-role="assistant"]')];
    return parts.map((el) => {
      const copy = el.cloneNode(true) as HTMLElement;
      copy.querySelectorAll('details, [data-part="message-author"]').forEach((d) => d.remove());
      return `${el.getAttribute('data-part')}: ${(copy.textContent ?? '').replace(/\s+/g, ' ').trim()}`;
    });
  });
/** Everything the walk showed, gathered after each step (the transcript only keeps what is near the viewport). */
const walk = new Set<string>();
test.afterEach(async () => {
  for (const t of await readable()) walk.add(t);
});

test('importing a CSV fills the records list, and the chips then offer enrichment', async () => {
  await expect(page.getByText('Answering: Offline model')).toBeVisible();
  await chips().getByRole('button', { name: 'Import customers.csv' }).click();
  const card = log().getByRole('article', { name: 'Import CSV' }).last();
  await expect(card).toHaveAttribute('data-state', 'done');
  await expect(page.getByRole('status').filter({ hasText: 'records,' })).toHaveText('4 records, 0 enriched');
  await expect(page.getByRole('table')).toContainText('Grace Hopper');
  await expect(chips().getByRole('button', { name: 'Enrich the new records' })).toBeVisible();
  await expect(log().locator('[data-part="violation"]')).toHaveCount(0);
});

test('Stop during enrichment cancels it', async () => {
  await say('enrich records limit=4');
  const card = log().getByRole('article', { name: 'Enrich records' }).last();
  await expect(card).toHaveAttribute('data-state', 'running');
  await page.getByRole('button', { name: 'Stop the reply' }).click();
  await expect(card).toHaveAttribute('data-state', 'cancelled');
  await expect(page.getByRole('list', { name: 'Working now' })).toHaveCount(0);
});

test('accepting the enrichment chip shows the Enricher with progress, passes its checks, and changes the chips', async () => {
  await chips().getByRole('button', { name: 'Enrich the new records' }).click();
  const card = log().getByRole('article', { name: 'Enrich records' }).last();
  await expect(card).toHaveAttribute('data-state', 'running');
  const cast = page.getByRole('list', { name: 'Working now' });
  await expect(cast).toContainText('Enricher');
  await expect(card.getByRole('progressbar', { name: 'Enrich records progress' })).toBeVisible();
  await expect(card).toHaveAttribute('data-state', 'done', { timeout: 15_000 });
  await expect(log().locator('[data-part="violation"]')).toHaveCount(0);
  await expect(page.getByRole('status').filter({ hasText: 'records,' })).toHaveText('4 records, 4 enriched');
  await expect(chips().getByRole('button', { name: 'Export the enriched records to the CRM' })).toBeVisible();
});

test('a CSV whose rows insert nothing shows a quality violation that the reply acknowledges', async () => {
  await say('Import CSV broken.csv');
  const violation = log().locator('[data-part="violation"]').last();
  await expect(violation).toBeVisible();
  await expect(violation).toContainText('Import CSV');
  await expect(violation).toContainText('records +2');
  await expect(violation).toContainText('records +0');
  await expect(lastReply()).toHaveAttribute('data-state', 'done');
  await expect(lastReply()).toContainText(/check|should have added/i);
});

test('"keep an eye on new records every week" gets exactly one clarifying question', async () => {
  await say('keep an eye on new records every week');
  const question = log().locator('[data-part="question"]').last();
  await expect(question).toContainText('Just this once, or should I keep watching it for you?');
  await expect(log().locator('[data-part="question"][data-state="pending"]')).toHaveCount(1);
  await question.getByRole('button', { name: 'Keep watching' }).click();
  await expect(question).toHaveAttribute('data-state', 'answered');
  await expect(log().locator('[data-part="standing"]').last()).toContainText('every week');
  await expect(log().locator('[data-part="question"][data-state="pending"]')).toHaveCount(0);
});

test('an export asks for approval, waits, and writes the file once approved', async () => {
  await say('export to CRM');
  const approval = log().locator('[data-part="approval"]').last();
  await expect(approval).toHaveAttribute('data-state', 'pending');
  await page.waitForTimeout(1_000);
  await expect(approval).toHaveAttribute('data-state', 'pending');
  const cards = log().locator('[data-part="invocation-card"][data-capability="crm.export"]');
  await expect(cards).toHaveCount(0);
  await approval.getByRole('button', { name: 'Approve Export to CRM' }).click();
  await expect(approval).toHaveAttribute('data-state', 'approved');
  const card = cards.last();
  await expect(card).toHaveAttribute('data-state', 'done');
  await expect(card).toContainText('Exported 4 records');
});

test('a corpus search returns the tenant’s notes', async () => {
  await say('Search the notes for enrichment batches');
  const card = log().getByRole('article', { name: 'Search the notes' }).last();
  await expect(card).toHaveAttribute('data-state', 'done');
  await expect(card).toContainText('How we enrich records');
  await expect(card).not.toContainText('Globex');
});

test('the composed flow: after an import, "yeah, do that for the unscored ones" enriches exactly the unscored records, checks pass, next chips', async () => {
  const listed = async () => ((await (await page.request.get(`${DEMO}app/records`)).json()) as { records: { id: number; enriched_at: string | null }[] }).records;
  const scoredBefore = (await listed()).filter((r) => r.enriched_at !== null).map((r) => [r.id, r.enriched_at]);
  expect(scoredBefore).toHaveLength(4);
  await say('Import CSV new-leads.csv');
  await expect(log().getByRole('article', { name: 'Import CSV' }).last()).toHaveAttribute('data-state', 'done');
  await expect(page.getByRole('status').filter({ hasText: 'records,' })).toHaveText('6 records, 4 enriched');
  // Pattern 3: the record list after an import suggests enrichment.
  await expect(chips().getByRole('button', { name: 'Enrich the new records' })).toBeVisible();

  const turns: string[] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST' && /\/turns$/.test(new URL(request.url()).pathname)) turns.push(request.url());
  });
  await say('yeah, do that for the unscored ones');
  // Accepting the suggestion in words is naming it: it runs, no proposal.
  const card = log().getByRole('article', { name: 'Enrich records' }).last();
  await expect(card).toHaveAttribute('data-state', 'running');
  await expect(page.getByRole('list', { name: 'Working now' })).toContainText('Enricher');
  await expect(card).toHaveAttribute('data-state', 'done', { timeout: 15_000 });
  await expect(log().locator('[data-part="proposal"][data-state="pending"]')).toHaveCount(0);
  await expect(card.locator('[data-part="checks"]')).toHaveText('✓ checked: 2 more enriched records');
  await expect(lastReply()).toHaveAttribute('data-state', 'done');
  await expect(lastReply().locator('[data-part="message-text"]')).toHaveText('Enriched 2 records.');
  await expect(page.getByRole('status').filter({ hasText: 'records,' })).toHaveText('6 records, 6 enriched');
  // Exactly the unscored ones: the four enriched before were left as they were.
  const after = await listed();
  expect(after.filter((r) => scoredBefore.some(([id]) => id === r.id)).map((r) => [r.id, r.enriched_at])).toEqual(scoredBefore);
  // The next chips come from the map: no model call after the turn.
  await expect(chips().getByRole('button', { name: 'Export the enriched records to the CRM' })).toBeVisible();
  await page.waitForTimeout(500);
  expect(turns).toHaveLength(1);
  if (process.env.E2E_SHOTS) await page.screenshot({ path: `${process.env.E2E_SHOTS}/composed-flow.png`, fullPage: true });
});

test('no card, chip, row or reply of the walk shows machine words outside Details', async () => {
  const manifest = (await (await page.request.get(`${DEMO}v1/manifest`)).json()) as { capabilities: { name: string }[] };
  const names = manifest.capabilities.map((c) => c.name);
  expect(names).toContain('enrich.batch');
  for (const t of await readable()) walk.add(t);
  const texts = [...walk];
  expect(texts.length).toBeGreaterThan(20);
  const forbidden: [string, RegExp][] = [
    ...names.map((n): [string, RegExp] => [`machine name ${n}`, new RegExp(`(^|[^\\w.])${n.replace(/[.]/g, '\\.')}($|[^\\w])`)]),
    ['a raw key (snake_case)', /\b[a-z]+_[a-z_]+\b/],
    ['exit code', /exit code/i],
    ['milliseconds', /\d\s*ms\b/],
    ['JSON', /[{[]\s*"|":\s*|\bnull\b|\bundefined\b/],
    ['zod wording', /Invalid input|expected (?:number|string|boolean)|Too (?:big|small)|received undefined/i],
    ['a raw arrow count', /\d+ -> \d+/],
  ];
  const found = texts.flatMap((t) => forbidden.filter(([, re]) => re.test(t)).map(([what]) => `${what} in "${t.slice(0, 160)}"`));
  expect(found).toEqual([]);
});

test('axe finds no violations on the demo page', async () => {
  const result = await new AxeBuilder({ page }).analyze();
  expect(result.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`)).toEqual([]);
});
