import { describe, expect, it } from 'vitest';
import { textResult } from '../results';
import type { ThreadEventInput, ThreadEventType } from '../events';
import { fold, foldAll, initialThreadState, type Row, type ThreadState } from '../fold';
import { addsRow, isDecision, isWaiting, opensRow, rowKeyOf } from './rowKeys';

/** One event of every type (a new type does not compile until it has one here). */
const samples: { [T in ThreadEventType]: Extract<ThreadEventInput, { type: T }> } = {
  'message.created': { type: 'message.created', message_id: 'm1', role: 'assistant', text: 'Hello' },
  'message.delta': { type: 'message.delta', message_id: 'm1', delta: ' there' },
  'message.done': { type: 'message.done', message_id: 'm1' },
  'message.feedback': { type: 'message.feedback', message_id: 'm1', rating: 'good' },
  'reasoning.delta': { type: 'reasoning.delta', message_id: 'm1', delta: 'Thinking' },
  'reasoning.done': { type: 'reasoning.done', message_id: 'm1' },
  'message.cited': { type: 'message.cited', message_id: 'm1', citation: { source: { kind: 'document', title: 'Guide' }, cited_text: 'A line.', range: { start: 0, end: 2 } } },
  'turn.started': { type: 'turn.started', turn_id: 't1' },
  'turn.done': { type: 'turn.done', turn_id: 't1', outcome: 'answered' },
  'turn.error': { type: 'turn.error', turn_id: 't1', code: 'model_error', message: 'It failed.', recoverable: true },
  'invocation.args.delta': { type: 'invocation.args.delta', invocation_id: 'i1', call_id: 'c1', capability: 'records.count', title: 'Count', delta: '{"limit":' },
  'capability.queued': { type: 'capability.queued', invocation_id: 'i1', capability: 'records.count', title: 'Count', args: {} },
  'capability.started': { type: 'capability.started', invocation_id: 'i1', capability: 'records.count', title: 'Count', args: {} },
  'capability.progress': { type: 'capability.progress', invocation_id: 'i1', progress: 1 },
  'capability.output': { type: 'capability.output', invocation_id: 'i1', stream: 'log', text: 'line' },
  'capability.done': { type: 'capability.done', invocation_id: 'i1', result: textResult('42.') },
  'capability.error': { type: 'capability.error', invocation_id: 'i1', capability: 'records.count', error: { code: 'boom', message: 'It broke.' }, recoverable: true },
  'capability.quality_violation': { type: 'capability.quality_violation', invocation_id: 'i1', postcondition: 'rows', expected: '1', actual: '0', message: 'No row.' },
  'capability.checked': { type: 'capability.checked', invocation_id: 'i1', checks: [{ postcondition: 'rows', text: 'One row.' }] },
  'quality.slow': { type: 'quality.slow', invocation_id: 'i1', max_ms: 10, actual_ms: 20 },
  'proposal.created': { type: 'proposal.created', proposal_id: 'p1', capability: 'records.count', title: 'Count', args: {} },
  'proposal.resolved': { type: 'proposal.resolved', proposal_id: 'p1', decision: 'accepted' },
  'approval.requested': { type: 'approval.requested', approval_id: 'a1', capability: 'records.drop', title: 'Drop', args: {}, reason: 'It deletes.' },
  'approval.resolved': { type: 'approval.resolved', approval_id: 'a1', decision: 'approved' },
  'clarify.requested': { type: 'clarify.requested', question_id: 'q1', question: 'Which?', options: [] },
  'clarify.answered': { type: 'clarify.answered', question_id: 'q1', answer: 'That one' },
  'standing.requested': { type: 'standing.requested', request_id: 'r1', text: 'Every morning' },
  'skill.activated': { type: 'skill.activated', skill: 'Skill/research', title: 'Research' },
  'skill.offered': { type: 'skill.offered', offer_id: 'o1', sequence: ['a', 'b'], titles: ['A', 'B'], name: 'ab', description: 'A then B.' },
  'skill.saved': { type: 'skill.saved', offer_id: 'o1', path: 'me/Skill/ab', name: '/ab' },
  'skill.offer_dismissed': { type: 'skill.offer_dismissed', offer_id: 'o1' },
  'subthread.opened': { type: 'subthread.opened', subthread_id: 's1', skill: 'Skill/research', title: '/research', task: 'Look it up' },
  'subthread.done': { type: 'subthread.done', subthread_id: 's1', outcome: 'done', summary: 'Found it.' },
  'subthread.linked': { type: 'subthread.linked', parent_id: 'parent', skill: 'Skill/research', title: '/research', task: 'Look it up' },
  'view.changed': { type: 'view.changed', view: { kind: 'record', id: 'r1' } },
  'composer.changed': { type: 'composer.changed', composer: { modelName: 'model-b' } },
  'model.message': { type: 'model.message', message: { role: 'user', text: 'Hello' } },
  'reply.regenerated': { type: 'reply.regenerated', message_id: 'u1', reply_id: 'reply-2' },
  'version.selected': { type: 'version.selected', part: 'message', message_id: 'u1', version: 'u2' },
  'elicitation.requested': { type: 'elicitation.requested', elicitation_id: 'e1', server: 'lab', mode: 'form', message: 'Your name?', requested_schema: { type: 'object', properties: {} } },
  'elicitation.answered': { type: 'elicitation.answered', elicitation_id: 'e1', action: 'decline' },
};

