import { describe, expect, it } from 'vitest';
import { groupDigits } from './SlashCount';

describe('groupDigits', () => {
  it("writes a whole number as toLocaleString('en') does", () => {
    for (const n of [0, 1, 12, 999, 1_000, 5_006, 12_345, 100_000, 1_234_567, 10_000_000]) expect(groupDigits(n)).toBe(n.toLocaleString('en'));
  });
});
