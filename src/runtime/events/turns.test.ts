import { describe, expect, it } from 'vitest';
import { parseThreadEvent, type ThreadEvent } from '../events';
import { fold, initialThreadState } from '../fold';
import { readCancelled } from './turns';

/** Issue 38: `cancelled` is the one word for "the user stopped it"; logs written before say `stopped`. */
describe('the legacy word "stopped"', () => {
  it('a turn.done that says stopped parses as cancelled, and an unknown outcome is still refused', () => {
    const legacy = parseThreadEvent({ type: 'turn.done', seq: 4, ts: 4, turn_id: 't1', outcome: 'stopped' });
    expect(legacy).toEqual({ ok: true, event: { type: 'turn.done', seq: 4, ts: 4, turn_id: 't1', outcome: 'cancelled' } });
    expect(parseThreadEvent({ type: 'turn.done', seq: 4, ts: 4, turn_id: 't1', outcome: 'halted' }).ok).toBe(false);
  });

  it('a stored turn.error coded stopped folds into a cancelled error row', () => {
    const stored = { type: 'turn.error', seq: 2, ts: 2, turn_id: 't1', code: 'stopped', message: 'Stopped before the reply finished.', recoverable: true } as ThreadEvent;
    const state = fold(initialThreadState, stored);
    expect(state.rows.at(-1)).toMatchObject({ kind: 'error', code: 'cancelled', recoverable: true });
  });

  it('reads only the legacy word: every other code stays as it is', () => {
    expect(readCancelled('stopped')).toBe('cancelled');
    expect(readCancelled('model_error')).toBe('model_error');
    expect(readCancelled('cancelled')).toBe('cancelled');
  });
});
