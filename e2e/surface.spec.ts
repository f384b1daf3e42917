import { expect, test, type Locator, type Page } from '@playwright/test';

/** The surface's flows in a real browser: scrolling, Stop, keyboard-only use, markdown safety, theming. */
const STORYBOOK = `http://127.0.0.1:${process.env.E2E_STORYBOOK_PORT ?? 6007}`;
const story = (id: string) => `${STORYBOOK}/iframe.html?id=${id}&viewMode=story`;

/** Pixels between the bottom of the log's content and the bottom of its viewport. */
const distanceFromEnd = (log: Locator) => log.evaluate((el) => el.scrollHeight - el.scrollTop - el.clientHeight);

/**
 * Resolves once the log is settled: its height, its scroll offset and the rows in it were the
 * same three animation frames apart (the rows that join after the first frame are measured).
 */
const settled = (log: Locator) =>
  expect
    .poll(() =>
      log.evaluate(
        (el) =>
          new Promise<boolean>((resolve) => {
            const read = () => `${el.scrollHeight} ${el.scrollTop} ${el.querySelectorAll('[data-part="transcript-slot"]').length}`;
            const before = read();
            requestAnimationFrame(() => requestAnimationFrame(() => requestAnimationFrame(() => resolve(read() === before))));
          }),
      ),
    )
    .toBe(true);

/** Checks, four times over a second, that the log stays where the reader left it. */
async function expectStaysPut(log: Locator) {
  const top = await log.evaluate((el) => el.scrollTop);
  for (let i = 0; i < 4; i++) {
    await log.page().waitForTimeout(250);
    expect(Math.abs((await log.evaluate((el) => el.scrollTop)) - top)).toBeLessThanOrEqual(1);
  }
}

/** Presses Tab until `target` has the focus, as a keyboard user would. */
async function tabTo(page: Page, target: Locator, { max = 25, back = false } = {}) {
  for (let i = 0; i < max; i++) {
    if (await target.evaluate((el) => el === document.activeElement)) return;
    await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
  }
  await expect(target).toBeFocused();
}

