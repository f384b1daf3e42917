import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRemoteWorkspace, type WorkspaceAdapter } from 'chatsurface';
import { createAnthropicDriver } from 'chatsurface/anthropic';
import {
  createOfflineDriver,
  foldAll,
  initialThreadState,
  suggest,
  type InvocationRow,
  type ModelDriver,
  type ThreadEvent,
} from 'chatsurface/runtime';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeAnthropic, type FakeAnthropic } from '../../src/runtime/node/fakeAnthropic';
import { anticipation } from './capabilities';
import { createInPageReferenceWorkspace } from './inPage';
import { createReferenceServer, type ReferenceServer } from './server';

/**
 * The seed's composed flow ("How the patterns compose"): the user lands on
 * the record list after an import, the enrich suggestion shows, they say
 * "yeah, do that for the unscored ones", enrichment runs on exactly the
 * unscored records with the Enricher in the cast, its check passes and
 * says so, and the next chips come from the anticipation map with no
 * model call. Once with the offline model in the page, once with Claude's
 * driver against the fake Messages API through the server's turn API.
 */

const SAY = 'yeah, do that for the unscored ones';

/** Counts model calls, so the test can tell that the chips cost none. */
function counting(driver: ModelDriver) {
  const calls = { n: 0 };
  return {
    calls,
    driver: { info: driver.info, respond: (request: Parameters<ModelDriver['respond']>[0]) => (calls.n++, driver.respond(request)) } satisfies ModelDriver,
  };
}

