import type { Virtualizer } from '@tanstack/react-virtual';

/**
 * The fields of `@tanstack/virtual-core`'s `Virtualizer` (3.19, pinned) that
 * `appendInPlace` reaches: where the next measurement pass starts, and the
 * memoised options it is keyed on.
 */
interface MeasurementInternals {
  pendingMin: number | null;
  getMeasurementOptions: () => MeasurementOptions;
}
interface MeasurementOptions {
  count: number;
  getItemKey: (index: number) => unknown;
  paddingStart: number;
  scrollMargin: number;
  enabled: boolean;
  lanes: number;
  gap: number;
}

const taught = new WeakSet<object>();

/**
 * Teaches a virtualiser that rows are only ever appended while its key
 * function stays the same (the transcript's ids array grows in place; a new
 * array means a new key function): when the count grows and nothing else
 * changed, the positions of the rows it had are kept and only the new rows'
 * are worked out. Without this, virtual-core works out every row's position
 * again on each appended message (about a millisecond at 10,000 rows).
 * A virtualiser whose internals do not look as expected is left as it is.
 * @example
 * appendInPlace(virtualizer);
 */
export function appendInPlace(virtualizer: Virtualizer<HTMLDivElement, HTMLDivElement>): void {
  if (taught.has(virtualizer)) return;
  taught.add(virtualizer);
  const internals = virtualizer as unknown as MeasurementInternals;
  const original = internals.getMeasurementOptions;
  if (typeof original !== 'function' || !('pendingMin' in internals)) return;
  let last: MeasurementOptions | null = null;
  internals.getMeasurementOptions = () => {
    const options = original();
    // A new object means the options changed since the last call; the memo has just cleared
    // `pendingMin` (positions to be worked out from row 0).
    if (options !== last) {
      if (last && grewInPlace(last, options)) internals.pendingMin = Math.min(internals.pendingMin ?? last.count, last.count);
      last = options;
    }
    return options;
  };
}

/** True when only the count went up: the same key function (the same ids array), lanes, gaps and padding. */
function grewInPlace(before: MeasurementOptions, after: MeasurementOptions): boolean {
  return (
    after.count > before.count &&
    before.count > 0 &&
    after.getItemKey === before.getItemKey &&
    after.paddingStart === before.paddingStart &&
    after.scrollMargin === before.scrollMargin &&
    after.enabled === before.enabled &&
    after.lanes === before.lanes &&
    after.gap === before.gap
  );
}