test.describe('scrolling a long transcript', () => {
  test('10,000 messages: virtualised, starting at the newest; follows a streaming reply only while at the end; own message re-pins; Jump to latest', async ({ page }) => {
    await page.goto(story('chatsurface--long-transcript'));
    const log = page.getByRole('log', { name: 'Conversation' });
    await expect(log.getByText('#9999', { exact: false })).toBeVisible();
    expect(await log.locator('[data-part="transcript-slot"]').count()).toBeLessThan(60);
    await expect.poll(() => distanceFromEnd(log)).toBeLessThanOrEqual(48);

    // At the end: the view follows the reply as it grows.
    const input = page.getByRole('textbox', { name: 'Message' });
    await input.fill('tell me more');
    await input.press('Enter');
    const reply = log.locator('[data-part="message"][data-role="assistant"]').last();
    await expect(reply).toHaveAttribute('data-state', 'streaming');
    for (let i = 0; i < 5; i++) {
      await page.waitForTimeout(250);
      expect(await distanceFromEnd(log)).toBeLessThanOrEqual(48);
    }
    await expect(reply).toHaveAttribute('data-state', 'done', { timeout: 15_000 });
    await expect.poll(() => distanceFromEnd(log)).toBeLessThanOrEqual(48);
    await expect(page.getByRole('button', { name: /Jump to latest/ })).toHaveCount(0);

    // Scrolled up, the user sends: their own message brings the view back to the end.
    await log.hover();
    await page.mouse.wheel(0, -1500);
    const jump = page.getByRole('button', { name: /Jump to latest/ });
    await expect(jump).toBeVisible();
    await expect(log).toHaveAttribute('data-follow', 'paused');
    await input.fill('and more');
    await input.press('Enter');
    await expect(jump).toHaveCount(0);
    await expect(log.locator('[data-part="message"][data-role="user"]').last()).toBeInViewport();
    await expect(log).toHaveAttribute('data-follow', 'end');

    // Scrolled up while that reply streams: nothing moves until they ask.
    const streaming = log.locator('[data-part="message"][data-role="assistant"]').last();
    await expect(streaming).toHaveAttribute('data-state', 'streaming');
    await log.hover();
    await page.mouse.wheel(0, -1500);
    await expect(jump).toBeVisible();
    await expectStaysPut(log);

    await jump.click();
    await expect(jump).toHaveCount(0);
    await expect(log).toBeFocused();
    await expect.poll(() => distanceFromEnd(log)).toBeLessThanOrEqual(48);
    await expect(log.locator('[data-part="message"][data-role="user"]').last()).toContainText('and more');
  });

  test('switching a message near the end to a version with a long continuation keeps the view on that message; Jump to latest goes to the end', async ({ page }) => {
    await page.goto(story('versions--long-continuation'));
    const log = page.getByRole('log', { name: 'Conversation' });
    await expect(log.getByText('A new answer about record 200.')).toBeInViewport();
    await expect(log.locator('[data-part="transcript-rows"]')).toHaveAttribute('data-virtual', '');
    await settled(log);
    const jump = page.getByRole('button', { name: /Jump to latest/ });
    await expect(jump).toHaveCount(0);

    const picker = log.getByRole('group', { name: 'Versions' }).last();
    await expect(picker).toContainText('2 / 2');
    await picker.getByRole('button', { name: 'Previous version' }).click();
    // The first version is where the edit was, with its reply under it; the 99 messages after them
    // are below, not scrolled to.
    await expect(log.getByText('#200 Tell me about record 200.')).toBeInViewport();
    await expect(log.getByText('#201 Here is what I found about record 201.')).toBeInViewport();
    await expect(log.getByRole('group', { name: 'Versions' }).last()).toContainText('1 / 2');
    await expect(jump).toBeVisible();
    await expect(log).toHaveAttribute('data-follow', 'paused');
    await expectStaysPut(log);
    await expect(log.getByText('#299', { exact: false })).not.toBeInViewport();

    await jump.click();
    await expect(log.getByText('#299', { exact: false })).toBeInViewport();
    await expect.poll(() => distanceFromEnd(log)).toBeLessThanOrEqual(48);
    await expect(jump).toHaveCount(0);
  });

  test('98 messages are all in the page; past 100 rows the transcript virtualises them, the reader kept at the end and the focus in the message box', async ({ page }) => {
    await page.goto(story('chatsurface--nearly-hundred-messages'));
    const log = page.getByRole('log', { name: 'Conversation' });
    const rows = log.locator('[data-part="transcript-rows"]');
    await expect(log.getByText('#97', { exact: false })).toBeInViewport();
    await expect(rows).not.toHaveAttribute('data-virtual');
    expect(await log.locator('[data-part="transcript-slot"]').count()).toBe(98);
    // Find-in-page reaches the first message: it is in the page.
    expect(await log.getByText('#0 Tell me about', { exact: false }).count()).toBe(1);
    const input = page.getByRole('textbox', { name: 'Message' });
    for (const text of ['one more', 'and another']) {
      await input.fill(text);
      await input.press('Enter');
      await expect(log.locator('[data-part="message"][data-role="assistant"]').last()).toHaveAttribute('data-state', 'done', { timeout: 15_000 });
    }
    await expect(rows).toHaveAttribute('data-virtual', '');
    expect(await log.locator('[data-part="transcript-slot"]').count()).toBeLessThan(60);
    await expect(log.locator('[data-part="message"][data-role="user"]').last()).toContainText('and another');
    await expect.poll(() => distanceFromEnd(log)).toBeLessThanOrEqual(48);
    await expect(log).toHaveAttribute('data-follow', 'end');
    await expect(input).toBeFocused();
  });

  test('in flow, a short scroll up while a reply streams stops the follow at once, and Jump to latest brings it back', async ({ page }) => {
    await page.goto(story('chatsurface--nearly-hundred-messages'));
    const log = page.getByRole('log', { name: 'Conversation' });
    await expect(log.getByText('#97', { exact: false })).toBeInViewport();
    const input = page.getByRole('textbox', { name: 'Message' });
    await input.fill('tell me more');
    await input.press('Enter');
    const reply = log.locator('[data-part="message"][data-role="assistant"]').last();
    await expect(reply).toHaveAttribute('data-state', 'streaming');
    await expect(log.locator('[data-part="transcript-rows"]')).not.toHaveAttribute('data-virtual');
    // A little, as one turn of a wheel: each frame the reply grows, and a follow must not undo it.
    await log.hover();
    await page.mouse.wheel(0, -120);
    const jump = page.getByRole('button', { name: /Jump to latest/ });
    await expect(jump).toBeVisible();
    await expect(log).toHaveAttribute('data-follow', 'paused');
    await expectStaysPut(log);
    await jump.click();
    await expect(jump).toHaveCount(0);
    await expect(log).toHaveAttribute('data-follow', 'end');
    await expect.poll(() => distanceFromEnd(log)).toBeLessThanOrEqual(48);
    await expect(reply).toHaveAttribute('data-state', 'done', { timeout: 15_000 });
    await expect.poll(() => distanceFromEnd(log)).toBeLessThanOrEqual(48);
  });

  test('10,000 messages: the newest show first, the reader stays at the end once the whole history is in, and can scroll up to the first message', async ({ page }) => {
    await page.goto(story('chatsurface--long-transcript'));
    const log = page.getByRole('log', { name: 'Conversation' });
    await expect(log.getByText('#9999', { exact: false })).toBeVisible();
    // The whole history folded in (no longer busy), and the reader still at the newest message.
    await expect(log).not.toHaveAttribute('aria-busy', 'true');
    await expect.poll(() => distanceFromEnd(log)).toBeLessThanOrEqual(48);
    await expect(log.getByText('#9999', { exact: false })).toBeInViewport();
    await expect(log).toHaveAttribute('data-follow', 'end');
    // Home goes to the top (again, as rows measured on the way move it): the first message of
    // the history is there, not only the newest turns.
    await log.focus();
    const first = log.getByText('#0 Tell me about record 0:', { exact: false });
    await expect
      .poll(async () => {
        await page.keyboard.press('Home');
        return (await first.count()) > 0 && (await log.evaluate((el) => el.scrollTop)) === 0;
      }, { timeout: 15_000 })
      .toBe(true);
    await expect(first).toBeInViewport();
    expect(await log.locator('[data-part="transcript-slot"]').count()).toBeLessThan(60);
  });

  test('10,000 messages, newest turns first: Stop offered for a turn started above them, a waiting approval announced once', async ({ page }) => {
    await page.goto(story('chatsurface--long-transcript-waiting'));
    const log = page.getByRole('log', { name: 'Conversation' });
    const region = page.locator('[data-part="transcript-announcement"]');
    // Every text the live region is given, from the first render on.
    await region.evaluate((el) => {
      const heard: string[] = [];
      (window as unknown as { heard: string[] }).heard = heard;
      new MutationObserver(() => heard.push(el.textContent ?? '')).observe(el, { childList: true, characterData: true, subtree: true });
      if (el.textContent) heard.push(el.textContent);
    });
    await expect(log.getByText('Delete records', { exact: false }).first()).toBeVisible();
    await expect(page.getByRole('button', { name: 'Stop the reply' })).toBeVisible();
    await expect(log).not.toHaveAttribute('aria-busy', 'true');
    await expect(log).toHaveAttribute('data-state', 'filled');
    await expect(page.getByRole('button', { name: 'Stop the reply' })).toBeVisible();
    await expect(log.getByText('Delete records', { exact: false }).first()).toBeInViewport();
    const heard = await page.evaluate(() => (window as unknown as { heard: string[] }).heard.filter(Boolean));
    expect(heard).toEqual(['An approval is waiting for you']);
    // No empty row among the newest turns, nor after the whole history came in.
    expect(await log.locator('[data-part="transcript-slot"]:empty').count()).toBe(0);
  });

  test('the log scrolls by keyboard: Page Up leaves the end, End comes back', async ({ page }) => {
    await page.goto(story('chatsurface--long-transcript'));
    const log = page.getByRole('log', { name: 'Conversation' });
    await expect(log.getByText('#9999', { exact: false })).toBeVisible();
    // Once the whole history is in (the newest turns show first) and its rows around the view are
    // measured: under the full suite's load, a key pressed in the frame the history took their
    // place, or while the rows that join after it were measured, was followed back to the end.
    await expect(log).not.toHaveAttribute('aria-busy', 'true');
    await settled(log);
    await tabTo(page, log);
    await page.keyboard.press('PageUp');
    await page.keyboard.press('PageUp');
    await expect(page.getByRole('button', { name: /Jump to latest/ })).toBeVisible();
    await page.keyboard.press('End');
    await expect(page.getByRole('button', { name: /Jump to latest/ })).toHaveCount(0);
    await expect.poll(() => distanceFromEnd(log)).toBeLessThanOrEqual(48);
  });
});

