import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { startOwnDemo, type OwnDemo } from './fixtures/demo';

/**
 * Attachments end to end on the reference demo (npm run demo, the offline model): a CSV chosen
 * with the file chooser and "import this" imports that very file, its check passing; a pasted
 * PNG shows as a thumbnail before and after sending; a 30 MB file and a program named .png are
 * refused in the server's words with nothing stored; another user cannot fetch the file.
 * A demo of its own (its own records and state folder), so the imports here change no other spec's records.
 */
const state = mkdtempSync(join(tmpdir(), 'chatsurface-attachments-e2e-'));
/** The demo's attachment files, beside its workspace database. */
const STORED = join(state, 'attachments');
const stored = () => {
  try {
    return readdirSync(STORED).filter((name) => !name.endsWith('.part')).length;
  } catch {
    return 0;
  }
};
let demo: OwnDemo;
let DEMO = '';

test.describe.configure({ mode: 'serial' });
test.setTimeout(60_000);

let page: Page;
test.beforeAll(async ({ browser }) => {
  test.setTimeout(120_000);
  demo = await startOwnDemo({ DEMO_STATE: state, DEMO_GUESTS_PER_ADDRESS: '1000' });
  DEMO = demo.url;
  page = await (await browser.newContext()).newPage();
  await page.goto(DEMO);
  await expect(page.getByRole('region', { name: 'Chat' })).toBeVisible({ timeout: 20_000 });
});
test.afterAll(async () => {
  await page?.context().close();
  await demo?.stop();
  rmSync(state, { recursive: true, force: true });
});

const log = () => page.getByRole('log', { name: 'Conversation' });
const composer = () => page.getByRole('form', { name: 'Message composer' });
const tray = () => composer().getByRole('list', { name: 'Files to send' });
const say = async (text: string) => {
  const input = page.getByRole('textbox', { name: 'Message' });
  await input.fill(text);
  await input.press('Enter');
};
/** Chooses files with the browser's file chooser, through the Attach files button. */
async function choose(files: { name: string; mimeType: string; buffer: Buffer }[] | string) {
  const chooser = page.waitForEvent('filechooser');
  await composer().getByRole('button', { name: 'Attach files' }).click();
  await (await chooser).setFiles(files);
}

