import { Virtualizer, type VirtualizerOptions } from '@tanstack/react-virtual';
import { describe, expect, it, vi } from 'vitest';
import { appendInPlace } from './appendInPlace';

type Options = VirtualizerOptions<HTMLDivElement, HTMLDivElement>;

/** A virtualiser over `ids` (keys), with no scroll element: positions only. */
function rows(ids: string[], estimate: (index: number) => number, taught: boolean) {
  const getItemKey = (index: number) => ids[index] ?? index;
  const options = (count: number, key = getItemKey): Options => ({
    count,
    getScrollElement: () => null,
    estimateSize: estimate,
    getItemKey: key,
    scrollToFn: () => {},
    observeElementRect: () => undefined,
    observeElementOffset: () => undefined,
  });
  const v = new Virtualizer<HTMLDivElement, HTMLDivElement>(options(ids.length));
  if (taught) appendInPlace(v);
  return { v, setCount: (count: number, key?: (index: number) => string | number) => v.setOptions(options(count, key)) };
}
/** Every row's key, start and size (the total size is worked out from them, which brings them up to date). */
const positions = (v: Virtualizer<HTMLDivElement, HTMLDivElement>) => {
  v.getTotalSize();
  return Array.from(v.measurementsCache, (m) => [m.key, m.start, m.size]);
};

describe('appendInPlace', () => {
  it('keeps the rows it had when rows are appended to the same ids, and works out only the new ones', () => {
    const ids = Array.from({ length: 1_000 }, (_, i) => `r${i}`);
    const estimate = vi.fn(() => 40);
    const plain = rows(ids, () => 40, false);
    const taught = rows(ids, estimate, true);
    positions(plain.v);
    positions(taught.v);
    // Some rows measured at their real height.
    for (const [i, size] of [[3, 90], [500, 12], [999, 64]] as const) {
      plain.v.resizeItem(i, size);
      taught.v.resizeItem(i, size);
    }
    expect(positions(taught.v)).toEqual(positions(plain.v));
    expect(positions(taught.v)[4]).toEqual(['r4', 3 * 40 + 90, 40]);

    estimate.mockClear();
    ids.push('r1000', 'r1001');
    plain.setCount(ids.length);
    taught.setCount(ids.length);
    expect(positions(taught.v)).toEqual(positions(plain.v));
    expect(positions(taught.v).at(-1)).toEqual(['r1001', expect.any(Number), 40]);
    // Only the two new rows were estimated: the other 1,000 kept their positions.
    expect(estimate).toHaveBeenCalledTimes(2);

    // A row measured after the append moves only the rows below it.
    plain.v.resizeItem(1000, 100);
    taught.v.resizeItem(1000, 100);
    expect(positions(taught.v)).toEqual(positions(plain.v));
  });

  it('works every position out again when the ids are a new array (the history replaced)', () => {
    const ids = ['a', 'b', 'c'];
    const estimate = vi.fn(() => 40);
    const taught = rows(ids, estimate, true);
    positions(taught.v);
    taught.v.resizeItem(0, 100);
    expect(positions(taught.v)[1]).toEqual(['b', 100, 40]);
    estimate.mockClear();
    const replaced = ['x', 'a', 'b', 'c'];
    taught.setCount(replaced.length, (index) => replaced[index] ?? index);
    expect(positions(taught.v)).toEqual([
      ['x', 0, 40],
      ['a', 40, 100],
      ['b', 140, 40],
      ['c', 180, 40],
    ]);
    expect(estimate).toHaveBeenCalledTimes(3);
  });

  it('works every position out again when rows are removed', () => {
    const ids = ['a', 'b', 'c'];
    const taught = rows(ids, () => 40, true);
    positions(taught.v);
    ids.length = 2;
    taught.setCount(2);
    expect(positions(taught.v)).toEqual([
      ['a', 0, 40],
      ['b', 40, 40],
    ]);
  });
});
