import type { Virtualizer } from '@tanstack/react-virtual';
import { describe, expect, it, vi } from 'vitest';
import { END_THRESHOLD, isAtEnd } from './VirtualRows';

/** The figures isAtEnd reads, and the scroll box's own answer (a layout read in a browser). */
function instance({ total, offset, viewport, boxAtEnd }: { total: number; offset: number | null; viewport?: number; boxAtEnd: boolean }) {
  const box = vi.fn(() => boxAtEnd);
  const fake = {
    getTotalSize: () => total,
    scrollOffset: offset,
    scrollRect: viewport === undefined ? null : { width: 400, height: viewport },
    options: { scrollMargin: 0 },
    isAtEnd: box,
  };
  return { virtualizer: fake as unknown as Virtualizer<HTMLDivElement, HTMLDivElement>, box };
}

describe('isAtEnd', () => {
  it("trusts the virtualiser's own figures when they put the view at the end, without reading the scroll box", () => {
    const { virtualizer, box } = instance({ total: 6000, offset: 5400 - END_THRESHOLD, viewport: 600, boxAtEnd: false });
    expect(isAtEnd(virtualizer)).toBe(true);
    expect(box).not.toHaveBeenCalled();
  });

  it('asks the scroll box when the figures say the view is above the end, or are not known yet', () => {
    const above = instance({ total: 6000, offset: 1200, viewport: 600, boxAtEnd: false });
    expect(isAtEnd(above.virtualizer)).toBe(false);
    expect(above.box).toHaveBeenCalledWith(END_THRESHOLD);
    // The figures lag a scroll the virtualiser was told to make: the box has the last word.
    const landed = instance({ total: 6000, offset: 1200, viewport: 600, boxAtEnd: true });
    expect(isAtEnd(landed.virtualizer)).toBe(true);
    const unknown = instance({ total: 6000, offset: null, boxAtEnd: true });
    expect(isAtEnd(unknown.virtualizer)).toBe(true);
    expect(unknown.box).toHaveBeenCalled();
  });
});
