import { describe, expect, it } from 'vitest';
import { foldAll, initialThreadState } from '../runtime/fold';
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
    expect(threadFacts(initialThreadState)).toEqual({ lastUser: -1, waiting: -1, firstUserText: null, savedSkillOffers: 0, subThreadKey: '' });
  });
});
