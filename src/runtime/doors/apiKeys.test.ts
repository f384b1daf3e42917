import { describe, expect, it } from 'vitest';
import { bearerToken, constantTimeEqual, keyAuthenticator } from './apiKeys';

describe('keyAuthenticator', () => {
  const authenticate = keyAuthenticator([{ id: 'alice', key: 'alice-secret-123', budget: 10 }, 'bob-secret-4567']);

  it('returns the principal of a configured key, never the secret', async () => {
    expect(await authenticate('alice-secret-123')).toEqual({ user: 'alice', budget: 10 });
    expect(await authenticate('bob-secret-4567')).toEqual({ user: 'key-2' });
  });

  it('refuses a missing key, a wrong one, a prefix and a longer one', async () => {
    expect(await authenticate(null)).toBeNull();
    expect(await authenticate('')).toBeNull();
    expect(await authenticate('alice-secret-124')).toBeNull();
    expect(await authenticate('alice-secret-12')).toBeNull();
    expect(await authenticate('alice-secret-1234')).toBeNull();
  });

  it('refuses to start with a key too short to be a secret', () => {
    expect(() => keyAuthenticator([{ id: 'weak', key: 'abc' }])).toThrow('API key "weak" is too short: use at least 8 characters');
  });

  it('with no keys configured, nobody gets in', async () => {
    expect(await keyAuthenticator([])('anything-at-all')).toBeNull();
  });
});

describe('constantTimeEqual', () => {
  it('compares whole byte strings, lengths included', () => {
    const bytes = (s: string) => new TextEncoder().encode(s);
    expect(constantTimeEqual(bytes('abcdef'), bytes('abcdef'))).toBe(true);
    expect(constantTimeEqual(bytes('abcdef'), bytes('abcdeg'))).toBe(false);
    expect(constantTimeEqual(bytes('abcdef'), bytes('abcde'))).toBe(false);
    expect(constantTimeEqual(bytes(''), bytes(''))).toBe(true);
  });
});

describe('bearerToken', () => {
  it('reads the token of a Bearer header, case-insensitively', () => {
    expect(bearerToken('Bearer tok_123')).toBe('tok_123');
    expect(bearerToken('bearer   tok_123 ')).toBe('tok_123');
  });

  it('gives null for other schemes and malformed headers', () => {
    expect(bearerToken(undefined)).toBeNull();
    expect(bearerToken('Basic dXNlcjpwYXNz')).toBeNull();
    expect(bearerToken('Bearer')).toBeNull();
    expect(bearerToken('Bearer two tokens')).toBeNull();
  });
});
