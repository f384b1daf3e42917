import { describe, expect, it } from 'vitest';
import { fold, foldAll, initialThreadState, type ThreadState } from '../runtime/fold';
import { threadFacts } from './threadFacts';

const message = (seq: number, role: 'user' | 'assistant', text: string) => ({ type: 'message.created', seq, ts: seq, message_id: `m${seq}`, role, text });

describe('threadFacts', () => {
  it('finds the newest user message, the first one’s text and the waiting decision in one state', () => {
    const t1 = foldAll(initialThreadState, [
      message(1, 'user', 'first question'),
      message(2, 'assistant', 'an answer'),
      { type: 'approval.requested', seq: 3, ts: 3, approval_id: 'a1', capability: 'crm.export', title: 'Export to CRM', args: {}, reason: 'It writes a file.' },
      message(4, 'user', 'second question'),
    ]);
    expect(threadFacts(t1)).toMatchObject({ lastUser: 3, waiting: 2, firstUserText: 'first question', savedSkillOffers: 0, subThreadKey: '' });
    // The same state gives the same facts without another pass.
    expect(threadFacts(t1)).toBe(threadFacts(t1));

    // A newer state has its own: the approval decided, a new message; the older state's facts stay as they were.
    const t2 = foldAll(t1, [{ type: 'approval.resolved', seq: 5, ts: 5, approval_id: 'a1', decision: 'denied' }, message(6, 'user', 'third')]);
    expect(threadFacts(t2)).toMatchObject({ lastUser: 4, waiting: -1, firstUserText: 'first question' });
    expect(threadFacts(t1)).toMatchObject({ lastUser: 3, waiting: 2 });
  });

  it('an empty thread has no user message and nothing waiting', () => {
    expect(threadFacts(initialThreadState)).toEqual({ lastUser: -1, waiting: -1, firstUserText: null, firstUserSkill: null, savedSkillOffers: 0, subThreadKey: '' });
  });

  it('reads each new state of a thread from the last one and finds what a fresh pass over its rows finds', () => {
    // A deterministic mix: messages, decisions asked and answered, skill offers saved, sub-threads opened and done.
    let seed = 7;
    const random = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
    let state: ThreadState = initialThreadState;
    const asked: string[] = [];
    const offers: string[] = [];
    const subs: string[] = [];
    for (let seq = 1; seq <= 600; seq++) {
      const r = random();
      const stamp = { seq, ts: seq };
      let event: Record<string, unknown>;
      if (r < 0.3) event = { type: 'message.created', ...stamp, message_id: `m${seq}`, role: random() < 0.5 ? 'user' : 'assistant', text: `text ${seq}` };
      else if (r < 0.45) {
        asked.push(`a${seq}`);
        event = { type: 'approval.requested', ...stamp, approval_id: `a${seq}`, capability: 'crm.export', title: 'Export', args: {}, reason: 'It writes.' };
      } else if (r < 0.6 && asked.length) event = { type: 'approval.resolved', ...stamp, approval_id: asked.splice(Math.floor(random() * asked.length), 1)[0], decision: 'approved' };
      else if (r < 0.7) {
        offers.push(`o${seq}`);
        event = { type: 'skill.offered', ...stamp, offer_id: `o${seq}`, sequence: ['a', 'b'], titles: ['A', 'B'], name: 'ab', description: 'Does a then b.' };
      } else if (r < 0.8 && offers.length) event = { type: 'skill.saved', ...stamp, offer_id: offers.shift(), path: 'me/Skill/ab', name: '/ab' };
      else if (r < 0.88) {
        subs.push(`s${seq}`);
        event = { type: 'subthread.opened', ...stamp, subthread_id: `s${seq}`, skill: 'Skill/research', title: '/research', task: `task ${seq}` };
      } else if (r < 0.94 && subs.length) event = { type: 'subthread.done', ...stamp, subthread_id: subs.shift(), outcome: 'done', summary: 'Found it.', title: '/research' };
      else event = { type: 'message.created', ...stamp, message_id: `u${seq}`, role: 'user', text: `user ${seq}` };
      state = fold(state, event);
      // A copy has arrays of its own, so its facts come from a pass over all its rows.
      const fresh = threadFacts(JSON.parse(JSON.stringify(state)) as ThreadState);
      expect(threadFacts(state)).toEqual(fresh);
    }
    expect(state.malformed).toBe(0);
    expect(threadFacts(state).waiting).toBeGreaterThanOrEqual(0);
    expect(threadFacts(state).savedSkillOffers).toBeGreaterThan(0);
    expect(threadFacts(state).subThreadKey).not.toBe('');
  });
});
