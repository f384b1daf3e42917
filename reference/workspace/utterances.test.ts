import { createOfflineDriver, foldAll, initialThreadState, type ThreadEvent, type Row } from 'chatsurface/runtime';
import { describe, expect, it } from 'vitest';
import { createInPageReferenceWorkspace } from './inPage';
import { UTTERANCES, type Moment, type Utterance } from './utterances';

/** Everything a moment needs before the user speaks, through the workspace as the demo does it. */
async function at(moment: Moment) {
  const { workspace, records } = await createInPageReferenceWorkspace({ enrichDelayMs: 0, driver: createOfflineDriver({ delayMs: 0 }) });
  const events: ThreadEvent[] = [];
  workspace.subscribe('t', (e) => events.push(e));
  workspace.setView({ threadId: 't', view: { kind: 'record_list' } });
  await new Promise((resolve) => setTimeout(resolve, 0));
  if (moment !== 'empty') await workspace.invoke({ threadId: 't', capability: 'records.import_csv', args: { file: 'customers.csv' } });
  if (moment === 'enriched') await workspace.invoke({ threadId: 't', capability: 'enrich.batch', args: { limit: 10 } });
  if (moment === 'proposed') {
    await workspace.send({ threadId: 't', text: 'could you fill in the industry and website' });
    const rows = foldAll(initialThreadState, events).rows;
    const proposal = rows.find((r) => r.kind === 'proposal');
    if (proposal?.kind !== 'proposal' || proposal.capability !== 'enrich.batch') throw new Error('the proposed moment did not propose Enrich records');
  }
  return { workspace, records, events };
}

/** What the user saw after their message: cards, proposals, approvals, questions and the reply. */
async function outcomeOf(u: Utterance) {
  const { workspace, events } = await at(u.moment);
  const before = foldAll(initialThreadState, events).rows.length;
  await workspace.send({ threadId: 't', text: u.text });
  const rows: Row[] = foldAll(initialThreadState, events).rows.slice(before);
  const reply = rows.flatMap((r) => (r.kind === 'assistant' ? [r.text.trim()] : [])).join(' ');
  return { rows, reply };
}

function problems(u: Utterance, rows: Row[], reply: string): string[] {
  const out: string[] = [];
  const e = u.expect;
  const ran = rows.flatMap((r) => (r.kind === 'invocation' ? [r] : []));
  const proposed = rows.flatMap((r) => (r.kind === 'proposal' ? [r] : []));
  const approvals = rows.flatMap((r) => (r.kind === 'approval' ? [r] : []));
  const questions = rows.flatMap((r) => (r.kind === 'question' ? [r] : []));
  const errors = rows.flatMap((r) => (r.kind === 'error' ? [r.message] : []));
  const seen = [
    ...ran.map((r) => `ran ${r.capability} ${JSON.stringify(r.args)}${r.state === 'failed' ? ` (error: ${r.error?.message})` : ''}`),
    ...proposed.map((r) => `proposed ${r.capability} ${JSON.stringify(r.args)}`),
    ...approvals.map((r) => `approval for ${r.capability}`),
    ...questions.map((r) => `asked "${r.question}"`),
    ...errors.map((m) => `error "${m}"`),
  ];
  const want = (ok: boolean, what: string) => {
    if (!ok) out.push(`expected ${what}; saw ${seen.join(', ') || 'nothing but the reply'}`);
  };
  const argsFit = (args: unknown, wanted?: Record<string, unknown>) =>
    !wanted || Object.entries(wanted).every(([k, v]) => JSON.stringify((args as Record<string, unknown> | undefined)?.[k]) === JSON.stringify(v));
  if ('runs' in e) {
    want(ran.length === 1 && ran[0]!.capability === e.runs && argsFit(ran[0]!.args, e.args) && ran[0]!.state === 'done' && proposed.length === 0, `${e.runs} to run${e.args ? ` with ${JSON.stringify(e.args)}` : ''}`);
  } else if ('proposed' in e) {
    want(ran.length === 0 && proposed.length === 1 && proposed[0]!.capability === e.proposed && argsFit(proposed[0]!.args, e.args), `${e.proposed} proposed${e.args ? ` with ${JSON.stringify(e.args)}` : ''}`);
  } else if ('approval' in e) {
    want(ran.length === 0 && approvals.length === 1 && approvals[0]!.capability === e.approval, `an approval for ${e.approval}`);
  } else if ('question' in e) {
    want(ran.length === 0 && questions.length === 1, 'the one question');
  } else {
    want(ran.length === 0 && proposed.length === 0 && approvals.length === 0 && questions.length === 0, 'only a reply');
  }
  if ('reply' in e && e.reply && !e.reply.test(reply)) out.push(`reply ${JSON.stringify(reply)} does not match ${e.reply}`);
  if (/I am the offline model|I can do:/.test(reply)) out.push(`reply shows the catalog: ${JSON.stringify(reply)}`);
  if (reply.length > 400) out.push(`reply is ${reply.length} characters long`);
  if (errors.length) out.push(`error rows: ${errors.join(' | ')}`);
  return out;
}

describe('the utterance set, against the offline model through the reference workspace', () => {
  it('has at least 60 sentences across every group', () => {
    expect(UTTERANCES.length).toBeGreaterThanOrEqual(60);
    expect(new Set(UTTERANCES.map((u) => u.group))).toEqual(new Set(['one-shot', 'standing', 'ambiguous', 'accept', 'question', 'off-topic', 'hostile']));
  });

  it('gets at least 95% of them right, and prints the ones it misses', async () => {
    const misses: string[] = [];
    for (const u of UTTERANCES) {
      const { rows, reply } = await outcomeOf(u);
      const found = problems(u, rows, reply);
      if (found.length) misses.push(`  [${u.group}, ${u.moment}] "${u.text.slice(0, 70)}": ${found.join('; ')}`);
    }
    const passed = UTTERANCES.length - misses.length;
    const score = ((100 * passed) / UTTERANCES.length).toFixed(1);
    console.log(`utterances: ${passed}/${UTTERANCES.length} (${score}%) as expected${misses.length ? `; missed:\n${misses.join('\n')}` : ''}`);
    expect(passed / UTTERANCES.length, misses.join('\n')).toBeGreaterThanOrEqual(0.95);
  }, 60_000);
});
