import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { expect, test, type Locator, type Page } from '@playwright/test';

/**
 * The README's "Using it" snippet dropped into the parents hosts use (e2e/pages/sizing/README.md):
 * in each, at a desktop and a phone size, the transcript shows at least 5 messages and scrolls
 * inside itself while the page and the surface keep their size and the composer stays in view.
 */
const FIXTURES = 'e2e/pages/sizing';

interface Parent {
  title: string;
  page: string;
  /** What ChatSurface.Root decides: `fill` a container with a definite height, else its `default` height. */
  size: 'fill' | 'default';
}

const PARENTS: Parent[] = [
  { title: 'create-vite react template', page: 'vite-react', size: 'default' },
  { title: 'create-vite react-ts template', page: 'vite-react-ts', size: 'default' },
  { title: 'a flex column with a min-height', page: 'flex-min-height', size: 'default' },
  { title: 'a grid cell', page: 'grid-cell', size: 'fill' },
  { title: 'a plain block in a scrolling page', page: 'scrolling-block', size: 'default' },
  { title: "create-next-app's App Router page", page: 'next-app', size: 'default' },
];

const VIEWPORTS = [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
];

const say = async (surface: Locator, text: string) => {
  const input = surface.getByRole('textbox', { name: 'Message' });
  await input.fill(text);
  await input.press('Enter');
};

/** The messages whose whole box lies inside the log's visible box. */
const wholeMessagesInView = (log: Locator) =>
  log.evaluate((el) => {
    const box = el.getBoundingClientRect();
    return [...el.querySelectorAll('[data-part="message"]')].filter((row) => {
      const r = row.getBoundingClientRect();
      return r.height > 0 && r.top >= box.top - 1 && r.bottom <= box.bottom + 1;
    }).length;
  });

const pageBox = (page: Page) => page.evaluate(() => ({ height: document.scrollingElement!.scrollHeight, scrollY: window.scrollY }));

test('the fixtures keep the generators\u2019 CSS unmodified, as pinned in templates.json', () => {
  const pins = JSON.parse(readFileSync(`${FIXTURES}/templates.json`, 'utf8')) as Record<string, { version: string; files: Record<string, { sha256: string }> }>;
  expect(Object.keys(pins).sort()).toEqual(['create-next-app', 'create-vite']);
  for (const { version, files } of Object.values(pins)) {
    expect(version).toMatch(/^\d+\.\d+\.\d+$/);
    for (const [file, { sha256 }] of Object.entries(files)) {
      const actual = createHash('sha256').update(readFileSync(`${FIXTURES}/${file}`)).digest('hex');
      expect(actual, `${file} differs from its generator's (see ${FIXTURES}/README.md)`).toBe(sha256);
    }
  }
  // The React templates' #root is the reported parent: a flex column that only has a min-height.
  for (const template of ['vite-react', 'vite-react-ts']) {
    const css = readFileSync(`${FIXTURES}/${template}/index.css`, 'utf8');
    expect(css).toMatch(/#root \{[^}]*min-height: 100svh;[^}]*display: flex;[^}]*flex-direction: column;/);
  }
});

for (const viewport of VIEWPORTS) {
  for (const parent of PARENTS) {
    test(`${parent.title} at ${viewport.width} px: the transcript shows 5 messages and scrolls inside`, async ({ page }) => {
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      await page.setViewportSize(viewport);
      await page.goto(`/${FIXTURES}/${parent.page}.html`);
      const surface = page.getByRole('region', { name: 'Chat', exact: true });
      await expect(surface).toHaveAttribute('data-size', parent.size);
      // The surface takes its parent's width, never its messages'.
      const width = await surface.evaluate((el) => {
        const outer = el.parentElement!;
        const s = getComputedStyle(outer);
        return { surface: el.getBoundingClientRect().width, content: outer.clientWidth - parseFloat(s.paddingLeft) - parseFloat(s.paddingRight) };
      });
      expect(width.surface).toBeCloseTo(width.content, 0);

      await surface.scrollIntoViewIfNeeded();
      await expect(surface).toBeInViewport({ ratio: 0.99 });
      const before = { page: await pageBox(page), surface: (await surface.boundingBox())!.height };
      if (parent.size === 'default') expect(before.surface).toBeCloseTo(Math.min(640, 0.85 * viewport.height), 0);

      const log = surface.getByRole('log', { name: 'Conversation' });
      const composer = surface.getByRole('textbox', { name: 'Message' });
      const exchange = async (i: number) => {
        await say(surface, `hello (${i})`);
        await expect(log.locator('[data-part="message"][data-role="user"]').last()).toContainText(`(${i})`);
        await expect(log.locator('[data-part="message"][data-role="assistant"]').last()).toHaveAttribute('data-state', 'done');
      };
      // Three exchanges: six messages, at least five of them whole in view at once.
      for (let i = 1; i <= 3; i++) await exchange(i);
      await expect.poll(() => wholeMessagesInView(log)).toBeGreaterThanOrEqual(5);

      // More, until the log overflows: it scrolls inside; the page and the surface keep their size.
      let i = 3;
      while (i < 16 && (await log.evaluate((el) => el.scrollHeight <= el.clientHeight))) await exchange(++i);
      const scroll = await log.evaluate((el) => ({ scrollHeight: el.scrollHeight, clientHeight: el.clientHeight }));
      expect(scroll.scrollHeight).toBeGreaterThan(scroll.clientHeight);
      await expect.poll(() => wholeMessagesInView(log)).toBeGreaterThanOrEqual(5);
      await expect(log.locator('[data-part="message"][data-role="assistant"]').last()).toBeInViewport({ ratio: 1 });
      expect(await pageBox(page)).toEqual(before.page);
      expect((await surface.boundingBox())!.height).toBeCloseTo(before.surface, 0);
      await expect(composer).toBeInViewport({ ratio: 1 });
      await expect(composer).toBeFocused();
      expect(errors).toEqual([]);
    });
  }
}

test('once the parent has a definite height the surface fills it (probed again on a resize)', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(`/${FIXTURES}/flex-min-height.html`);
  const surface = page.getByRole('region', { name: 'Chat', exact: true });
  await expect(surface).toHaveAttribute('data-size', 'default');
  // The host gives the column a height: on the next resize the surface fills what is left under the heading.
  await page.addStyleTag({ content: '#root { height: 100svh; }' });
  await page.setViewportSize({ width: 1200, height: 700 });
  await expect(surface).toHaveAttribute('data-size', 'fill');
  const fill = await surface.evaluate((el) => ({ bottom: el.getBoundingClientRect().bottom, root: el.parentElement!.getBoundingClientRect().bottom }));
  expect(fill.bottom).toBeCloseTo(fill.root, 0);
  expect(fill.root).toBeCloseTo(700, 0);
});

