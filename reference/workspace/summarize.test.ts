import { loadSkillText } from 'chatsurface/internal';
import { createOfflineDriver, foldAll, initialThreadState, type ThreadEvent } from 'chatsurface/runtime';
import { describe, expect, it } from 'vitest';
import { createInPageReferenceWorkspace } from './inPage';

describe('/summarize with the offline model', () => {
  it("summarises the thread from its structured results, naming what ran, after the failed check's acknowledgement", async () => {
    const { workspace } = await createInPageReferenceWorkspace({ enrichDelayMs: 0, driver: createOfflineDriver({ delayMs: 0 }) });
    const events: ThreadEvent[] = [];
    workspace.subscribe('t', (e) => events.push(e));
    await workspace.invoke({ threadId: 't', capability: 'records.import_csv', args: { file: 'customers.csv' } });
    await workspace.invoke({ threadId: 't', capability: 'enrich.batch', args: { limit: 10, unscored: true } });
    await workspace.invoke({ threadId: 't', capability: 'records.import_csv', args: { file: 'broken.csv' } });
    const nodes = await workspace.query!({ threadId: 't', q: 'namespace:Skill nodeType:Skill' });
    const skill = nodes.find((n) => n.name === '/summarize');
    expect(skill?.path).toBe('Skill/summarize');
    await workspace.send({ threadId: 't', text: loadSkillText(skill!, 'the records') });
    const reply = foldAll(initialThreadState, events).rows.filter((r) => r.kind === 'assistant').at(-1);
    expect(reply?.kind === 'assistant' && reply.text.split('\n')).toEqual([
      expect.stringMatching(/^Before we go on: the last run finished but a check did not hold\. Import CSV: Import CSV should have added 2 rows/),
      '',
      'About the records: so far, 3 runs:',
      '- Import CSV: Imported 4 records from customers.csv.',
      '- Enrich records: Enriched 4 records.',
      '- Import CSV: Imported 0 records from broken.csv; 2 rows skipped.',
    ]);
  });
});
