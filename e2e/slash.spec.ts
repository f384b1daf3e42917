import { expect, test, type Page } from '@playwright/test';

const STORYBOOK = `http://127.0.0.1:${process.env.E2E_STORYBOOK_PORT ?? 6007}`;

/** Slash skills on the demo page (a local workspace with the built-in skills), by keyboard, in Chromium. */
test.beforeEach(async ({ page }) => {
  await page.goto('/playground.html');
  await expect(page.getByRole('region', { name: 'Chat' })).toBeVisible();
});

test('/agent: the list opens on /, Enter opens the picker, Enter picks, and the status row shows the agent', async ({ page }) => {
  const input = page.getByRole('textbox', { name: 'Message' });
  const status = page.getByRole('group', { name: 'Next message uses' });
  // Nothing picked yet: the defaults need no row.
  await expect(status).toHaveCount(0);
  await input.focus();
  await page.keyboard.type('/ag');
  const combobox = page.getByRole('combobox', { name: 'Slash skills' });
  await expect(combobox).toHaveAttribute('aria-expanded', 'true');
  const list = page.getByRole('listbox', { name: 'Slash skills' });
  await expect(list.getByRole('option').first()).toContainText('/agent');
  await expect(input).toBeFocused();
  const active = await input.getAttribute('aria-activedescendant');
  await expect(page.locator(`[id="${active}"]`)).toContainText('/agent');

  await page.keyboard.press('Enter');
  const picker = page.getByRole('dialog', { name: 'Choose an agent' });
  await expect(picker).toBeVisible();
  await expect(picker.getByRole('option').first()).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.type('research');
  await expect(picker.getByRole('option')).toHaveCount(1);
  await page.keyboard.press('Enter');
  await expect(picker).toHaveCount(0);
  await expect(status).toContainText('Agent: Researcher');
  await expect(input).toBeFocused();
});

test('/clear starts a fresh thread; the earlier one stays in the thread switcher', async ({ page }) => {
  const input = page.getByRole('textbox', { name: 'Message' });
  const log = page.getByRole('log', { name: 'Conversation' });
  await input.fill('what can you do?');
  await input.press('Enter');
  await expect(log.locator('[data-part="message"][data-role="assistant"]').last()).toHaveAttribute('data-state', 'done');

  await input.fill('/clear');
  await expect(page.getByRole('listbox', { name: 'Slash skills' }).getByRole('option').first()).toContainText('/clear');
  await input.press('Enter');
  await expect(log.locator('[data-part="message"]')).toHaveCount(0);
  const switcher = page.getByRole('combobox', { name: 'Thread' });
  await expect(switcher).toBeVisible();
  await switcher.selectOption({ index: 0 });
  await expect(log.locator('[data-part="message"][data-role="user"]').first()).toContainText('what can you do?');
});

test('/summarize with a task: the message shows the skill chip and the task, and an answer follows', async ({ page }) => {
  const input = page.getByRole('textbox', { name: 'Message' });
  await input.fill('/summarize the records');
  await expect(page.getByRole('combobox', { name: 'Slash skills' })).toHaveAttribute('aria-expanded', 'false');
  await input.press('Enter');
  const log = page.getByRole('log', { name: 'Conversation' });
  const message = log.locator('[data-part="message"][data-role="user"]').last();
  await expect(message.getByLabel('Skill /summarize')).toHaveText('/summarize');
  await expect(message).toContainText('the records');
  await expect(message).not.toContainText('[load_skill');
  const reply = log.locator('[data-part="message"][data-role="assistant"]').last();
  await expect(reply).toHaveAttribute('data-state', 'done');
  await expect(reply).not.toBeEmpty();
});

test('the list shows above the message box, inside the page, and follows it when the page is resized; a click elsewhere closes it', async ({ page }) => {
  const input = page.getByRole('textbox', { name: 'Message' });
  await input.focus();
  await page.keyboard.type('/mo');
  const popup = page.getByRole('group', { name: 'Slash skills' });
  const list = page.getByRole('listbox', { name: 'Slash skills' });
  await expect(list).toBeVisible();
  const placed = async () => {
    const [box, field, size] = await Promise.all([list.boundingBox(), page.getByRole('combobox', { name: 'Slash skills' }).boundingBox(), page.viewportSize()]);
    return { box: box!, field: field!, size: size! };
  };
  const check = async () => {
    const { box, field, size } = await placed();
    expect(box.y + box.height).toBeLessThanOrEqual(field.y);
    expect(field.y - (box.y + box.height)).toBeLessThan(40);
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(size.width);
  };
  await expect(popup).toHaveAttribute('data-side', 'top');
  await check();
  await page.setViewportSize({ width: 700, height: 640 });
  await expect.poll(async () => { const { box, field } = await placed(); return Math.round(field.y - (box.y + box.height)); }).toBeLessThan(40);
  await check();
  // The list's own option is under the pointer: clicking beside the surface closes the list.
  await page.mouse.click(2, 2);
  await expect(list).toHaveCount(0);
  await expect(input).toHaveValue('/mo');
});

