import { createOfflineDriver, foldAll, initialThreadState, type Row, type ThreadEvent } from 'chatsurface/runtime';
import { describe, expect, it } from 'vitest';
import { createInPageReferenceWorkspace } from './inPage';

/**
 * The failures issue 42 lists, one test each, against the demo's registry
 * (the in-page reference workspace with the offline model, strict alignment):
 * a typo, a follow-up, small talk, a correction, thanks, dedupe, delete, the
 * opposite question, the e-mail proposed as an export, the widened export, the
 * import accepted without a file, zod's words, the full stop in a file name,
 * two steps in one message (and so the save-as-skill offer), "summarize the
 * records" and "List records: 6 records:.".
 */

type Moment = 'empty' | 'imported' | 'enriched' | 'mixed';

async function at(moment: Moment) {
  const { workspace, records } = await createInPageReferenceWorkspace({ enrichDelayMs: 0, driver: createOfflineDriver({ delayMs: 0 }) });
  const events: ThreadEvent[] = [];
  workspace.subscribe('t', (e) => events.push(e));
  workspace.setView({ threadId: 't', view: { kind: 'record_list' } });
  await new Promise((resolve) => setTimeout(resolve, 0));
  if (moment !== 'empty') await workspace.invoke({ threadId: 't', capability: 'records.import_csv', args: { file: 'customers.csv' } });
  if (moment === 'enriched' || moment === 'mixed') await workspace.invoke({ threadId: 't', capability: 'enrich.batch', args: { limit: 10 } });
  if (moment === 'mixed') await workspace.invoke({ threadId: 't', capability: 'records.import_csv', args: { file: 'new-leads.csv' } });
  const rows = () => foldAll(initialThreadState, events).rows;
  /** Sends a message and returns the rows it added, and the reply's words. */
  const say = async (text: string) => {
    const from = rows().length;
    await workspace.send({ threadId: 't', text });
    const added = rows().slice(from);
    return { rows: added, reply: replyOf(added) };
  };
  return { workspace, records, events, rows, say };
}

function replyOf(rows: readonly Row[]): string {
  return rows.flatMap((r) => (r.kind === 'assistant' ? [r.text.trim()] : [])).join(' ');
}

const CANNED = /I'm not sure what you'd like me to do/;

/** What the rows did: "ran x {args}", "proposed x {args}", "approval x". */
function actions(rows: readonly Row[]): string[] {
  return rows.flatMap((r) =>
    r.kind === 'invocation'
      ? [`ran ${r.capability} ${JSON.stringify(r.args)}`]
      : r.kind === 'proposal'
        ? [`proposed ${r.capability} ${JSON.stringify(r.args)}`]
        : r.kind === 'approval'
          ? [`approval ${r.capability}`]
          : [],
  );
}

