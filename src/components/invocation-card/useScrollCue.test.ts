import { describe, expect, it } from 'vitest';
import { scrollSides } from './useScrollCue';

describe('scrollSides', () => {
  it('says which sides of a wide table have more to see', () => {
    expect(scrollSides(0, 600, 300)).toBe('end');
    expect(scrollSides(150, 600, 300)).toBe('both');
    expect(scrollSides(300, 600, 300)).toBe('start');
  });

  it('says nothing when it all fits, or is within a pixel of the edge', () => {
    expect(scrollSides(0, 300, 300)).toBeNull();
    expect(scrollSides(0, 301, 300)).toBeNull();
    expect(scrollSides(299.5, 600, 300)).toBe('start');
  });
});
