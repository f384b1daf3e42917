import { describe, expect, it } from 'vitest';
import type { ThreadEventInput } from '../events';
import { foldAll, initialThreadState, type ElicitationRow } from '../fold';

const stamped = (events: ThreadEventInput[]) => events.map((event, i) => ({ ...event, seq: i + 1, ts: i + 1 }));
const rowOf = (events: ReturnType<typeof stamped>) => foldAll(initialThreadState, events).rows.find((r): r is ElicitationRow => r.kind === 'elicitation');

const asked: ThreadEventInput = {
  type: 'elicitation.requested',
  elicitation_id: 'e1',
  server: 'crm',
  tool: 'open_account',
  invocation_id: 'inv1',
  turn_id: 't1',
  mode: 'form',
  message: 'Who is it for?',
  requested_schema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
};

describe('elicitation rows', () => {
  it('a question is a pending row with where it comes from and its fields', () => {
    expect(rowOf(stamped([asked]))).toEqual({
      kind: 'elicitation',
      id: 'e1',
      server: 'crm',
      tool: 'open_account',
      invocation_id: 'inv1',
      turn_id: 't1',
      mode: 'form',
      message: 'Who is it for?',
      requested_schema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
      status: 'pending',
    });
  });

  it('an answer accepts, declines or cancels it; accepted content is kept', () => {
    expect(rowOf(stamped([asked, { type: 'elicitation.answered', elicitation_id: 'e1', action: 'accept', content: { name: 'Ada' } }]))).toMatchObject({ status: 'accepted', content: { name: 'Ada' } });
    expect(rowOf(stamped([asked, { type: 'elicitation.answered', elicitation_id: 'e1', action: 'decline' }]))).toMatchObject({ status: 'declined' });
    expect(rowOf(stamped([asked, { type: 'elicitation.answered', elicitation_id: 'e1', action: 'cancel' }]))!.status).toBe('cancelled');
  });

  it('a question closed without an answer says why', () => {
    expect(rowOf(stamped([asked, { type: 'elicitation.answered', elicitation_id: 'e1', action: 'cancel', closed: 'timed_out' }]))).toMatchObject({ status: 'closed', closed: 'timed_out' });
  });

  it('the first answer stands: a close that raced the user changes nothing', () => {
    const row = rowOf(
      stamped([
        asked,
        { type: 'elicitation.answered', elicitation_id: 'e1', action: 'accept', content: { name: 'Ada' } },
        { type: 'elicitation.answered', elicitation_id: 'e1', action: 'cancel', closed: 'call_ended' },
      ]),
    );
    expect(row).toMatchObject({ status: 'accepted', content: { name: 'Ada' } });
    expect(row).not.toHaveProperty('closed');
  });

  it('an answer that arrives before its question makes the row; the question fills it in and keeps the answer', () => {
    const [request, answer] = stamped([asked, { type: 'elicitation.answered', elicitation_id: 'e1', action: 'accept', content: { name: 'Ada' } }]);
    const state = foldAll(initialThreadState, [answer, request]);
    expect(state.rows.filter((r) => r.kind === 'elicitation')).toHaveLength(1);
    expect(state.rows[0]).toMatchObject({ server: 'crm', message: 'Who is it for?', status: 'accepted', content: { name: 'Ada' } });
  });

  it('a replayed event changes nothing, and a malformed one is an error row', () => {
    const events = stamped([asked, { type: 'elicitation.answered', elicitation_id: 'e1', action: 'decline' }]);
    const once = foldAll(initialThreadState, events);
    expect(foldAll(once, events)).toBe(once);
    const bad = foldAll(initialThreadState, [{ type: 'elicitation.answered', elicitation_id: 'e1', action: 'maybe', seq: 1, ts: 1 }]);
    expect(bad.malformed).toBe(1);
    expect(bad.rows[0]!.kind).toBe('error');
  });
});
