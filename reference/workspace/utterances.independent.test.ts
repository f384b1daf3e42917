import { createOfflineDriver, foldAll, initialThreadState, type Row, type ThreadEvent } from 'chatsurface/runtime';
import { describe, expect, it } from 'vitest';
import { createInPageReferenceWorkspace } from './inPage';
import { INDEPENDENT, type IndependentCase, type IndependentMoment } from './utterances.independent';

/**
 * Scores the independent utterance set (issue 42) against the offline model
 * through the in-page reference workspace, as the demo runs it. Each case is
 * one of:
 * - satisfied: what was expected happened, and the reply is in plain words;
 * - wrong action: a capability ran, was proposed or waited for approval that
 *   the user did not ask for, or with arguments other than asked (a filter
 *   dropped, a file name with its full stop);
 * - honest miss: nothing ran and the reply says so in plain words;
 * - leak: a reply shows validation text, argument names, machine names or
 *   stray punctuation (counted apart: every miss must be honest).
 */

async function at(moment: IndependentMoment) {
  const { workspace, records } = await createInPageReferenceWorkspace({ enrichDelayMs: 0, driver: createOfflineDriver({ delayMs: 0 }) });
  const events: ThreadEvent[] = [];
  workspace.subscribe('t', (e) => events.push(e));
  workspace.setView({ threadId: 't', view: { kind: 'record_list' } });
  await new Promise((resolve) => setTimeout(resolve, 0));
  if (moment !== 'empty') await workspace.invoke({ threadId: 't', capability: 'records.import_csv', args: { file: 'customers.csv' } });
  if (moment === 'enriched' || moment === 'mixed') await workspace.invoke({ threadId: 't', capability: 'enrich.batch', args: { limit: 10 } });
  if (moment === 'mixed') await workspace.invoke({ threadId: 't', capability: 'records.import_csv', args: { file: 'new-leads.csv' } });
  return { workspace, records, events };
}

type Action = { capability: string; args: unknown; how: 'ran' | 'proposed' | 'approval'; failed?: boolean };

/** The actions rows show, in order. */
function actionsOf(rows: readonly Row[]): Action[] {
  return rows.flatMap((r): Action[] => {
    if (r.kind === 'invocation') return [{ capability: r.capability, args: r.args, how: 'ran', failed: r.state === 'failed' }];
    if (r.kind === 'proposal') return [{ capability: r.capability, args: r.args, how: 'proposed' }];
    if (r.kind === 'approval') return [{ capability: r.capability, args: r.args, how: 'approval' }];
    return [];
  });
}

/** Runs a case: its dialogue, then its message; with `steps`, the user accepts each proposal and approval. */
async function play(c: IndependentCase) {
  const { workspace, events } = await at(c.moment);
  for (const text of c.before ?? []) await workspace.send({ threadId: 't', text });
  const from = foldAll(initialThreadState, events).rows.length;
  await workspace.send({ threadId: 't', text: c.text });
  if ('steps' in c.expect) {
    for (let i = 0; i < 6; i++) {
      const rows = foldAll(initialThreadState, events).rows.slice(from);
      const waiting = rows.find((r) => (r.kind === 'proposal' || r.kind === 'approval') && r.status === 'pending');
      if (!waiting) break;
      await workspace.decide({ threadId: 't', id: waiting.id, decision: waiting.kind === 'proposal' ? 'accept' : 'approve' });
    }
  }
  const rows = foldAll(initialThreadState, events).rows.slice(from);
  const reply = rows.flatMap((r) => (r.kind === 'assistant' ? [r.text.trim()] : [])).join(' ');
  const asked = rows.some((r) => r.kind === 'question');
  return { rows, reply, asked };
}

const LEAKS: [string, RegExp][] = [
  ['validation text', /Invalid input|expected \w+, received|Too (?:big|small)|[<>]=/i],
  ['a machine name', /\b(?:records\.(?:list|import_csv)|enrich\.batch|crm\.export|corpus\.search|import_csv)\b/],
  ['an argument name', /\b(?:file|limit|unscored|enriched|query)\s*[:=]\s/],
  ['stray punctuation', /:\.|\.\.(?!\.)|\s[.,;:](?:\s|$)|,\./],
];

type Verdict = 'satisfied' | 'wrong action' | 'honest miss' | 'leak';

function argsFit(actual: unknown, wanted: Record<string, unknown> | undefined): boolean {
  const a = (actual ?? {}) as Record<string, unknown>;
  return Object.entries(wanted ?? {}).every(([k, v]) => (v === null ? a[k] === undefined : JSON.stringify(a[k]) === JSON.stringify(v)));
}

