import { expect, test, type Locator } from '@playwright/test';

/**
 * The surface in a second language and right to left (issue 39 item 8): the German and Arabic
 * stories pass `locale`, `messages` (stories/locales) and, for Arabic, `dir="rtl"`. What a user of
 * a screen reader hears (roles and names) is in that language, counts take the language's plural
 * forms, and right to left the surface is laid out and moved through from the right.
 */
const STORYBOOK = `http://127.0.0.1:${process.env.E2E_STORYBOOK_PORT ?? 6007}`;
const story = (id: string) => `${STORYBOOK}/iframe.html?id=${id}&viewMode=story`;

const box = async (locator: Locator) => {
  const b = await locator.boundingBox();
  if (!b) throw new Error('not laid out');
  return b;
};

test.describe('German', () => {
  test.beforeEach(async ({ page }) => {
    await page.goto(story('chatsurface--german'));
    await expect(page.getByRole('log', { name: 'Unterhaltung' })).toBeVisible();
  });

  test('roles and accessible names are German, and the surface says its language', async ({ page }) => {
    const surface = page.getByRole('region', { name: 'Chat' });
    await expect(surface).toHaveAttribute('lang', 'de');
    const composer = surface.getByRole('form', { name: 'Nachricht verfassen' });
    await expect(composer.getByRole('textbox', { name: 'Nachricht' })).toHaveAttribute('placeholder', 'Frag etwas …');
    await expect(composer.getByRole('button', { name: 'Senden' })).toBeVisible();
    const approval = surface.getByRole('article', { name: 'Datensätze löschen' });
    await expect(approval).toHaveAttribute('data-state', 'pending');
    await expect(approval).toContainText('Wartet auf deine Freigabe');
    await expect(approval).toContainText('Dies ändert oder löscht Daten');
    await expect(approval.getByRole('button', { name: 'Datensätze löschen: Freigeben' })).toBeVisible();
    await expect(approval.getByRole('button', { name: 'Datensätze löschen: Ablehnen' })).toBeVisible();
    await expect(surface.getByRole('group', { name: 'Vorgeschlagene nächste Schritte' }).getByRole('button', { name: 'Datensätze zählen' })).toBeVisible();
    await expect(surface.getByRole('article', { name: 'Datensätze auflisten' })).toContainText('Fertig');
    // Nothing of the kit's own English is left on the surface.
    for (const english of ['Conversation', 'Send', 'Approve', 'Deny', 'Suggested next steps', 'Waiting for your approval', 'Done']) {
      await expect(surface.getByText(english, { exact: true })).toHaveCount(0);
    }
  });

  test('a count takes the German singular for one and the plural for several', async ({ page }) => {
    await expect(page.getByRole('article', { name: 'Datensätze auflisten' }).locator('[data-part="result-more"]')).toHaveText('und 1 weitere Zeile');
    await expect(page.getByRole('article', { name: 'Städte suchen' }).locator('[data-part="result-more"]')).toHaveText('und 3 weitere Einträge');
  });
});

test.describe('Arabic, right to left', () => {
  test.beforeEach(async ({ page }) => {
    await page.goto(story('chatsurface--arabic-rtl'));
    await expect(page.getByRole('log', { name: 'المحادثة' })).toBeVisible();
  });

  test('the surface is right to left in Arabic, with Arabic names', async ({ page }) => {
    const surface = page.getByRole('region', { name: 'الدردشة' });
    await expect(surface).toHaveAttribute('dir', 'rtl');
    await expect(surface).toHaveAttribute('lang', 'ar');
    expect(await surface.evaluate((el) => getComputedStyle(el).direction)).toBe('rtl');
    const composer = surface.getByRole('form', { name: 'كتابة رسالة' });
    await expect(composer.getByRole('textbox', { name: 'الرسالة' })).toBeVisible();
    await expect(composer.getByRole('button', { name: 'إرسال' })).toBeVisible();
    const approval = surface.getByRole('article', { name: 'حذف السجلات' });
    await expect(approval.getByRole('button', { name: 'موافقة: حذف السجلات' })).toBeVisible();
    await expect(approval.getByRole('button', { name: 'رفض: حذف السجلات' })).toBeVisible();
  });

  test('the layout is mirrored: the send button left of the message box, the user’s messages on the left', async ({ page }) => {
    const input = page.getByRole('textbox', { name: 'الرسالة' });
    const send = page.getByRole('button', { name: 'إرسال' });
    const [field, button] = [await box(input), await box(send)];
    expect(button.x + button.width).toBeLessThanOrEqual(field.x + 1);
    // The user's messages sit at the end of the line, as left to right they sit on the right: here on the left.
    const log = await box(page.getByRole('log', { name: 'المحادثة' }));
    const bubble = await box(page.locator('[data-part="message"][data-role="user"] [data-part="message-bubble"]').first());
    expect(bubble.x - log.x).toBeLessThan(log.x + log.width - (bubble.x + bubble.width));
    // And the text in the message box starts at its right edge.
    expect(await input.evaluate((el) => getComputedStyle(el).textAlign)).toMatch(/^(start|right)$/);
  });

  test('counts take the Arabic forms for one and for a few', async ({ page }) => {
    await expect(page.getByRole('article', { name: 'عرض السجلات' }).locator('[data-part="result-more"]')).toHaveText('وصف واحد آخر');
    await expect(page.getByRole('article', { name: 'البحث عن المدن' }).locator('[data-part="result-more"]')).toHaveText(/^و[3٣] عناصر أخرى$/);
  });

  test('the arrow keys move through the suggestions the way they are laid out', async ({ page }) => {
    const chips = page.getByRole('group', { name: 'الخطوات التالية المقترحة' }).getByRole('button');
    await expect(chips).toHaveCount(3);
    // The story's parts load on first use: on a busy machine the chips can render again after they first show,
    // which moves the focus to the first of them. Start once the page has loaded everything and the chips stay.
    await page.waitForLoadState('networkidle');
    const names = () => chips.allTextContents().then((texts) => texts.join('|'));
    let before = await names();
    await expect.poll(async () => before === (before = await names()), { intervals: [300] }).toBe(true);
    const [first, second, third] = [chips.nth(0), chips.nth(1), chips.nth(2)];
    // The first chip is the rightmost one, the next on its left.
    expect((await box(first)).x).toBeGreaterThan((await box(second)).x);
    await first.focus();
    await expect(first).toBeFocused();
    // ← goes to the chip on the left, the next one (left to right it would be the previous, the last).
    await page.keyboard.press('ArrowLeft');
    await expect(second).toBeFocused();
    await page.keyboard.press('ArrowLeft');
    await expect(third).toBeFocused();
    await page.keyboard.press('ArrowRight');
    await expect(second).toBeFocused();
  });
});
