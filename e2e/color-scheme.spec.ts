import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';

/**
 * The demo pages follow the OS theme (`color-scheme: light dark`), and so does the surface in them
 * (theme="host" reads the page's scheme): dark page, light text in dark mode, readable, axe-clean.
 */
const REFERENCE = `http://127.0.0.1:${process.env.E2E_REFERENCE_PORT ?? 4174}/`;
const PAGES = [
  { title: 'the playground', url: '/playground.html' },
  { title: 'the reference demo', url: REFERENCE },
];

type Rgb = [number, number, number];
const rgb = (css: string): Rgb => {
  const parts = css.match(/[\d.]+/g)?.map(Number) ?? [];
  expect(parts.length, `a colour: ${css}`).toBeGreaterThanOrEqual(3);
  if (parts.length > 3) expect(parts[3], `an opaque colour: ${css}`).toBe(1);
  return [parts[0]!, parts[1]!, parts[2]!];
};
/** WCAG relative luminance. */
const luminance = ([r, g, b]: Rgb) => {
  const channel = (c: number) => ((c /= 255) <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
  return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
};
const contrast = (a: Rgb, b: Rgb) => {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
};

/** The page's and the surface's colours as the user sees them. */
const colours = async (page: Page) => {
  const read = await page.evaluate(() => {
    const surface = document.querySelector('[data-chat-surface]')!;
    const body = getComputedStyle(document.body);
    const s = getComputedStyle(surface);
    return { pageBg: body.backgroundColor, pageFg: body.color, surfaceBg: s.backgroundColor, surfaceFg: s.color };
  });
  return { pageBg: rgb(read.pageBg), pageFg: rgb(read.pageFg), surfaceBg: rgb(read.surfaceBg), surfaceFg: rgb(read.surfaceFg) };
};

for (const demo of PAGES) {
  test(`${demo.title} follows the OS theme: dark page and surface, light text, readable and axe-clean`, async ({ page }) => {
    await page.emulateMedia({ colorScheme: 'light' });
    await page.goto(demo.url);
    const surface = page.getByRole('region', { name: 'Chat', exact: true });
    await expect(surface).toBeVisible({ timeout: 20_000 });
    // The page declares both schemes, so the surface (theme="host") follows the user's.
    await expect(surface).toHaveAttribute('data-theme', 'system');
    const light = await colours(page);
    expect(luminance(light.pageBg)).toBeGreaterThan(0.7);
    expect(luminance(light.surfaceFg)).toBeLessThan(0.1);

    await page.emulateMedia({ colorScheme: 'dark' });
    const dark = await colours(page);
    expect(luminance(dark.pageBg)).toBeLessThan(0.05);
    expect(luminance(dark.surfaceBg)).toBeLessThan(0.05);
    expect(luminance(dark.pageFg)).toBeGreaterThan(0.7);
    expect(luminance(dark.surfaceFg)).toBeGreaterThan(0.7);
    expect(dark.pageBg).not.toEqual(light.pageBg);
    expect(dark.surfaceFg).not.toEqual(light.surfaceFg);
    expect(contrast(dark.pageFg, dark.pageBg)).toBeGreaterThanOrEqual(7);
    expect(contrast(dark.surfaceFg, dark.surfaceBg)).toBeGreaterThanOrEqual(7);
    // The surface stands apart from the page behind it.
    expect(dark.surfaceBg).not.toEqual(dark.pageBg);

    // A turn, so the transcript's rows are checked in dark too.
    const input = surface.getByRole('textbox', { name: 'Message' });
    await input.fill('what can you do?');
    await input.press('Enter');
    await expect(surface.locator('[data-part="message"][data-role="assistant"]').last()).toHaveAttribute('data-state', 'done', { timeout: 15_000 });
    const result = await new AxeBuilder({ page }).analyze();
    expect(result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
  });
}
