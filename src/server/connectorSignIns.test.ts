import { afterEach, describe, expect, it, vi } from 'vitest';
import { createSignIns } from './connectorSignIns';

const signIn = (owner: string, label = 'notes') => ({ owner, label, codeVerifier: `verifier-${owner}-${label}`, openerOrigin: 'https://app.example.com' });

describe('sign-ins in flight', () => {
  afterEach(() => vi.useRealTimers());

  it('gives each state to the session that started it, once', () => {
    const signIns = createSignIns();
    const state = signIns.state();
    expect(state).toMatch(/^[\w-]{43}$/);
    expect(signIns.state()).not.toBe(state);
    signIns.add(state, signIn('alice'));
    // Another user's session brings it back: refused, and left for alice.
    expect(signIns.take(state, 'bob')).toBeNull();
    expect(signIns.take(state, 'alice')).toMatchObject({ label: 'notes', codeVerifier: 'verifier-alice-notes' });
    expect(signIns.take(state, 'alice')).toBeNull();
    expect(signIns.take('made-up', 'alice')).toBeNull();
  });

  it('forgets a sign-in after its time, and keeps a few per user and a bounded number in all', () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const signIns = createSignIns({ ttlMs: 1_000, perOwner: 2, total: 3 });
    signIns.add('late', signIn('alice'));
    vi.advanceTimersByTime(1_001);
    expect(signIns.take('late', 'alice')).toBeNull();

    signIns.add('a1', signIn('alice', 'one'));
    signIns.add('a2', signIn('alice', 'two'));
    signIns.add('a3', signIn('alice', 'three'));
    // The oldest of alice's went when she started a third.
    expect(signIns.take('a1', 'alice')).toBeNull();
    signIns.add('b1', signIn('bob'));
    signIns.add('c1', signIn('carol'));
    // Past three in all, the oldest went first.
    expect(signIns.take('a2', 'alice')).toBeNull();
    expect(signIns.take('a3', 'alice')).not.toBeNull();
    expect(signIns.take('b1', 'bob')).not.toBeNull();
    expect(signIns.take('c1', 'carol')).not.toBeNull();
  });
});
