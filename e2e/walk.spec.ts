import { expect, test, type Browser, type Locator, type Page } from '@playwright/test';
import { startEverythingServer, type EverythingServer } from '../src/test/everythingServer';
import { startOwnDemo, type OwnDemo } from './fixtures/demo';

/**
 * The README's demo script (its 11 steps) as a client walks it, at a desktop width and a phone's,
 * on the reference demo (`npm run demo`, the offline model). Each step ends with its result in
 * view in the conversation, nothing covering it, and the whole walk logs no console error.
 * Each size walks a demo of its own (its own records): the steps change the records, and the
 * counts they show are those of a fresh demo.
 */

const SIZES = [
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'phone', width: 390, height: 844 },
] as const;

for (const size of SIZES) {
  test.describe(`the demo walk at ${size.width} px (${size.name})`, () => {
    test.describe.configure({ mode: 'serial' });

    let demo: OwnDemo;
    let everything: EverythingServer;
    let page: Page;
    /** Every console error and uncaught page error of the walk, from the first page load on. */
    const errors: string[] = [];

    test.beforeAll(async ({ browser }: { browser: Browser }) => {
      test.setTimeout(150_000);
      everything = await startEverythingServer();
      // Its users may connect an MCP server on the everything server's port only (step 10's, as README's 3001 is the demo's).
      demo = await startOwnDemo({ DEMO_CONNECTOR_HOSTS: `127.0.0.1:${new URL(everything.url).port}` });
      page = await (await browser.newContext({ viewport: { width: size.width, height: size.height } })).newPage();
      page.on('console', (message) => {
        if (message.type() === 'error') errors.push(`${message.text()} (${message.location().url})`);
      });
      page.on('pageerror', (error) => errors.push(`page error: ${error.message}`));
      await page.goto(demo.url);
      await expect(page.getByRole('region', { name: 'Chat' })).toBeVisible({ timeout: 30_000 });
      await expect(page.getByText('Answering: Offline model')).toBeVisible();
    });
    test.afterAll(async () => {
      await page?.context().close();
      await Promise.all([demo?.stop(), everything?.stop()]);
    });

    const log = () => page.getByRole('log', { name: 'Conversation' });
    const chips = () => page.getByRole('group', { name: 'Suggested next steps' });
    const input = () => page.getByRole('textbox', { name: 'Message' });
    const say = async (text: string) => {
      await input().fill(text);
      await input().press('Enter');
    };
    const replies = () => log().locator('[data-part="message"][data-role="assistant"]');

    /**
     * The step's result is where the user looks: in the viewport, its end inside the conversation's
     * visible part (the view followed it to the end), the transcript following and no "Jump to
     * latest" over it.
     */
    const expectInView = async (row: Locator) => {
      await expect(row).toBeInViewport();
      await expect
        .poll(async () => {
          const [box, frame] = await Promise.all([row.boundingBox(), log().boundingBox()]);
          return !!box && !!frame && box.y + box.height <= frame.y + frame.height + 1 && box.y + box.height > frame.y;
        })
        .toBe(true);
      await expect(log()).toHaveAttribute('data-follow', 'end');
      await expect(page.getByRole('button', { name: /^Jump to/ })).toHaveCount(0);
    };
    /** One line of text: no taller than 1.5 of its line height (the padding and border of a button besides). */
    const oneLine = async (el: Locator, extra = 0) => {
      const { height, line } = await el.evaluate((node) => {
        const style = getComputedStyle(node);
        const lineHeight = parseFloat(style.lineHeight) || parseFloat(style.fontSize) * 1.2;
        return { height: node.getBoundingClientRect().height, line: lineHeight };
      });
      expect(height).toBeLessThan(line * 1.5 + extra);
    };

    test('1. the chip "Import customers.csv" runs the import and the records list fills', async () => {
      await chips().getByRole('button', { name: 'Import customers.csv' }).click();
      const card = log().getByRole('article', { name: 'Import CSV', exact: true }).last();
      await expect(card).toHaveAttribute('data-state', 'done');
      await expect(page.getByRole('status').filter({ hasText: 'records,' })).toHaveText('4 records, 0 enriched');
      await expectInView(card);
    });

    test('2. Stop during enrichment: the card says it was cancelled and what it had done, with one Retry', async () => {
      await say('enrich records limit=4');
      const card = log().getByRole('article', { name: 'Enrich records' }).last();
      await expect(card).toHaveAttribute('data-state', 'running');
      await expect(card).toContainText('1 of 4 records enriched', { timeout: 15_000 });
      await page.getByRole('button', { name: 'Stop the reply' }).click();
      await expect(card).toHaveAttribute('data-state', 'cancelled');
      await expect(card.locator('[data-part="invocation-card-part-way"]')).toHaveText(/^Stopped part way: [1-3] of 4 records enriched\.$/);
      const stopped = log().locator('[data-part="error-row"][data-state="cancelled"]').last();
      await expect(stopped).toContainText('Stopped before the reply finished.');
      await expect(log().getByRole('button', { name: /^Retry/ })).toHaveCount(1);
      await expect(card.getByRole('button', { name: 'Retry Enrich records' })).toBeVisible();
      // The card's header stays one line on a phone too, its title whole.
      const title = card.locator('[data-part="invocation-card-title"]');
      await oneLine(title);
      expect(await title.evaluate((node) => node.scrollWidth <= node.clientWidth)).toBe(true);
      await oneLine(card.locator('[data-part="invocation-card-header"]'), 12);
      await expectInView(stopped);
    });

    test('3. the chip "Enrich the new records": progress, the check passes and says so, the chips offer the export', async () => {
      await chips().getByRole('button', { name: 'Enrich the new records' }).click();
      const card = log().getByRole('article', { name: 'Enrich records' }).last();
      await expect(card).toHaveAttribute('data-state', 'running');
      await expect(page.getByRole('list', { name: 'Working now' })).toContainText('Enricher');
      await expect(card).toHaveAttribute('data-state', 'done', { timeout: 20_000 });
      await expect(card.locator('[data-part="checks"]')).toHaveText(/^✓ checked: [1-3] more enriched records$/);
      await expect(page.getByRole('status').filter({ hasText: 'records,' })).toHaveText('4 records, 4 enriched');
      await expect(chips().getByRole('button', { name: 'Export the enriched records to the CRM' })).toBeVisible();
      await expectInView(card);
    });

    test('4. a CSV that inserts nothing: the card turns amber, one Check failed row says why, once, and the reply says so', async () => {
      await say('Import CSV broken.csv');
      const violation = log().locator('[data-part="violation"]').last();
      await expect(violation).toContainText('Import CSV should have added 2 rows to records, but the count went from 4 to 4.');
      const card = log().getByRole('article', { name: 'Import CSV', exact: true }).last();
      await expect(card.locator('[data-part="checks"]')).toHaveText('A check did not hold: Row count.');
      await expect(replies().last()).toHaveAttribute('data-state', 'done');
      await expect(replies().last()).toContainText('a check did not hold: row count change');
      // The sentence is the row's alone in the whole transcript: not on the card, not in the reply.
      expect(((await log().textContent()) ?? '').split('should have added 2 rows').length - 1).toBe(1);
      await expectInView(replies().last());
      await expect(violation).toBeInViewport();
    });

    test('5. "keep an eye on new records every week": one question; Keep watching hands a standing request over', async () => {
      await say('keep an eye on new records every week');
      const question = log().locator('[data-part="question"]').last();
      await expect(question).toContainText('Just this once, or should I keep watching it for you?');
      await expectInView(question);
      await question.getByRole('button', { name: 'Keep watching' }).click();
      const standing = log().locator('[data-part="standing"]').last();
      await expect(standing).toContainText('every week');
      await expectInView(standing);
    });

    test('6. "export to CRM": the approval waits in view; Approve runs the export, followed to its result, and the approval says it finished', async () => {
      await say('export to CRM');
      const approval = log().locator('[data-part="approval"]').last();
      await expect(approval).toHaveAttribute('data-state', 'pending');
      await expectInView(approval);
      await approval.getByRole('button', { name: 'Approve Export to CRM' }).click();
      const card = log().locator('[data-part="invocation-card"][data-capability="crm.export"]').last();
      await expect(card).toHaveAttribute('data-state', 'done');
      await expect(card).toContainText(/Exported 4 records/);
      await expect(approval).toHaveAttribute('data-run', 'done');
      await expect(approval.locator('[data-part="row-outcome"]')).toHaveText('Approved: it finished.');
      await expect(replies().last()).toContainText('Exported 4 enriched records');
      await expectInView(replies().last());
      await expect(card).toBeInViewport();
    });

    test('7. "Search the notes for enrichment batches": the MCP tool answers from the tenant’s notes', async () => {
      await say('Search the notes for enrichment batches');
      const card = log().getByRole('article', { name: 'Search the notes' }).last();
      await expect(card).toHaveAttribute('data-state', 'done');
      await expect(card).toContainText('How we enrich records');
      await expect(replies().last()).toHaveAttribute('data-state', 'done');
      await expectInView(replies().last());
    });

    test('8. the composed flow: new leads imported, "yeah, do that for the unscored ones" enriches the 2 of them', async () => {
      await say('Import CSV new-leads.csv');
      await expect(log().getByRole('article', { name: 'Import CSV' }).last()).toHaveAttribute('data-state', 'done');
      await expect(page.getByRole('status').filter({ hasText: 'records,' })).toHaveText('6 records, 4 enriched');
      await expect(chips().getByRole('button', { name: 'Enrich the new records' })).toBeVisible();
      await say('yeah, do that for the unscored ones');
      const card = log().getByRole('article', { name: 'Enrich records' }).last();
      await expect(card).toHaveAttribute('data-state', 'done', { timeout: 20_000 });
      await expect(card.locator('[data-part="checks"]')).toHaveText('✓ checked: 2 more enriched records');
      await expect(replies().last().locator('[data-part="message-text"]')).toHaveText('Enriched 2 records.');
      await expectInView(replies().last());
    });

    test('9. "/" in the message box lists the slash skills, inside the viewport and the chat', async () => {
      await input().click();
      await input().pressSequentially('/');
      const list = page.getByRole('listbox', { name: 'Slash skills' });
      await expect(list).toBeVisible();
      for (const name of ['/agent', '/model', '/harness', '/clear', '/help']) await expect(list.getByRole('option', { name: new RegExp(`^${name}`) })).toBeVisible();
      const popup = page.locator('[data-part="slash-popup"]');
      await expect(popup).toBeInViewport({ ratio: 1 });
      const [box, chat] = await Promise.all([popup.boundingBox(), page.getByRole('region', { name: 'Chat' }).boundingBox()]);
      expect(box!.x).toBeGreaterThanOrEqual(Math.max(0, chat!.x));
      expect(box!.x + box!.width).toBeLessThanOrEqual(Math.min(size.width, chat!.x + chat!.width));
      await page.keyboard.press('Escape');
      await expect(list).toHaveCount(0);
      await input().fill('');
    });

    test('10. /mcp connects an MCP server of the user’s own; its echo tool answers', async () => {
      await say('/mcp');
      const panel = page.getByRole('dialog', { name: 'Your MCP servers' });
      await expect(panel).toHaveAttribute('data-state', 'ready');
      await expect(panel).toBeInViewport();
      const form = panel.getByRole('form', { name: 'Connect an MCP server' });
      await form.getByRole('textbox', { name: 'Name' }).fill('everything');
      await form.getByRole('textbox', { name: 'Server URL' }).fill(everything.url);
      await form.getByRole('button', { name: 'Connect' }).click();
      await expect(panel.getByRole('status').filter({ hasText: 'Connected everything' })).toBeVisible();
      await panel.getByRole('button', { name: 'Close' }).click();
      await say('everything echo message=hi');
      const card = log().getByRole('article', { name: 'Echo Tool (everything)' }).last();
      await expect(card).toHaveAttribute('data-state', 'done');
      await expect(card).toContainText('Echo: hi');
      await expect(replies().last()).toHaveAttribute('data-state', 'done');
      await expectInView(replies().last());
    });

    test('11. "/review how many records do I have?" opens a sub-thread; its new rows and its summary come into view', async () => {
      await say('/review how many records do I have?');
      const opened = log().getByRole('article', { name: 'Opened a sub-thread: /review' });
      await expect(opened).toBeVisible();
      const summary = log().getByRole('article', { name: 'The /review sub-thread finished' });
      await expect(summary).toHaveAttribute('data-state', 'done', { timeout: 20_000 });
      await expect(summary).toContainText(/record/i);
      await expect(opened).toBeInViewport();
      await expectInView(summary);
    });

    test('a wide table scrolls sideways in a named, focusable region, its hidden side faded', async () => {
      await say('show me the records');
      // The offline model suggests it; accepting runs it, followed to its table, and the row says it finished.
      const proposal = log().locator('[data-part="proposal"]').last();
      await expect(proposal).toHaveAttribute('data-state', 'pending');
      await proposal.getByRole('button', { name: 'Accept List records' }).click();
      const card = log().locator('[data-part="invocation-card"][data-capability="records.list"]').last();
      await expect(card).toHaveAttribute('data-state', 'done');
      await expect(proposal.locator('[data-part="row-outcome"]')).toHaveText('Accepted: it finished.');
      const table = card.getByRole('group', { name: 'List records result table' });
      await expect(table).toBeVisible();
      await expectInView(card);
      const overflows = await table.evaluate((node) => node.scrollWidth > node.clientWidth + 1);
      if (size.name === 'phone') expect(overflows).toBe(true);
      if (!overflows) {
        await expect(table).not.toHaveAttribute('data-scroll');
        return;
      }
      await expect(table).toHaveAttribute('data-scroll', 'end');
      expect(await table.evaluate((node) => getComputedStyle(node).maskImage)).toContain('linear-gradient');
      await table.focus();
      await expect(table).toBeFocused();
      await page.keyboard.press('End');
      await table.evaluate((node) => node.scrollTo({ left: node.scrollWidth }));
      await expect(table).toHaveAttribute('data-scroll', 'start');
    });

    test('scrolled up while a run goes on, the reader stays put; "Jump to latest (1 new)" is one line', async () => {
      await say('enrich records limit=2');
      const card = log().getByRole('article', { name: 'Enrich records' }).last();
      await expect(card).toHaveAttribute('data-state', 'running');
      // The reader scrolls up with the keyboard (the log holds the focus; Home goes to its top): a
      // key is handled before its scroll, where a wheel's event may come after it on a busy machine.
      await log().focus();
      await page.keyboard.press('Home');
      const jump = page.getByRole('button', { name: /^Jump to latest/ });
      await expect(jump).toBeVisible();
      await expect(log()).toHaveAttribute('data-follow', 'paused');
      await expect(jump).toHaveText(/^Jump to latest \(\d+ new\)$/, { timeout: 20_000 });
      await oneLine(jump, 16);
      expect(await jump.evaluate((node) => node.scrollWidth <= node.clientWidth)).toBe(true);
      await jump.click();
      await expectInView(replies().last());
    });

    test('no console error and no page error in the whole walk', () => {
      expect(errors).toEqual([]);
    });
  });
}