function judge(c: IndependentCase, rows: readonly Row[], reply: string, asked: boolean): { verdict: Verdict; why: string } {
  const actions = actionsOf(rows);
  const seen = actions.map((a) => `${a.how} ${a.capability} ${JSON.stringify(a.args)}${a.failed ? ' (failed)' : ''}`).join(', ') || 'no action';
  const leak = LEAKS.find(([, re]) => re.test(reply));
  const say = `${seen}; reply ${JSON.stringify(reply.slice(0, 160))}`;
  if (leak) return { verdict: 'leak', why: `${leak[0]} in the reply; ${say}` };
  const e = c.expect;
  if ('none' in e) {
    if (actions.length) return { verdict: 'wrong action', why: `expected no action; ${say}` };
    if (!reply) return { verdict: 'honest miss', why: `no reply; ${say}` };
    if (e.reply && !e.reply.test(reply)) return { verdict: 'honest miss', why: `reply does not match ${e.reply}; ${say}` };
    return { verdict: 'satisfied', why: '' };
  }
  const wanted = 'steps' in e ? e.steps : [{ action: e.action, args: e.args }];
  // Any action outside the expected ones, or one of them with other arguments, is wrong.
  for (const a of actions) {
    const match = wanted.some((w) => w.action === a.capability && argsFit(a.args, w.args));
    if (!match) return { verdict: 'wrong action', why: `expected ${wanted.map((w) => `${w.action} ${JSON.stringify(w.args ?? {})}`).join(' then ')}; ${say}` };
  }
  if (actions.some((a) => a.failed)) return { verdict: 'wrong action', why: `a run failed; ${say}` };
  const done = actions.filter((a) => a.how === 'ran' || !('steps' in e));
  const inOrder = wanted.length === done.length && wanted.every((w, i) => w.action === done[i]!.capability);
  if (!inOrder) return { verdict: 'honest miss', why: `expected ${wanted.map((w) => w.action).join(' then ')}${asked ? ' (asked a question)' : ''}; ${say}` };
  if ('reply' in e && e.reply && !e.reply.test(reply)) return { verdict: 'honest miss', why: `reply does not match ${e.reply}; ${say}` };
  return { verdict: 'satisfied', why: '' };
}

describe('the independent utterance set (issue 42), against the offline model through the reference workspace', () => {
  it('has at least 150 sentences, the fifteen of the issue among them, of every kind', () => {
    expect(INDEPENDENT.length).toBeGreaterThanOrEqual(150);
    expect(INDEPENDENT.filter((c) => c.issue)).toHaveLength(15);
    expect(new Set(INDEPENDENT.map((c) => c.kind)).size).toBe(10);
  });

  it('does no wrong action, satisfies at least 85%, every miss honest, and the issue’s fifteen all satisfied', async () => {
    const tally: Record<Verdict, string[]> = { satisfied: [], 'wrong action': [], 'honest miss': [], leak: [] };
    for (const c of INDEPENDENT) {
      const { rows, reply, asked } = await play(c);
      const { verdict, why } = judge(c, rows, reply, asked);
      tally[verdict].push(`  [${c.kind}, ${c.moment}${c.issue ? ', issue' : ''}] ${c.before ? `${c.before.map((b) => `"${b}"`).join(' → ')} → ` : ''}"${c.text}": ${why}`);
    }
    const n = INDEPENDENT.length;
    const pct = (k: Verdict) => ((100 * tally[k].length) / n).toFixed(1);
    const lines = [
      `independent set: ${tally.satisfied.length}/${n} satisfied (${pct('satisfied')}%), ${tally['wrong action'].length} wrong action, ${tally['honest miss'].length} honest miss, ${tally.leak.length} leak`,
      ...(['wrong action', 'leak', 'honest miss'] as const).flatMap((k) => (tally[k].length ? [`${k}:`, ...tally[k]] : [])),
    ];
    console.log(lines.join('\n'));
    const issueMisses = [...tally['wrong action'], ...tally['honest miss'], ...tally.leak].filter((l) => l.includes(', issue]'));
    expect(tally['wrong action'], lines.join('\n')).toEqual([]);
    expect(tally.leak, lines.join('\n')).toEqual([]);
    expect(issueMisses, lines.join('\n')).toEqual([]);
    expect(tally.satisfied.length / n, lines.join('\n')).toBeGreaterThanOrEqual(0.85);
  }, 120_000);
});