const stamped = (event: ThreadEventInput, seq: number) => ({ ...event, seq, ts: seq });
const keys = (state: ThreadState) => state.rows.map((row: Row) => `${row.kind}:${row.id}`);
const all = Object.values(samples) as ThreadEventInput[];
/** The event that opens the row with this key. */
const openerOf = (key: string) => all.find((e) => opensRow(e) && rowKeyOf(e) === key);

describe('rowKeyOf, opensRow and addsRow (which events make which rows) agree with the fold', () => {
  it.each(all.map((e) => [e.type, e] as const))('%s', (_type, event) => {
    const key = rowKeyOf(stamped(event, 1));
    const alone = fold(initialThreadState, stamped(event, 1));
    expect(alone.malformed).toBe(0);
    if (key === null) {
      // About no row: folded alone it makes none.
      expect(opensRow(event)).toBe(false);
      expect(addsRow(event)).toBe(false);
      expect(alone.rows).toHaveLength(0);
      return;
    }
    // Folded alone, any event about a row makes it (a later event may come first).
    expect(keys(alone)).toContain(key);
    if (opensRow(event)) {
      expect(addsRow(event)).toBe(true);
      expect(keys(alone)).toEqual([key]);
      return;
    }
    // After the event that opens its row, it changes that row, and adds one only when addsRow says so.
    const opener = openerOf(key);
    if (!opener) throw new Error(`No sample event opens the row ${key}`);
    const before = fold(initialThreadState, stamped(opener, 1));
    expect(keys(before)).toEqual([key]);
    const after = fold(before, stamped(event, 2));
    expect(keys(after).slice(0, before.rows.length)).toEqual(keys(before));
    expect(after.rows.length - before.rows.length).toBe(addsRow(event) ? 1 : 0);
  });

  it('names the message row by its role and the error row by its seq, and no row without an id', () => {
    expect(rowKeyOf({ ...samples['message.created'], role: 'user' })).toBe('user:m1');
    expect(rowKeyOf(stamped(samples['turn.error'], 7))).toBe('error:turn-error-7');
    expect(rowKeyOf({ type: 'skill.saved', path: 'me/Skill/ab', name: '/ab' })).toBeNull();
    expect(rowKeyOf({ type: 'no.such.event', message_id: 'm1' })).toBeNull();
    expect(rowKeyOf({ type: '__proto__' })).toBeNull();
  });
});

describe('isWaiting', () => {
  it('is a proposal, approval or question still pending, and nothing else', () => {
    const waiting = foldAll(
      initialThreadState,
      ['proposal.created', 'approval.requested', 'clarify.requested', 'skill.offered', 'subthread.opened'].map((t, i) => stamped(samples[t as ThreadEventType], i + 1)),
    );
    expect(waiting.rows.filter(isWaiting).map((r) => r.kind)).toEqual(['proposal', 'approval', 'question']);
    const decided = foldAll(
      waiting,
      ['proposal.resolved', 'approval.resolved', 'clarify.answered'].map((t, i) => stamped(samples[t as ThreadEventType], i + 6)),
    );
    expect(decided.rows.filter(isWaiting)).toEqual([]);
    expect(decided.rows.filter(isDecision).map((r) => r.kind)).toEqual(['proposal', 'approval', 'question']);
  });
});
