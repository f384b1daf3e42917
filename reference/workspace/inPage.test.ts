import { foldAll, initialThreadState, type InvocationRow, type ThreadEvent } from 'chatsurface/runtime';
import { describe, expect, it } from 'vitest';
import { createInPageReferenceWorkspace } from './inPage';

describe('the in-page reference workspace', () => {
  it('runs the same flow as the server: import, violation on the bad file, enrich, approval-gated export', async () => {
    const { workspace, records, files } = await createInPageReferenceWorkspace({ enrichDelayMs: 0 });
    const events: ThreadEvent[] = [];
    workspace.subscribe('t', (e) => events.push(e));
    await workspace.invoke({ threadId: 't', capability: 'records.import_csv', args: { file: 'customers.csv' } });
    await workspace.invoke({ threadId: 't', capability: 'records.import_csv', args: { file: 'broken.csv' } });
    expect(await records.count()).toBe(4);
    await workspace.invoke({ threadId: 't', capability: 'enrich.batch', args: { limit: 10 } });
    expect(await records.count({ enriched: true })).toBe(4);
    await workspace.send({ threadId: 't', text: 'export to CRM' });
    let state = foldAll(initialThreadState, events);
    const approval = state.rows.find((r) => r.kind === 'approval');
    expect(approval).toMatchObject({ status: 'pending', capability: 'crm.export' });
    await workspace.decide({ threadId: 't', id: approval!.id, decision: 'approve' });
    state = foldAll(initialThreadState, events);
    const cards = state.rows.filter((r): r is InvocationRow => r.kind === 'invocation');
    expect(cards.map((c) => [c.capability, c.state, (c.violations ?? []).map((v) => v.postcondition)])).toEqual([
      ['records.import_csv', 'done', []],
      ['records.import_csv', 'done', ['row_count_change']],
      ['enrich.batch', 'done', []],
      ['crm.export', 'done', []],
    ]);
    expect([...files.keys()]).toHaveLength(1);
  });

  it('pins the corpus search to the tenant', async () => {
    const { workspace } = await createInPageReferenceWorkspace();
    const result = await workspace.invoke({ threadId: 't', capability: 'corpus.search', args: { query: 'export approval' } });
    const { results } = result.structuredContent as { results: { id: string }[] };
    expect(results[0]?.id).toBe('acme-3');
    expect((await workspace.invoke({ threadId: 't', capability: 'corpus.search', args: { query: 'x', collection: 'globex' } })).isError).toBe(true);
  });
});
