import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';

/**
 * The kit in host pages as a client meets them: hostile host CSS, no container height, two
 * surfaces on one page, a phone-sized viewport, and the scrolling that follows the user.
 */
const HOSTILE = '/e2e/pages/hostile.html';
const REFERENCE = `http://127.0.0.1:${process.env.E2E_REFERENCE_PORT ?? 4174}/`;

const say = async (page: Page, text: string, scope = page.locator('body')) => {
  const input = scope.getByRole('textbox', { name: 'Message' });
  await input.fill(text);
  await input.press('Enter');
};

test('hostile host CSS: the kit keeps its own alignment, fonts and box model, and scrolls inside a default height', async ({ page }) => {
  await page.goto(HOSTILE);
  const surface = page.getByRole('region', { name: 'Chat', exact: true });
  await expect(surface).toBeVisible();
  const style = await surface.evaluate((el) => {
    const s = getComputedStyle(el);
    const send = el.querySelector('[data-part="composer-send"]')!;
    const b = getComputedStyle(send);
    return { align: s.textAlign, line: s.lineHeight, font: s.fontFamily, box: s.boxSizing, sendTransform: b.textTransform, sendSize: b.fontSize, size: el.getAttribute('data-size'), height: el.getBoundingClientRect().height };
  });
  expect(style.align).toBe('start');
  expect(style.font).toContain('system-ui');
  expect(style.font).not.toContain('Georgia');
  expect(style.box).toBe('border-box');
  expect(parseFloat(style.line) / 15).toBeCloseTo(1.45, 1);
  expect(style.sendTransform).toBe('none');
  expect(style.sendSize).toBe('13px');
  // The container has no height: the surface takes the default (min(640px, 85dvh)), not its content's.
  expect(style.size).toBe('default');
  expect(style.height).toBeCloseTo(Math.min(640, 0.85 * (page.viewportSize()?.height ?? 720)), 0);

  // The welcome, with the host's starters; a starter sends its text.
  await expect(surface.getByText('What can I help with?')).toBeVisible();
  const starters = surface.getByRole('group', { name: 'Starter suggestions' });
  await expect(starters.getByRole('button')).toHaveText(['What can you do?', 'current time']);
  const message = await surface.locator('[data-part="message-text"]').first().count();
  expect(message).toBe(0);
  await starters.getByRole('button', { name: 'What can you do?' }).click();
  const log = surface.getByRole('log', { name: 'Conversation' });
  await expect(log.locator('[data-part="message"][data-role="user"]')).toHaveText(/What can you do\?/);
  await expect(log.locator('[data-part="message"][data-role="assistant"]').last()).toHaveAttribute('data-state', 'done');
  // Text inside the kit is not centred by the host's #root rule.
  const reply = log.locator('[data-part="message"][data-role="assistant"]').last();
  expect(await reply.evaluate((el) => getComputedStyle(el).textAlign)).toBe('start');

  // Enough to overflow: the transcript scrolls inside the surface; the page does not grow with it.
  // (Rows out of view leave the DOM: wait on the newest ones, not on counts.)
  for (let i = 1; i <= 4; i++) {
    await say(page, `what can you do? (${i})`, surface);
    await expect(log.locator('[data-part="message"][data-role="user"]').last()).toContainText(`(${i})`);
    await expect(log.locator('[data-part="message"][data-role="assistant"]').last()).toHaveAttribute('data-state', 'done');
  }
  const scroll = await log.evaluate((el) => ({ scrollHeight: el.scrollHeight, clientHeight: el.clientHeight }));
  expect(scroll.scrollHeight).toBeGreaterThan(scroll.clientHeight);
  expect((await surface.boundingBox())!.height).toBeCloseTo(style.height, 0);
});

