import { readFileSync } from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';

/** Every story of the static Storybook renders without an error and passes axe. */
const STORYBOOK = `http://127.0.0.1:${process.env.E2E_STORYBOOK_PORT ?? 6007}`;
const index = JSON.parse(readFileSync('storybook-static/index.json', 'utf8')) as {
  entries: Record<string, { id: string; title: string; name: string; type: string }>;
};
const stories = Object.values(index.entries).filter((entry) => entry.type === 'story');

test('the Storybook has stories', () => {
  expect(stories.length).toBeGreaterThanOrEqual(8);
});

for (const story of stories) {
  test(`story ${story.title} / ${story.name} renders and passes axe`, async ({ page }) => {
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(`${STORYBOOK}/iframe.html?id=${story.id}&viewMode=story`);
    const root = page.locator('#storybook-root');
    await expect(root.locator(':scope > *').first()).toBeVisible();
    await expect(page.locator('body')).not.toHaveClass(/sb-show-errordisplay/);
    await expect(page.locator('[data-chat-surface]').first()).toBeVisible();
    // A story is a fragment of a page: landmark rules about the whole page do not apply to it. An MCP
    // App's view is the MCP server's own document, not the kit's, so its frame is left out (the
    // frame's accessible name is asserted in e2e/mcp-app.spec.ts).
    const result = await analyzeWhenFree(() => axe(page).disableRules(['region']).analyze());
    expect(result.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`)).toEqual([]);
    // The other theme too: every surface of the story switched to the one it does not show, colour contrast checked again.
    await page.evaluate(() => {
      for (const el of document.querySelectorAll('[data-chat-surface]')) el.setAttribute('data-theme', el.getAttribute('data-theme') === 'dark' ? 'light' : 'dark');
    });
    const other = await analyzeWhenFree(() => axe(page).withRules(['color-contrast']).analyze());
    expect(other.violations.map((v) => `${v.id} (other theme): ${v.nodes.map((n) => `${n.target.join(' ')} ${n.any[0]?.message ?? ''}`).join(', ')}`)).toEqual([]);
    expect(errors).toEqual([]);
  });
}

/**
 * Axe over the story's root, leaving out MCP App frames (a third party's document) and diagram
 * frames (the model's drawing, in a frame sandboxed without scripts, where axe cannot run; the
 * frame's name is asserted in e2e/diagrams.spec.ts).
 */
function axe(page: Page): AxeBuilder {
  return new AxeBuilder({ page }).include('#storybook-root').exclude('[data-part="mcp-app-frame"]').exclude('[data-part="diagram-frame"]');
}

/** Storybook's a11y addon runs axe after each render too; wait for it rather than collide. */
async function analyzeWhenFree<T>(run: () => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await run();
    } catch (error) {
      if (attempt >= 20 || !String(error).includes('Axe is already running')) throw error;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
}
