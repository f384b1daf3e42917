import { describe, expect, it } from 'vitest';
import { extendKeys, rebase, type KeyCache } from './rowKeys';

/** The keys made from scratch for `ids`. */
const fresh = (ids: readonly string[]): string[] => {
  const cache: KeyCache = { ids, keys: [], seen: new Map() };
  extendKeys(cache, ids);
  return cache.keys;
};

describe('row keys', () => {
  it('make a repeated id unique by its count', () => {
    expect(fresh(['a', 'b', 'a', 'a'])).toEqual(['a', 'b', 'a\u00001', 'a\u00002']);
  });

  it('for another array, keep the keys of the common start and give the rest the keys made from scratch', () => {
    const cases: [string[], string[]][] = [
      // A version switched in the middle: a short continuation for a long one, and back.
      [['u1', 'a1', 'u2', 'a2', 'u3', 'a3', 'u4', 'a4'], ['u1', 'a1', 'u2b', 'a2b']],
      [['u1', 'a1', 'u2b', 'a2b'], ['u1', 'a1', 'u2', 'a2', 'u3', 'a3', 'u4', 'a4']],
      // Repeated ids on both sides of the cut, and nothing in common.
      [['s', 'x', 's', 'y', 's'], ['s', 'x', 's', 's', 'z', 's']],
      [['a', 'a'], ['b', 'a', 'a']],
      [['a', 'b', 'c'], []],
    ];
    for (const [before, after] of cases) {
      const cache: KeyCache = { ids: before, keys: [], seen: new Map() };
      extendKeys(cache, before);
      const next = rebase(cache, after);
      extendKeys(next, after);
      expect(next.keys).toEqual(fresh(after));
      expect(next.keys).not.toBe(cache.keys);
    }
  });
});
