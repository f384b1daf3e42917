import { expect, test, type Page } from '@playwright/test';

/** ```mermaid fences in Chromium, with the real mermaid (a devDependency here), through the Diagrams stories. */
const STORYBOOK = `http://127.0.0.1:${process.env.E2E_STORYBOOK_PORT ?? 6007}`;
const open = (page: Page, id: string) => page.goto(`${STORYBOOK}/iframe.html?id=diagrams--${id}&viewMode=story`);

test('a flowchart is drawn in a sandboxed frame named "Diagram", sized to it, with its source a toggle away', async ({ page }) => {
  await open(page, 'drawn');
  const diagram = page.locator('[data-part="diagram"]');
  await expect(diagram).toHaveAttribute('data-state', 'drawn');
  const frame = page.getByTitle('Diagram');
  await expect(frame).toHaveAttribute('sandbox', '');
  const drawn = page.frameLocator('iframe[title="Diagram"]');
  await expect(drawn.locator('svg')).toBeVisible();
  await expect(drawn.locator('svg')).toContainText('customers.csv');
  // Sized to the diagram: as wide as the SVG's viewBox at most, its height from its aspect ratio.
  const box = (await frame.boundingBox())!;
  const viewBox = (await drawn.locator('svg').first().getAttribute('viewBox'))!.split(/[\s,]+/).map(Number);
  expect(box.width).toBeLessThanOrEqual(viewBox[2]! + 2);
  expect(Math.abs(box.height / box.width - viewBox[3]! / viewBox[2]!)).toBeLessThan(0.05);

  const toggle = page.getByRole('button', { name: 'Show source' });
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  await toggle.click();
  await expect(toggle).toHaveAttribute('aria-expanded', 'true');
  await expect(page.getByRole('group', { name: 'mermaid' })).toContainText('A[customers.csv] --> B{Valid rows?}');
});

test('text in a diagram that tries to run script is drawn and runs nothing', async ({ page }) => {
  const dialogs: string[] = [];
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  await open(page, 'hostile-text');
  await expect(page.locator('[data-part="diagram"]')).toHaveAttribute('data-state', 'drawn');
  const drawn = page.frameLocator('iframe[title="Diagram"]');
  await expect(drawn.locator('svg')).toContainText('Import');
  await drawn.locator('svg').getByText('Import').click({ force: true }).catch(() => {});
  await drawn.locator('svg').getByText('Check').click({ force: true }).catch(() => {});
  await page.waitForTimeout(300);
  expect(await page.evaluate(() => (window as { __diagramRan?: unknown }).__diagramRan)).toBeUndefined();
  expect(dialogs).toEqual([]);
  // The SVG lives only in the frame's document, never in the page's.
  expect(await page.locator('#storybook-root svg[id^="cs-diagram"]').count()).toBe(0);
});

test('a diagram mermaid cannot parse stays as code with the reason in plain words', async ({ page }) => {
  await open(page, 'failed');
  const diagram = page.locator('[data-part="diagram"]');
  await expect(diagram).toHaveAttribute('data-state', 'failed');
  await expect(diagram.locator('[data-part="diagram-note"]')).toContainText('This diagram could not be drawn (');
  await expect(diagram.getByRole('group', { name: 'mermaid' })).toContainText('A[Read the file]');
  await expect(page.getByTitle('Diagram')).toHaveCount(0);
});

test('without mermaid installed the fence stays as code, with a note', async ({ page }) => {
  await open(page, 'absent');
  const diagram = page.locator('[data-part="diagram"]');
  await expect(diagram).toHaveAttribute('data-state', 'failed');
  await expect(diagram.locator('[data-part="diagram-note"]')).toHaveText('Diagrams cannot be drawn here, so this one is shown as its source.');
});

test('a fence still being written shows its source, and is drawn once it closes', async ({ page }) => {
  await open(page, 'writing');
  const first = page.locator('[data-part="diagram"]').first();
  await expect(first).toHaveAttribute('data-state', 'writing');
  await expect(first.getByRole('group', { name: 'mermaid' })).toContainText('User->>Surface: send');
  await page.getByRole('textbox', { name: 'Message' }).fill('Again');
  await page.getByRole('textbox', { name: 'Message' }).press('Enter');
  const streamed = page.locator('[data-part="diagram"]').nth(1);
  await expect(streamed).toHaveAttribute('data-state', 'writing');
  await expect(streamed).toHaveAttribute('data-state', 'drawn', { timeout: 15_000 });
  await expect(page.frameLocator('iframe[title="Diagram"]').first().locator('svg')).toContainText('the reply, as it comes');
});