test('two surfaces on one page have their own landmark names and pass axe', async ({ page }) => {
  await page.goto(HOSTILE);
  await expect(page.getByRole('region', { name: 'Chat', exact: true })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Chat 2', exact: true })).toBeVisible();
  await say(page, 'what can you do?', page.getByRole('region', { name: 'Chat 2', exact: true }));
  await expect(page.getByRole('region', { name: 'Chat 2', exact: true }).locator('[data-role="assistant"]').last()).toHaveAttribute('data-state', 'done');
  const result = await new AxeBuilder({ page }).include('[data-chat-surface]').analyze();
  expect(result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
  // The slash list's hidden cmdk label names no missing control.
  const input = page.getByRole('region', { name: 'Chat', exact: true }).getByRole('textbox', { name: 'Message' });
  await input.fill('/');
  await expect(page.getByRole('listbox', { name: 'Slash skills' })).toBeVisible();
  expect(await page.locator('[cmdk-label][for]').count()).toBe(0);
});

test('sending while scrolled up brings your message into view', async ({ page }) => {
  await page.goto('/playground.html');
  const log = page.getByRole('log', { name: 'Conversation' });
  for (let i = 1; i <= 4; i++) {
    await say(page, `what can you do? (${i})`);
    await expect(log.locator('[data-part="message"][data-role="user"]').last()).toContainText(`(${i})`);
    await expect(log.locator('[data-part="message"][data-role="assistant"]').last()).toHaveAttribute('data-state', 'done');
  }
  // The reader scrolls up (the wheel: a script's scroll just after the reply resized the rows could be the browser's pull-back to the end).
  await log.hover();
  await page.mouse.wheel(0, -3000);
  await expect(page.getByRole('button', { name: /Jump to latest/ })).toBeVisible();
  await say(page, 'current time');
  await expect(log.locator('[data-part="message"][data-role="user"]').last()).toContainText('current time');
  await expect(log.locator('[data-part="message"][data-role="user"]').last()).toBeInViewport();
  await expect(page.getByRole('button', { name: /Jump to/ })).toHaveCount(0);
  await expect(log).toHaveAttribute('data-follow', 'end');
});

test('a row waiting for a decision is scrolled into view and announced', async ({ page }) => {
  await page.goto(REFERENCE);
  await expect(page.getByRole('region', { name: 'Chat' })).toBeVisible({ timeout: 20_000 });
  await say(page, 'export to CRM');
  const log = page.getByRole('log', { name: 'Conversation' });
  const approval = log.locator('[data-part="approval"], [data-part="proposal"], [data-part="question"]').last();
  await expect(approval).toBeVisible({ timeout: 15_000 });
  await expect(approval).toBeInViewport();
  await expect(page.locator('[data-part="transcript-announcement"]')).toHaveText(/is waiting for you/);
});

test('390 px: no part is wider than the viewport, card headers do not wrap, the placeholder fits', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/playground.html');
  await say(page, 'build report sections=2');
  const card = page.getByRole('log', { name: 'Conversation' }).getByRole('article', { name: 'Build report' }).last();
  await expect(card).toHaveAttribute('data-state', 'done', { timeout: 15_000 });
  const overflow = await page.evaluate(() =>
    [...document.querySelectorAll('[data-chat-surface] *')]
      .filter((el) => el.getBoundingClientRect().right > window.innerWidth + 0.5 && el.getBoundingClientRect().width > 0)
      .map((el) => el.getAttribute('data-part') ?? el.tagName),
  );
  expect(overflow).toEqual([]);
  const header = await card.locator('[data-part="invocation-card-header"]').evaluate((el) => {
    const status = el.querySelector('[data-part="invocation-card-status"]') as HTMLElement | null;
    const title = el.querySelector('[data-part="invocation-card-title"]') as HTMLElement | null;
    const lines = (node: HTMLElement | null) => (node ? Math.round(node.getBoundingClientRect().height / parseFloat(getComputedStyle(node).lineHeight)) : 0);
    return { status: lines(status), title: lines(title) };
  });
  expect(header).toEqual({ status: 1, title: 1 });
  const input = page.getByRole('textbox', { name: 'Message' });
  await input.fill('');
  const fits = await input.evaluate((el: HTMLTextAreaElement) => el.scrollHeight <= el.clientHeight + 1);
  expect(fits).toBe(true);
});

test('after /clear a reload keeps the new thread, and the switcher still lists the first one by its message', async ({ browser }) => {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(REFERENCE);
  await expect(page.getByRole('region', { name: 'Chat' })).toBeVisible({ timeout: 20_000 });
  await say(page, 'what can you do?');
  const log = page.getByRole('log', { name: 'Conversation' });
  await expect(log.locator('[data-part="message"][data-role="assistant"]').last()).toHaveAttribute('data-state', 'done');
  await say(page, '/clear');
  const switcher = page.getByRole('combobox', { name: 'Thread' });
  await expect(switcher).toBeVisible();
  await expect(switcher.locator('option:checked')).toHaveText('New thread');
  await expect(log.locator('[data-part="message"]')).toHaveCount(0);

  await page.reload();
  await expect(page.getByRole('region', { name: 'Chat' })).toBeVisible({ timeout: 20_000 });
  await expect(switcher).toBeVisible();
  await expect(switcher.locator('option:checked')).toHaveText('New thread');
  await expect(switcher.locator('option')).toHaveText(['what can you do?', 'New thread']);
  await expect(log.locator('[data-part="message"]')).toHaveCount(0);
  await switcher.selectOption({ label: 'what can you do?' });
  await expect(log.locator('[data-part="message"][data-role="user"]').first()).toContainText('what can you do?');
  await context.close();
});
