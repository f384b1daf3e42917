import { expect, test } from '@playwright/test';

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
    const part = /^(SlashPopup|NodePicker|ContentPanel)-/.exec(name)?.[1];
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
  await expect.poll(() => [...chunks].sort()).toEqual(['ContentPanel', 'NodePicker', 'SlashPopup']);
  await context.close();
});