describe('the offline model on the demo, as issue 42 found it', () => {
  it('reads typos in the verb and the noun ("shwo me the recrods", "exprot to the crm")', async () => {
    const { say } = await at('enriched');
    expect(actions((await say('shwo me the recrods')).rows)).toEqual([expect.stringMatching(/^(?:ran|proposed) records\.list /)]);
    const { rows, reply } = await say('exprot to the crm');
    expect(actions(rows)).toEqual([expect.stringMatching(/^(?:proposed|approval) crm\.export/)]);
    expect(reply).not.toMatch(CANNED);
  });

  it('resolves a follow-up against the previous question, and says back the filter it cannot express', async () => {
    const { say } = await at('mixed');
    await say("who still hasn't been enriched?");
    const { rows, reply } = await say('and the ones from last week?');
    expect(actions(rows)).toEqual([]);
    expect(reply).not.toMatch(CANNED);
    expect(reply).toMatch(/last week/);
  });

  it('answers small talk in one short sentence', async () => {
    const { say } = await at('empty');
    const { rows, reply } = await say("how's your day going?");
    expect(actions(rows)).toEqual([]);
    expect(reply).not.toMatch(CANNED);
    expect(reply.length).toBeLessThan(120);
  });

  it('takes a correction ("sorry, I meant new-leads.csv") as the same verb with the new argument', async () => {
    const { say } = await at('empty');
    await say('import customers.csv');
    const { rows } = await say('sorry, I meant new-leads.csv');
    expect(actions(rows)).toEqual([expect.stringMatching(/^(?:ran|proposed) records\.import_csv \{"file":"new-leads\.csv"\}$/)]);
  });

  it('takes "ok, thanks!" as thanks, not as accepting the first chip', async () => {
    const { say } = await at('mixed');
    const { rows, reply } = await say('ok, thanks!');
    expect(actions(rows)).toEqual([]);
    expect(reply).toMatch(/welcome/i);
  });

  it('says it cannot dedupe, and lists nothing in its place', async () => {
    const { say } = await at('mixed');
    const { rows, reply } = await say('can you dedupe the records?');
    expect(actions(rows)).toEqual([]);
    expect(reply).toMatch(/dedupe/);
  });

  it('says it cannot delete, naming the two closest things it can do', async () => {
    const { say } = await at('mixed');
    const { rows, reply } = await say('delete Barbara Liskov');
    expect(actions(rows)).toEqual([]);
    expect(reply).toMatch(/can't delete/);
    expect(reply).not.toMatch(CANNED);
  });

  it('answers "who still hasn\'t been enriched?" with the records waiting, not the enriched ones', async () => {
    const { say } = await at('mixed');
    const { rows, reply } = await say("who still hasn't been enriched?");
    expect(actions(rows)).toEqual(['ran records.list {"limit":20,"enriched":false}']);
    expect(reply).toMatch(/2 records waiting for enrichment/);
  });

  it('does not propose an export for "send a follow-up email to Grace Hopper"', async () => {
    const { say } = await at('enriched');
    const { rows, reply } = await say('send a follow-up email to Grace Hopper');
    expect(actions(rows)).toEqual([]);
    expect(reply).toMatch(/can't send a follow-up email to Grace Hopper/);
  });

  it('does not widen "export only the software ones to the CRM" into exporting all of them', async () => {
    const { say } = await at('enriched');
    const { rows, reply } = await say('export only the software ones to the CRM');
    expect(actions(rows)).toEqual([]);
    expect(reply).toMatch(/^I can export .*, but not only the software ones\.$/);
  });

  it('asks which file to import instead of proposing an import without one', async () => {
    const { say } = await at('empty');
    const { rows, reply } = await say('import a file');
    expect(actions(rows)).toEqual([]);
    expect(reply).toMatch(/^Which file should I import\?/);
    const answer = await say('customers.csv');
    expect(actions(answer.rows)).toEqual([expect.stringMatching(/^(?:ran|proposed) records\.import_csv \{"file":"customers\.csv"\}$/)]);
  });

  it('says a number out of range the way the card does, and proposes nothing', async () => {
    const { say } = await at('imported');
    const { rows, reply } = await say('enrich 80 records');
    expect(actions(rows)).toEqual([]);
    expect(reply).toMatch(/Records to enrich must be 50 or less/);
    expect(reply).not.toMatch(/Too big|<=|limit/);
  });

  it('keeps the full stop out of the file name ("Import CSV new-leads.csv.")', async () => {
    const { say } = await at('empty');
    const { rows, reply } = await say('Import CSV new-leads.csv.');
    expect(actions(rows)).toEqual(['ran records.import_csv {"file":"new-leads.csv"}']);
    expect(reply).toBe('Imported 2 records from new-leads.csv.');
  });

  it('runs two steps of one message in order ("import customers.csv and then enrich them")', async () => {
    const { say, workspace, rows: all } = await at('empty');
    const { rows } = await say('import customers.csv and then enrich them');
    expect(actions(rows)).toEqual(['ran records.import_csv {"file":"customers.csv"}', expect.stringMatching(/^proposed enrich\.batch /)]);
    // Strict alignment: "enrich" is not the title, so the second step waits for Accept, then runs.
    const proposal = rows.find((r) => r.kind === 'proposal')!;
    await workspace.decide({ threadId: 't', id: proposal.id, decision: 'accept' });
    expect(all().filter((r) => r.kind === 'invocation').map((r) => (r.kind === 'invocation' ? `${r.capability} ${r.state}` : ''))).toEqual(['records.import_csv done', 'enrich.batch done']);
  });

  it('offers to save a repeated two-step request as a skill', async () => {
    const { say, rows } = await at('empty');
    await say('Import CSV customers.csv, then Enrich records');
    expect(rows().filter((r) => r.kind === 'skill_offer')).toEqual([]);
    const second = await say('Import CSV new-leads.csv and then Enrich records');
    expect(actions(second.rows)).toEqual(['ran records.import_csv {"file":"new-leads.csv"}', expect.stringMatching(/^ran enrich\.batch /)]);
    const offers = rows().filter((r) => r.kind === 'skill_offer');
    expect(offers).toHaveLength(1);
    expect(offers[0]).toMatchObject({ sequence: ['records.import_csv', 'enrich.batch'] });
  });

  it('summarises the records, not the thread, for "summarize the records right now"', async () => {
    const { say } = await at('mixed');
    const { rows, reply } = await say('summarize the records right now');
    expect(actions(rows)).toEqual(['ran records.list {"limit":20}']);
    expect(reply).toBe('You have 6 records; 4 of 6 are enriched.');
  });

  it('reports "List records" in a sentence that reads well', async () => {
    const { say } = await at('mixed');
    const { reply } = await say('List records');
    expect(reply).toBe('You have 6 records; 4 of 6 are enriched.');
  });

  it('varies the reply it cannot place, naming the two closest things it can do', async () => {
    const { say } = await at('mixed');
    const a = (await say('qwerty uiop')).reply;
    const b = (await say('the moon is made of cheese')).reply;
    expect(a).not.toBe(b);
    for (const reply of [a, b]) expect(reply).toMatch(/ or /);
  });
});