async function settle(events: ThreadEvent[], done: (events: ThreadEvent[]) => boolean, ms = 10_000) {
  const until = Date.now() + ms;
  while (!done(events)) {
    if (Date.now() > until) throw new Error(`timed out; last events: ${events.slice(-5).map((e) => e.type).join(', ')}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The flow up to the user's words: customers imported and enriched, then new leads imported (2 unscored). */
async function landOnRecordList(ws: WorkspaceAdapter, events: ThreadEvent[]) {
  ws.subscribe('t', (e) => events.push(e));
  ws.setView({ threadId: 't', view: { kind: 'record_list' } });
  await ws.invoke({ threadId: 't', capability: 'records.import_csv', args: { file: 'customers.csv' } });
  await ws.invoke({ threadId: 't', capability: 'enrich.batch', args: { limit: 10 } });
  await ws.invoke({ threadId: 't', capability: 'records.import_csv', args: { file: 'new-leads.csv' } });
  await settle(events, (e) => e.filter((x) => x.type === 'capability.done').length >= 3);
  const state = foldAll(initialThreadState, events);
  // Pattern 3: the record list after an import suggests enrichment (slab 5 of the next turn).
  expect(suggest(anticipation, state.activeView, state.lastCapability).map((s) => s.hint)).toEqual(['Enrich the new records', 'Show what came in']);
}

function checkTheTurn(events: ThreadEvent[], from: number) {
  const state = foldAll(initialThreadState, events);
  const rows = state.rows.slice(from);
  // Accepting the suggestion in words is naming it: no proposal, it runs.
  expect(rows.filter((r) => r.kind === 'proposal')).toEqual([]);
  const cards = rows.filter((r): r is InvocationRow => r.kind === 'invocation');
  expect(cards).toHaveLength(1);
  const card = cards[0]!;
  expect(card).toMatchObject({ capability: 'enrich.batch', state: 'done', args: { limit: 10, unscored: true }, actor: { name: 'Enricher' } });
  // The cast row showed the Enricher while it ran (the started event carries the actor), with progress per record.
  expect(events.some((e) => e.type === 'capability.started' && e.invocation_id === card.id && e.actor?.name === 'Enricher')).toBe(true);
  expect(events.filter((e) => e.type === 'capability.progress' && e.invocation_id === card.id).length).toBeGreaterThanOrEqual(2);
  // Its postcondition held, and the card says so.
  expect(card.violations ?? []).toEqual([]);
  expect(card.checks).toEqual([{ postcondition: 'row_count_change', text: '2 more enriched records' }]);
  // The next chips: the anticipation map for the record list after enrichment.
  expect(suggest(anticipation, state.activeView, state.lastCapability).map((s) => s.hint)).toEqual(['Export the enriched records to the CRM', 'Show the enriched records']);
  return { state, card };
}

describe('the composed flow with the offline model, in the page', () => {
  it('enriches exactly the unscored records, passes its check and offers the next chips without a model call', async () => {
    const { driver, calls } = counting(createOfflineDriver({ delayMs: 0 }));
    const { workspace, records } = await createInPageReferenceWorkspace({ enrichDelayMs: 0, driver });
    const events: ThreadEvent[] = [];
    await landOnRecordList(workspace, events);
    const scoredBefore = (await records.list({ limit: 100, enriched: true })).map((r) => [r.id, r.enriched_at]);
    expect(scoredBefore).toHaveLength(4);
    expect(calls.n).toBe(0);

    const from = foldAll(initialThreadState, events).rows.length;
    await workspace.send({ threadId: 't', text: SAY });
    const { state } = checkTheTurn(events, from);

    // Exactly the unscored ones: the two new leads now enriched, the four scored before untouched.
    const all = await records.list({ limit: 100 });
    expect(all.filter((r) => r.enriched_at === null)).toEqual([]);
    expect((await records.list({ limit: 100, enriched: true })).filter((r) => scoredBefore.some(([id]) => id === r.id)).map((r) => [r.id, r.enriched_at])).toEqual(scoredBefore);
    // One model call to act, one to report; the chips after it cost none.
    expect(calls.n).toBe(2);
    const reply = state.rows.at(-1)!;
    expect(reply).toMatchObject({ kind: 'assistant', text: 'Enriched 2 records.' });
  });
});

describe('the composed flow with Claude’s driver against the fake Messages API, through the server’s turn API', () => {
  let reference: ReferenceServer | null = null;
  let fake: FakeAnthropic | null = null;
  let stateDir = '';
  afterEach(async () => {
    await reference?.close();
    await fake?.close();
    rmSync(stateDir, { recursive: true, force: true });
  });

  it('runs the accepted suggestion on exactly the unscored records, and the chips need no model call', async () => {
    fake = await startFakeAnthropic({
      reply: (request) => {
        const last = request.body.messages.at(-1);
        const blocks = Array.isArray(last.content) ? last.content : [{ type: 'text', text: last.content }];
        if (blocks.some((b: { type: string }) => b.type === 'tool_result')) return { text: 'Enriched the 2 unscored records; the check on enriched records passed.' };
        const said = blocks.map((b: { text?: string }) => b.text ?? '').join('\n');
        // Slab 5 carries the suggestion the user is accepting.
        if (!said.includes('Enrich the new records → enrich.batch') || !said.includes(SAY)) return { text: 'The suggestion was not in the request.' };
        return { content: [{ type: 'tool_use', id: 'toolu_enrich', name: 'enrich_batch', input: { limit: 10, unscored: true } }], stop_reason: 'tool_use' };
      },
    });
    stateDir = mkdtempSync(join(tmpdir(), 'composed-'));
    const { driver, calls } = counting(createAnthropicDriver({ apiKey: fake.apiKey, baseURL: fake.url, maxRetries: 0 }));
    reference = await createReferenceServer({ stateDir, enrichDelayMs: 5, driver });
    const { url } = await reference.server.listen();
    const cookie = (await reference.issueSessionCookie(new Request(`${url}/`)))!.split(';')[0]!;
    const remote = await createRemoteWorkspace({ url, headers: { cookie } });
    try {
      const events: ThreadEvent[] = [];
      await landOnRecordList(remote, events);
      const listed = async () => ((await (await fetch(`${url}/app/records`, { headers: { cookie } })).json()) as { records: { id: number; enriched_at: string | null }[] }).records;
      const scoredBefore = (await listed()).filter((r) => r.enriched_at !== null).map((r) => [r.id, r.enriched_at]);
      expect(scoredBefore).toHaveLength(4);

      const from = foldAll(initialThreadState, events).rows.length;
      await remote.send({ threadId: 't', text: SAY });
      await settle(events, (e) => e.some((x) => x.type === 'turn.done'));
      checkTheTurn(events, from);
      const after = await listed();
      expect(after.filter((r) => r.enriched_at === null)).toEqual([]);
      expect(after.filter((r) => scoredBefore.some(([id]) => id === r.id)).map((r) => [r.id, r.enriched_at])).toEqual(scoredBefore);
      expect(calls.n).toBe(2);
      expect(fake.requests.filter((r) => r.status === 200)).toHaveLength(2);
    } finally {
      remote.close();
    }
  }, 30_000);
});
