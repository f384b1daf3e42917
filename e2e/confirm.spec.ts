import { expect, test } from '@playwright/test';

/**
 * Confirmation on every door (issue 43), on the reference demo: a REST call of
 * `crm.export` with the page's own session cookie runs nothing; the chat's
 * approval row shows in the page's thread, and only the person's Approve runs
 * it, once, after which the REST job reads done.
 */
const DEMO = `http://127.0.0.1:${process.env.E2E_REFERENCE_PORT ?? 4174}/`;

test('a REST call with the page\'s cookie waits for the person: the approval row shows in the page, and Approve runs it once', async ({ browser }) => {
  // The demo's dev server compiles the page on its first visit: slow on a busy machine.
  test.setTimeout(120_000);
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(DEMO);
  const log = page.getByRole('log', { name: 'Conversation' });
  await expect(page.getByRole('region', { name: 'Chat' })).toBeVisible({ timeout: 90_000 });

  // The same browser's cookie, as a script would send it: not the chat, a REST call.
  const response = await context.request.post(`${DEMO}v1/capabilities/crm.export`, { data: {}, headers: { 'content-type': 'application/json' } });
  expect(response.status()).toBe(202);
  const job = (await response.json()) as { id: string; status: string; approval: { message: string } };
  expect(job.status).toBe('waiting');
  expect(job.approval.message).toContain('Export to CRM needs a person\'s approval before it runs, and nothing has run yet');

  const approval = log.locator('[data-part="approval"]').last();
  await expect(approval).toHaveAttribute('data-state', 'pending');
  await expect(approval).toContainText('Asked for through the REST API, not in this chat.');
  const cards = log.locator('[data-part="invocation-card"][data-capability="crm.export"]');
  await expect(cards).toHaveCount(0);

  await approval.getByRole('button', { name: 'Approve Export to CRM' }).click();
  await expect(approval).toHaveAttribute('data-state', 'approved');
  await expect(cards).toHaveCount(1);
  await expect(cards.last()).toHaveAttribute('data-state', 'done');
  const done = (await (await context.request.get(`${DEMO}v1/jobs/${job.id}`)).json()) as { status: string; approval: { decidedVia: string } };
  expect(done).toMatchObject({ status: 'done', approval: { decidedVia: 'chat' } });
  await context.close();
});