test('the list stays against the message box when the page or a box around the surface scrolls', async ({ page }) => {
  // The host puts the surface in a box that scrolls, scrolled part way, and the page scrolls too.
  await page.evaluate(() => {
    const box = document.querySelector('[data-chat-surface]')!.parentElement!;
    box.style.height = '420px';
    box.style.overflow = 'auto';
    box.style.paddingBottom = '400px';
    box.scrollTop = 150;
    document.body.style.paddingBottom = '1200px';
  });
  const input = page.getByRole('textbox', { name: 'Message' });
  await input.focus();
  await page.keyboard.type('/mo');
  const list = page.getByRole('listbox', { name: 'Slash skills' });
  await expect(list).toBeVisible();
  const field = page.getByRole('combobox', { name: 'Slash skills' });
  /** Where the list is against the message box (px): beside it, above or below, never over it. */
  const against = async () => {
    const [box, at] = await Promise.all([list.boundingBox(), field.boundingBox()]);
    return { offset: Math.round(box!.y - at!.y), clear: box!.y + box!.height <= at!.y + 0.5 || box!.y >= at!.y + at!.height - 0.5 };
  };
  const placed = await against();
  expect(placed.clear).toBe(true);
  const fieldAt = async () => Math.round((await field.boundingBox())!.y);
  const before = await fieldAt();
  await page.evaluate(() => {
    document.querySelector('[data-chat-surface]')!.parentElement!.scrollTop -= 60;
  });
  await expect.poll(fieldAt).toBe(before + 60);
  await expect.poll(against).toEqual(placed);
  await page.evaluate(() => window.scrollBy(0, 50));
  await expect.poll(fieldAt).toBe(before + 10);
  await expect.poll(against).toEqual(placed);
  await expect(list).toBeVisible();
});

test('Escape closes the list and keeps the text; Tab completes a word', async ({ page }) => {
  const input = page.getByRole('textbox', { name: 'Message' });
  await input.focus();
  await page.keyboard.type('/mod');
  const list = page.getByRole('listbox', { name: 'Slash skills' });
  await expect(list).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(list).toHaveCount(0);
  await expect(input).toHaveValue('/mod');
  await input.fill('/sum');
  await expect(list.getByRole('option').first()).toContainText('/summarize');
  await page.keyboard.press('Tab');
  await expect(input).toHaveValue('/summarize ');
  await expect(input).toBeFocused();
});

test('the slash UI is a chunk of its own: fetched when the page is idle, and a / typed at once still opens the list', async ({ browser, baseURL }) => {
  // A context of its own: nothing cached, and every chunk request is seen from the first load.
  const context = await browser.newContext({ baseURL });
  const page = await context.newPage();
  const chunks = new Set<string>();
  page.on('request', (request) => {
    const name = new URL(request.url()).pathname.split('/').pop() ?? '';
    // The list's chunk (./slashList: the popup and the node queries) and the views it preloads.
    const part = /^(slashList|NodePicker|ContentPanel)-/.exec(name)?.[1];
    if (part) chunks.add(part);
  });
  await page.goto('/playground.html');
  const input = page.getByRole('textbox', { name: 'Message' });
  await input.focus();
  await page.keyboard.type('/he');
  const list = page.getByRole('listbox', { name: 'Slash skills' });
  await expect(list.getByRole('option').first()).toContainText('/help');
  await expect(page.getByRole('combobox', { name: 'Slash skills' })).toHaveAttribute('aria-expanded', 'true');
  // The picker and the panel came on idle, before any skill needed them.
  await expect.poll(() => [...chunks].sort()).toEqual(['ContentPanel', 'NodePicker', 'slashList']);
  await context.close();
});

test('5,000 skills: the highlight is drawn under the highlighted option, which is the one the message box points at and is in view, as the keys move it', async ({ page }) => {
  await page.goto(`${STORYBOOK}/iframe.html?id=slash--five-thousand-skills&viewMode=story`);
  const input = page.getByRole('textbox', { name: 'Message' });
  const list = page.getByRole('listbox', { name: 'Slash skills' });
  // The 5,000 skills of the space and the built-in ones.
  await expect(list.getByRole('option').first()).toHaveAttribute('aria-setsize', '5006');
  await input.focus();
  const keys = [...Array<string>(9).fill('ArrowDown'), 'PageDown', 'ArrowDown', 'ArrowDown', 'ArrowUp', 'End', 'ArrowUp', 'Home'];
  let expected = 0;
  for (const key of keys) {
    await page.keyboard.press(key);
    expected = key === 'Home' ? 0 : key === 'End' ? 5_005 : key === 'PageDown' ? expected + 6 : key === 'ArrowDown' ? expected + 1 : expected - 1;
    await expect.poll(() => highlightShown(page), { message: `after ${key}` }).toEqual({ posinset: expected + 1, selected: 'true', inView: true, bandOnOption: true });
  }
});

/** The option the message box points at: its place in the list, whether it is selected, in the list's view, and under the highlight band. */
function highlightShown(page: Page) {
  return page.evaluate(() => {
    const id = document.querySelector('textarea')?.getAttribute('aria-activedescendant');
    const option = id ? document.getElementById(id) : null;
    const list = document.querySelector('[data-part="slash-list"]');
    const band = document.querySelector('[data-part="slash-highlight"]');
    if (!option || !list || !band) return null;
    const [o, l, b] = [option.getBoundingClientRect(), list.getBoundingClientRect(), band.getBoundingClientRect()];
    return {
      posinset: Number(option.getAttribute('aria-posinset')),
      selected: option.getAttribute('aria-selected'),
      inView: o.top >= l.top - 0.5 && o.bottom <= l.bottom + 0.5,
      bandOnOption: Math.abs(b.top - o.top) < 1 && Math.abs(b.height - o.height) < 1,
    };
  });
}
