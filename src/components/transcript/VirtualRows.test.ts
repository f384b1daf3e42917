import type { Virtualizer } from '@tanstack/react-virtual';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { END_THRESHOLD, isAtEnd, measureRow, staysAtEnd } from './VirtualRows';

/** The figures isAtEnd reads, and a scroll box that counts how often it is read (a forced layout in a browser). */
function instance({ total, offset, viewport, box, direction = null }: { total: number; offset: number | null; viewport?: number; box: { height: number; top: number; client: number } | null; direction?: 'forward' | 'backward' | null }) {
  let reads = 0;
  const element = box && {
    get scrollHeight() {
      reads += 1;
      return box.height;
    },
    clientHeight: box.client,
    scrollTop: box.top,
  };
  const fake = {
    getTotalSize: () => total,
    scrollOffset: offset,
    scrollRect: viewport === undefined ? null : { width: 400, height: viewport },
    options: { scrollMargin: 0 },
    scrollElement: element,
    scrollDirection: direction,
  };
  return { virtualizer: fake as unknown as Virtualizer<HTMLDivElement, HTMLDivElement>, reads: () => reads };
}

describe('isAtEnd', () => {
  it("trusts the virtualiser's own figures when they put the view at the end, without reading the scroll box", () => {
    const { virtualizer, reads } = instance({ total: 6000, offset: 5400 - END_THRESHOLD, viewport: 600, box: { height: 6000, top: 0, client: 600 } });
    expect(isAtEnd(virtualizer)).toBe(true);
    expect(reads()).toBe(0);
  });

  it('asks the scroll box, as it is, when the figures say the view is above the end or are not known yet', () => {
    const above = instance({ total: 6000, offset: 1200, viewport: 600, box: { height: 6000, top: 1200, client: 600 } });
    expect(isAtEnd(above.virtualizer)).toBe(false);
    expect(above.reads()).toBe(1);
    // A row grew and the virtualiser has already scrolled to follow it, but its offset still has
    // the old value: the box is at the end, and says so.
    const followed = instance({ total: 6123, offset: 5400, viewport: 600, box: { height: 6123, top: 5519, client: 600 } });
    expect(isAtEnd(followed.virtualizer)).toBe(true);
    expect(followed.reads()).toBe(1);
    const unknown = instance({ total: 6000, offset: null, box: { height: 6000, top: 5400, client: 600 } });
    expect(isAtEnd(unknown.virtualizer)).toBe(true);
    expect(unknown.reads()).toBe(1);
  });
});

describe('staysAtEnd', () => {
  // A reply grew by 300 px below a reader who was at the end; the virtualiser has not scrolled to it yet.
  const grown = { total: 6300, offset: 5400, viewport: 600, box: { height: 6300, top: 5400, client: 600 } };

  it('keeps a reader who was at the end there while rows come in or grow, without reading the scroll box', () => {
    for (const direction of [null, 'forward'] as const) {
      const { virtualizer, reads } = instance({ ...grown, direction });
      expect(staysAtEnd(true, virtualizer)).toBe(true);
      expect(reads()).toBe(0);
    }
  });

  it('lets the reader leave by scrolling up, and finds them back at the end only where the view is', () => {
    const up = instance({ ...grown, offset: 4000, box: { ...grown.box, top: 4000 }, direction: 'backward' });
    expect(staysAtEnd(true, up.virtualizer)).toBe(false);
    const away = instance({ ...grown, direction: 'forward' });
    expect(staysAtEnd(false, away.virtualizer)).toBe(false);
    const back = instance({ ...grown, offset: 5700, box: { ...grown.box, top: 5700 }, direction: 'forward' });
    expect(staysAtEnd(false, back.virtualizer)).toBe(true);
  });
});

describe('measureRow', () => {
  afterEach(() => vi.unstubAllGlobals());
  /** A row element whose offsetHeight counts its reads (each one a forced layout in a browser), in a virtualiser that knows the sizes in `known`. */
  function row(index: number, known: Record<string, number> = {}) {
    let reads = 0;
    const element = {
      getAttribute: (name: string) => (name === 'data-index' ? String(index) : null),
      get offsetHeight() {
        reads += 1;
        return 123;
      },
    } as unknown as HTMLDivElement;
    const fake = {
      indexFromElement: (el: HTMLDivElement) => Number(el.getAttribute('data-index')),
      itemSizeCache: new Map(Object.entries(known)),
      options: { getItemKey: (i: number) => `m-${i}`, estimateSize: () => 88 },
    } as unknown as Virtualizer<HTMLDivElement, HTMLDivElement>;
    return { element, fake, reads: () => reads };
  }

  it('takes the size from the ResizeObserver entry, after the layout, without reading the element', () => {
    const { element, fake, reads } = row(3);
    const entry = { borderBoxSize: [{ blockSize: 240.4, inlineSize: 600 }] } as unknown as ResizeObserverEntry;
    expect(measureRow(element, entry, fake)).toBe(240);
    expect(reads()).toBe(0);
  });

  it('gives a row that just mounted its known size, or the estimate, without a layout', () => {
    vi.stubGlobal('ResizeObserver', class {});
    const seen = row(3, { 'm-3': 310 });
    expect(measureRow(seen.element, undefined, seen.fake)).toBe(310);
    const fresh = row(4);
    expect(measureRow(fresh.element, undefined, fresh.fake)).toBe(88);
    expect(seen.reads() + fresh.reads()).toBe(0);
  });

  it('reads the element where no ResizeObserver would measure it later', () => {
    vi.stubGlobal('ResizeObserver', undefined);
    const { element, fake, reads } = row(4);
    expect(measureRow(element, undefined, fake)).toBe(123);
    expect(reads()).toBe(1);
  });
});
