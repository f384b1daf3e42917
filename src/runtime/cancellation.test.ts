import { describe, expect, it } from 'vitest';
import { Cancellation } from './cancellation';

describe('Cancellation', () => {
  it('tells its listeners once, with the reason; an unhooked one hears nothing', () => {
    const cancel = new Cancellation();
    const heard: string[] = [];
    cancel.onAbort(() => heard.push('a'));
    const off = cancel.onAbort(() => heard.push('b'));
    off();
    const reason = new Error('Stopped.');
    cancel.abort(reason);
    cancel.abort(new Error('again'));
    expect(heard).toEqual(['a']);
    expect(cancel.aborted).toBe(true);
    expect(cancel.reason).toBe(reason);
    cancel.onAbort(() => heard.push('late'));
    expect(heard).toEqual(['a', 'late']);
  });

  it('makes its AbortSignal on first use: aborted with the same reason, before or after the signal was made', () => {
    const early = new Cancellation();
    const signal = early.signal;
    expect(early.signal).toBe(signal);
    let reason: unknown;
    signal.addEventListener('abort', () => (reason = signal.reason));
    early.abort('why');
    expect(reason).toBe('why');

    const late = new Cancellation();
    late.abort('before');
    expect(late.signal.aborted).toBe(true);
    expect(late.signal.reason).toBe('before');
  });
});
