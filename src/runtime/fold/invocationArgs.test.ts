import { describe, expect, it } from 'vitest';
import { textResult } from '../results';
import { foldAll, initialThreadState, type InvocationRow } from '../fold';
import { parseThreadEvent } from '../events';

const piece = (seq: number, delta: string) => ({ type: 'invocation.args.delta', seq, ts: 1_000 + seq, invocation_id: 'inv1', call_id: 'toolu_1', capability: 'records.list', title: 'List records', turn_id: 't1', delta });
const started = (seq: number) => ({ type: 'capability.started', seq, ts: 1_000 + seq, invocation_id: 'inv1', call_id: 'toolu_1', capability: 'records.list', title: 'List records', args: { stage: 'lead', limit: 5 }, turn_id: 't1' });
const done = (seq: number) => ({ type: 'capability.done', seq, ts: 1_000 + seq, invocation_id: 'inv1', result: textResult('5 records.') });
const dropped = (seq: number) => ({ ...piece(seq, ''), dropped: 'Not run: the reply stopped before this call was complete.' });

const fold = (events: unknown[]) => foldAll(initialThreadState, events);
const cardOf = (events: unknown[]) => fold(events).rows.find((r): r is InvocationRow => r.kind === 'invocation');

describe('invocation.args.delta', () => {
  it('parses as a thread event, and refuses one without its call in plain words', () => {
    expect(parseThreadEvent(piece(1, '{"st')).ok).toBe(true);
    const { call_id: _, ...noCall } = piece(1, '{');
    expect(parseThreadEvent(noCall)).toEqual({ ok: false, error: 'call_id: Invalid input: expected string, received undefined' });
  });

  it('makes the card of the invocation the call becomes, queued, with the JSON text written so far', () => {
    const card = cardOf([piece(1, '{"stage":'), piece(2, ' "le')]);
    expect(card).toMatchObject({ id: 'inv1', capability: 'records.list', title: 'List records', state: 'queued', call_id: 'toolu_1', turn_id: 't1', argsText: '{"stage": "le', args: undefined });
    // Not running yet: not in the cast.
    expect(fold([piece(1, '{')]).open).toEqual({});
  });

  it('is taken over by the capability.started of the same invocation: one card, running, with the final arguments', () => {
    const state = fold([piece(1, '{"stage":'), piece(2, ' "lead"}'), started(3)]);
    expect(state.rows.filter((r) => r.kind === 'invocation')).toHaveLength(1);
    const card = state.rows[0] as InvocationRow;
    expect(card).toMatchObject({ id: 'inv1', state: 'running', args: { stage: 'lead', limit: 5 } });
    expect(card.argsText).toBeUndefined();
    expect(cardOf([piece(1, '{'), started(2), done(3)])).toMatchObject({ state: 'done', args: { stage: 'lead', limit: 5 } });
  });

  it('a card closed by its run ending without a start (interrupted by a restart) is written too', () => {
    const card = cardOf([piece(1, '{"stage":'), { type: 'capability.error', seq: 2, ts: 1_002, invocation_id: 'inv1', capability: 'records.list', error: { code: 'interrupted', message: 'The server restarted.' }, recoverable: true }]);
    expect(card).toMatchObject({ state: 'failed', error: { code: 'interrupted' } });
    expect(card!.argsText).toBeUndefined();
  });

  it('a piece that arrives after the start, or after the end, changes nothing', () => {
    const card = cardOf([piece(1, '{'), started(2), piece(3, '"late"')]);
    expect(card).toMatchObject({ state: 'running' });
    expect(card!.argsText).toBeUndefined();
    expect(cardOf([done(1), piece(2, '{')])).toMatchObject({ state: 'done' });
  });

  it('ends with dropped: cancelled, with the reason and the arguments as far as they were written; later pieces change nothing', () => {
    const card = cardOf([piece(1, '{"stage": "lead", "lim'), dropped(2), piece(3, 'more')]);
    expect(card).toMatchObject({ state: 'cancelled', args: { stage: 'lead' }, error: { code: 'not_run', message: 'Not run: the reply stopped before this call was complete.' }, endedAt: 1_002 });
    expect(card!.argsText).toBeUndefined();
    // A dropped with no card before it makes none.
    expect(cardOf([dropped(1)])).toBeUndefined();
  });
});