test('a surface first rendered inside a closed panel is sized when the panel opens', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(`/${FIXTURES}/flex-min-height.html?hidden`);
  const surface = page.getByRole('region', { name: 'Chat', exact: true });
  await expect(surface).toBeHidden();
  await page.getByRole('button', { name: 'Open the chat' }).click();
  await expect(surface).toBeVisible();
  await expect(surface).toHaveAttribute('data-size', 'default');
  expect((await surface.boundingBox())!.height).toBeCloseTo(640, 0);
});

test('flex: 1 on the surface fills a min-height column instead, and still scrolls inside', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(`/${FIXTURES}/vite-react-ts.html`);
  await page.addStyleTag({ content: '#root > [data-chat-surface] { flex: 1; }' });
  const surface = page.getByRole('region', { name: 'Chat', exact: true });
  await expect(surface).toHaveAttribute('data-size', 'default');
  await expect.poll(async () => (await surface.boundingBox())!.height).toBeCloseTo(800, 0);
  const log = surface.getByRole('log', { name: 'Conversation' });
  for (let i = 1; i <= 12 && (await log.evaluate((el) => el.scrollHeight <= el.clientHeight)); i++) {
    await say(surface, `hello (${i})`);
    await expect(log.locator('[data-part="message"][data-role="assistant"]').last()).toHaveAttribute('data-state', 'done');
  }
  expect(await log.evaluate((el) => el.scrollHeight > el.clientHeight)).toBe(true);
  expect((await surface.boundingBox())!.height).toBeCloseTo(800, 0);
  expect(await page.evaluate(() => document.scrollingElement!.scrollHeight)).toBe(800);
});

test('the probe on a window resize leaves the page where the reader scrolled it', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(`/${FIXTURES}/scrolling-block.html`);
  const surface = page.getByRole('region', { name: 'Chat', exact: true });
  await expect(surface).toHaveAttribute('data-size', 'default');
  await page.evaluate(() => window.scrollTo(0, document.scrollingElement!.scrollHeight));
  const bottom = await page.evaluate(() => window.scrollY);
  expect(bottom).toBeGreaterThan(800);
  // Only the height changes: nothing reflows, so the reader's place stays exactly where it was.
  await page.setViewportSize({ width: 1280, height: 790 });
  await page.waitForTimeout(200);
  expect(await page.evaluate(() => window.scrollY)).toBe(bottom);
  await expect(surface).toHaveAttribute('data-size', 'default');
});

test('the Sizing stories show each decision: fill in a container with a height, default in a min-height column and a scrolling page', async ({ page }) => {
  const storybook = `http://127.0.0.1:${process.env.E2E_STORYBOOK_PORT ?? 6007}`;
  await page.setViewportSize({ width: 1280, height: 800 });
  for (const [id, size, height] of [
    ['sizing--fills-its-container', 'fill', 420],
    ['sizing--min-height-column', 'default', 640],
    ['sizing--in-a-scrolling-page', 'default', 640],
  ] as const) {
    await page.goto(`${storybook}/iframe.html?id=${id}&viewMode=story`);
    const surface = page.getByRole('region', { name: 'Chat', exact: true });
    await expect(surface).toHaveAttribute('data-size', size);
    expect((await surface.boundingBox())!.height, id).toBeCloseTo(height, 0);
    const log = surface.getByRole('log', { name: 'Conversation' });
    await expect(log.locator('[data-part="message"][data-role="assistant"]').last()).toHaveAttribute('data-state', 'done');
    await expect.poll(() => log.evaluate((el) => el.scrollHeight > el.clientHeight), id).toBe(true);
  }
});