test.describe('Stop', () => {
  test.beforeEach(async ({ page }) => {
    await page.goto('/playground.html');
    await expect(page.getByRole('region', { name: 'Chat' })).toBeVisible();
  });

  test('stops the turn and the invocation it started; the rows say so', async ({ page }) => {
    const input = page.getByRole('textbox', { name: 'Message' });
    await input.fill('build report sections=20');
    await input.press('Enter');
    const card = page.getByRole('article', { name: 'Build report' });
    await expect(card).toHaveAttribute('data-state', /^(running|streaming)$/);
    await page.getByRole('button', { name: 'Stop the reply' }).click();
    await expect(card).toHaveAttribute('data-state', 'cancelled');
    await expect(page.locator('[data-part="error-row"][data-state="cancelled"]')).toContainText('Stopped');
    await expect(page.getByRole('button', { name: 'Stop the reply' })).toHaveCount(0);
    await expect(page.getByRole('list', { name: 'Working now' })).toHaveCount(0);
    await expect(input).toBeFocused();
  });

  test('Escape in the message box stops too', async ({ page }) => {
    const input = page.getByRole('textbox', { name: 'Message' });
    await input.fill('build report sections=20');
    await input.press('Enter');
    const card = page.getByRole('article', { name: 'Build report' });
    await expect(card).toHaveAttribute('data-state', /^(running|streaming)$/);
    await input.press('Escape');
    await expect(card).toHaveAttribute('data-state', 'cancelled');
    await expect(page.locator('[data-part="error-row"][data-state="cancelled"]')).toHaveCount(1);
  });
});

