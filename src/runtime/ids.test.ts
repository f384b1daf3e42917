import { describe, expect, it } from 'vitest';
import { createId } from './ids';

describe('createId', () => {
  it('makes prefixed ids of ten base-36 characters', () => {
    expect(createId('inv')).toMatch(/^inv_[0-9a-z]{10}$/);
  });

  it('does not repeat across many calls, past the random pool’s refill', () => {
    const ids = new Set(Array.from({ length: 5_000 }, () => createId('x')));
    expect(ids.size).toBe(5_000);
  });
});