/** A 1×1 PNG. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');
let pngId = '';

test('a CSV attached with the file chooser is what "import this" imports, and its check passes', async () => {
  // Names no other test imports (the records are the demo's, shared): these rows come only from this file.
  const tag = Date.now().toString(36);
  const rows = [`Mary Jackson,mary-${tag}@wind.example,Wind Tunnels,https://wind.example,33,US,2020-02-02`, `Frances Allen,frances-${tag}@compilers.example,Compilers Inc,https://compilers.example,80,US,2018-08-08`];
  const csv = `name,email,company,website,employees,country,since\n${rows.join('\n')}\n`;
  await choose([{ name: 'customers.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) }]);
  const chip = tray().getByRole('listitem').filter({ hasText: 'customers.csv' });
  await expect(chip).toHaveAttribute('data-state', 'ready');
  await expect(chip.getByRole('button', { name: 'Remove customers.csv' })).toBeVisible();
  await say('import this');
  // Sent: the chip leaves the composer and the message shows the file.
  await expect(tray()).toHaveCount(0);
  const sent = log().locator('[data-part="message"][data-role="user"]').last();
  await expect(sent.getByRole('list', { name: 'Attached files' }).getByRole('button', { name: /^Download customers\.csv/ })).toBeVisible();
  // The offline model proposes the registered import on that file; accepting runs it.
  const proposal = log().locator('[data-part="proposal"]').last();
  await expect(proposal).toContainText('customers.csv');
  await proposal.getByRole('button', { name: /^Accept/ }).click();
  const card = log().getByRole('article', { name: 'Import CSV' }).last();
  await expect(card).toHaveAttribute('data-state', 'done', { timeout: 20_000 });
  await expect(card).toContainText('Imported 2 records from customers.csv');
  // The postcondition counted the attached file's rows (2), not the data folder's customers.csv (4).
  await expect(card.locator('[data-part="checks"]')).toContainText('✓ checked:');
  await expect(card.locator('[data-part="checks"]')).toContainText('2');
  await expect(log().locator('[data-part="violation"]')).toHaveCount(0);
  await expect(page.getByRole('table')).toContainText('Mary Jackson');
});

test('a pasted PNG is a thumbnail before sending and after', async () => {
  await page.getByRole('textbox', { name: 'Message' }).focus();
  await page.evaluate((bytes) => {
    const data = new DataTransfer();
    data.items.add(new File([Uint8Array.from(bytes)], 'screenshot.png', { type: 'image/png' }));
    document.activeElement!.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
  }, [...PNG]);
  const chip = tray().getByRole('listitem').filter({ hasText: 'screenshot.png' });
  await expect(chip).toHaveAttribute('data-kind', 'image');
  await expect(chip.locator('img[data-part="attachment-thumb"]')).toBeVisible();
  await expect(chip).toHaveAttribute('data-state', 'ready');
  const uploaded = page.waitForResponse((r) => r.url().includes('/v1/threads/') && r.request().method() === 'POST' && r.url().includes('/turns'));
  await say('what is in this picture?');
  const body = (await uploaded).request().postDataJSON() as { attachments: string[] };
  pngId = body.attachments[0]!;
  const sent = log().locator('[data-part="message"][data-role="user"]').last();
  const open = sent.getByRole('button', { name: 'Open screenshot.png full size' });
  await expect(open.locator('img')).toBeVisible();
  await expect(sent.locator('[data-part="message-file"]')).toHaveAttribute('data-state', 'ready');
  await open.click();
  const dialog = page.getByRole('dialog', { name: 'screenshot.png' });
  await expect(dialog.getByRole('img', { name: 'screenshot.png' })).toBeVisible();
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(dialog).toBeHidden();
  // The offline model says it cannot look inside, by the file's name.
  await expect(log().locator('[data-part="message"][data-role="assistant"]').last()).toContainText('screenshot.png');
});

test('a 30 MB file and a program named .png are refused in plain words, nothing stored, the message kept', async () => {
  const before = stored();
  const input = page.getByRole('textbox', { name: 'Message' });
  await input.fill('keep these words');
  // A file on disk (a 30 MB buffer is more than the browser protocol carries well).
  const huge = join(mkdtempSync(join(tmpdir(), 'chatsurface-attach-')), 'huge.pdf');
  writeFileSync(huge, Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(30 * 1024 * 1024)]));
  await choose(huge);
  const hugeChip = tray().getByRole('listitem').filter({ hasText: 'huge.pdf' });
  await expect(hugeChip).toHaveAttribute('data-state', 'refused', { timeout: 30_000 });
  await expect(hugeChip.getByRole('alert')).toHaveText(/^huge\.pdf was not attached: The file is larger than 20 MB/);
  const exe = Buffer.concat([Buffer.from('MZ\x90\x00\x03\x00\x00\x00', 'latin1'), Buffer.alloc(600)]);
  await choose([{ name: 'photo.png', mimeType: 'image/png', buffer: exe }]);
  const fake = tray().getByRole('listitem').filter({ hasText: 'photo.png' });
  await expect(fake).toHaveAttribute('data-state', 'refused');
  await expect(fake.getByRole('alert')).toContainText('photo.png was not attached: This file looks like');
  await expect(fake.getByRole('alert')).toContainText('which cannot be attached here');
  await expect(input).toHaveValue('keep these words');
  expect(stored()).toBe(before);
  // Removing a refused chip: by its name, and the tray goes when it is empty.
  await hugeChip.getByRole('button', { name: 'Remove huge.pdf' }).click();
  await fake.getByRole('button', { name: 'Remove photo.png' }).click();
  await expect(tray()).toHaveCount(0);
});

test('another user cannot fetch the file (404), its owner can', async ({ browser }) => {
  expect(pngId).toMatch(/^att_/);
  const mine = await page.request.get(`${DEMO}v1/attachments/${pngId}`);
  expect(mine.status()).toBe(200);
  expect(mine.headers()['content-type']).toBe('image/png');
  const other = await browser.newContext();
  const stranger = await other.newPage();
  await stranger.goto(DEMO);
  await expect(stranger.getByRole('region', { name: 'Chat' })).toBeVisible({ timeout: 20_000 });
  const theirs = await stranger.request.get(`${DEMO}v1/attachments/${pngId}`);
  expect(theirs.status()).toBe(404);
  await other.close();
});