test.describe('keyboard alone', () => {
  test('send, run a suggestion chip, follow the chips to the next step, and stop a turn', async ({ page }) => {
    await page.goto('/playground.html');
    const input = page.getByRole('textbox', { name: 'Message' });
    await tabTo(page, input);
    await page.keyboard.type('add note buy milk');
    await page.keyboard.press('Enter');
    await expect(page.getByRole('article', { name: 'Add note' })).toHaveAttribute('data-state', 'done');

    const chips = page.getByRole('group', { name: 'Suggested next steps' });
    const first = chips.getByRole('button').first();
    await expect(first).toHaveText('Build a 3-section report');
    await tabTo(page, chips.getByRole('button').last(), { back: true });
    await page.keyboard.press('ArrowRight');
    await expect(first).toBeFocused();
    await page.keyboard.press('Enter');
    // The chip ran report.build with its prefill and no model call; when it finished, the chips
    // followed it and the focus moved to the new first chip instead of falling to the page.
    const report = page.getByRole('article', { name: 'Build report' });
    await expect(report).toHaveAttribute('data-state', 'done', { timeout: 15_000 });
    await expect(report).toContainText('Report with 3 sections');
    await expect(page.locator('[data-part="message"][data-role="user"]')).toHaveCount(1);
    await expect(chips.getByRole('button', { name: 'Note “report built”' })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('article', { name: 'Add note' }).last()).toContainText('report built');

    await tabTo(page, input);
    await page.keyboard.type('build report sections=20');
    await page.keyboard.press('Enter');
    const stop = page.getByRole('button', { name: 'Stop the reply' });
    await expect(stop).toBeVisible();
    await page.keyboard.press('Tab');
    await expect(stop).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(page.locator('[data-part="error-row"][data-state="cancelled"]')).toHaveCount(1);
    await expect(input).toBeFocused();
  });

  test('a proposal takes the focus, Tab reaches Accept, Enter runs it, and focus returns to the message box', async ({ page }) => {
    await page.goto(story('rows--proposal'));
    const row = page.locator('[data-part="proposal"]');
    await expect(row).toHaveAccessibleName('Enrich records');
    await expect(row).toHaveAttribute('data-state', 'pending');
    await expect(row).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(page.getByRole('button', { name: 'Accept Enrich records' })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(row).toHaveAttribute('data-state', 'accepted');
    await expect(page.locator('[data-part="invocation-card"]')).toHaveAttribute('data-state', 'done');
    await expect(page.getByRole('textbox', { name: 'Message' })).toBeFocused();
  });

  test('an approval waits; Deny by keyboard runs nothing', async ({ page }) => {
    await page.goto(story('rows--approval'));
    const row = page.getByRole('article', { name: 'Delete records' });
    await expect(row).toBeFocused();
    await expect(row).toHaveAttribute('data-destructive', 'true');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    await expect(page.getByRole('button', { name: 'Deny Delete records' })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(row).toHaveAttribute('data-state', 'denied');
    await expect(page.locator('[data-part="invocation-card"]')).toHaveCount(0);
  });

  test('a question is answered in the user’s own words by keyboard', async ({ page }) => {
    await page.goto(story('rows--question'));
    const row = page.getByRole('article', { name: /every week/ });
    await expect(row).toBeFocused();
    const box = row.getByRole('textbox', { name: 'Or answer in your own words' });
    await tabTo(page, box);
    await page.keyboard.type('only on Mondays');
    await page.keyboard.press('Enter');
    await expect(row).toHaveAttribute('data-state', 'answered');
    await expect(row).toContainText('You answered: only on Mondays');
  });
});

test.describe('markdown and theming', () => {
  test('assistant markdown renders safely: links open in a new tab without an opener, no script links, no raw HTML', async ({ page }) => {
    await page.goto(story('chatsurface--markdown'));
    const reply = page.locator('[data-part="message"][data-role="assistant"]');
    const guide = reply.getByRole('link', { name: 'the import guide' });
    await expect(guide).toHaveAttribute('target', '_blank');
    await expect(guide).toHaveAttribute('rel', 'noopener noreferrer');
    await expect(reply.locator('a[href^="javascript"]')).toHaveCount(0);
    await expect(reply.locator('b')).toHaveCount(0);
    await expect(reply).toContainText('<b>raw HTML</b>');
    await expect(reply.getByRole('table')).toBeVisible();
    await expect(reply.getByRole('button', { name: 'Copy bash code' })).toBeVisible();
  });

  test('a long reply still streaming: plain start as text, its late link and bold formatted in the same paragraph, the cursor shown', async ({ page }) => {
    await page.goto(story('chatsurface--streaming-long-reply'));
    const reply = page.locator('[data-part="message"][data-role="assistant"]');
    await expect(reply).toHaveAttribute('data-state', 'streaming');
    await expect(reply).toHaveAttribute('aria-busy', 'true');
    const paragraph = reply.locator('[data-part="markdown"] > p');
    await expect(paragraph).toHaveCount(1);
    await expect(paragraph.getByRole('link', { name: 'the import log' })).toHaveAttribute('target', '_blank');
    await expect(paragraph.locator('strong')).toHaveText('twelve rows');
    await expect(paragraph).toContainText('On day 1 the import read the new files');
    await expect(paragraph).not.toContainText('**');
    // The streaming cursor: the paragraph's ::after. This reply brings no more text, so it is
    // paused and the cursor blinks, unless reduced motion is asked for.
    expect(await paragraph.evaluate((el) => getComputedStyle(el, '::after').content)).toBe('"▍"');
    await expect(reply.locator('[data-part="markdown"]')).toHaveAttribute('data-streaming', 'paused');
    expect(await paragraph.evaluate((el) => getComputedStyle(el, '::after').animationName)).toBe('cs-blink');
    await page.emulateMedia({ reducedMotion: 'reduce' });
    expect(await paragraph.evaluate((el) => getComputedStyle(el, '::after').animationName)).toBe('none');
    expect(await paragraph.evaluate((el) => getComputedStyle(el, '::after').content)).toBe('"▍"');
  });

  test('a long paragraph streaming: its finished lines are set apart where lines start, look the same, and join again when it is done', async ({ page }) => {
    await page.goto(story('chatsurface--streaming-one-long-paragraph'));
    const input = page.getByRole('textbox', { name: 'Message' });
    await input.fill('write a long paragraph');
    await input.press('Enter');
    const reply = page.locator('[data-part="message"][data-role="assistant"]');
    await expect(reply).toHaveAttribute('data-state', 'streaming');
    const paragraph = reply.locator('[data-part="markdown"] > p');
    const runs = paragraph.locator('[data-part="markdown-run"]');
    // While text arrives the cursor stands still (no animation steps in the stream's frames).
    const cursor = () =>
      paragraph.evaluate((el) => `${el.parentElement!.getAttribute('data-streaming')} ${getComputedStyle(el, '::after').content} ${getComputedStyle(el, '::after').animationName}`);
    await expect.poll(cursor).toBe('flowing "▍" none');
    await expect.poll(() => runs.count(), { timeout: 10_000 }).toBeGreaterThanOrEqual(1);
    await expect(paragraph).toHaveCount(1);

    /**
     * The right edge and top of each line of the paragraph's first run, and of the same
     * characters in one unsplit copy of the paragraph's text laid out beside it: equal when the
     * run was cut where a line starts.
     */
    const compare = () =>
      paragraph.evaluate((p) => {
        const run = p.querySelector('[data-part="markdown-run"]');
        if (!run) return { runs: 0, same: true };
        const lines = (range: Range, origin: number) => {
          const byTop = new Map<number, number>();
          for (const r of range.getClientRects()) if (r.width > 0) byTop.set(Math.round(r.top - origin), Math.max(byTop.get(Math.round(r.top - origin)) ?? 0, Math.round(r.right)));
          return [...byTop.entries()];
        };
        const own = document.createRange();
        own.selectNodeContents(run);
        const copy = document.createElement('p');
        copy.textContent = p.textContent;
        p.before(copy);
        const text = copy.firstChild!;
        const same = document.createRange();
        same.setStart(text, 0);
        same.setEnd(text, run.textContent!.length);
        const a = lines(own, p.getBoundingClientRect().top);
        const b = lines(same, copy.getBoundingClientRect().top);
        copy.remove();
        return { runs: p.querySelectorAll('[data-part="markdown-run"]').length, lineCount: a.length, same: JSON.stringify(a) === JSON.stringify(b) };
      });
    const first = await compare();
    expect(first.runs).toBeGreaterThanOrEqual(1);
    expect(first.lineCount).toBeGreaterThan(3);
    expect(first.same).toBe(true);

    // A narrower surface: the runs join and are cut again where the new lines start.
    await page.setViewportSize({ width: 700, height: 720 });
    await page.waitForTimeout(300);
    expect((await compare()).same).toBe(true);

    await expect(reply).toHaveAttribute('data-state', 'done', { timeout: 20_000 });
    await expect(runs).toHaveCount(0);
    await expect(paragraph).toHaveCount(1);
    await expect(paragraph).toContainText(/^the word0 word1 .* word2399$/);
  });

  test('light and dark themes come from CSS variables scoped to the surface; the host page is untouched', async ({ page }) => {
    await page.goto('/playground.html');
    const surface = page.locator('[data-chat-surface]');
    const hostButton = page.getByRole('button', { name: 'Reports' });
    const hostBefore = await hostButton.evaluate((el) => getComputedStyle(el).borderRadius);
    await page.getByLabel('Theme').selectOption('light');
    const light = await surface.evaluate((el) => getComputedStyle(el).backgroundColor);
    await page.getByLabel('Theme').selectOption('dark');
    const dark = await surface.evaluate((el) => getComputedStyle(el).backgroundColor);
    expect(light).toBe('rgb(255, 255, 255)');
    expect(dark).not.toBe(light);
    expect(await hostButton.evaluate((el) => getComputedStyle(el).borderRadius)).toBe(hostBefore);
    expect(await page.locator('body').evaluate((el) => getComputedStyle(el).fontSize)).toBe('16px');
  });
});
