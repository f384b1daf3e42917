import { defaultRangeExtractor, useVirtualizer, type Range, type Virtualizer } from '@tanstack/react-virtual';
import { useCallback, useEffect, useLayoutEffect, useReducer, useRef, useState, type RefObject } from 'react';
import { afterNextFrame } from '../../hooks/afterNextFrame';
import { appendInPlace } from './appendInPlace';
import { useRowKeys } from './rowKeys';
import { END_THRESHOLD, type RowsProps } from './rowsProps';

export { END_THRESHOLD, type RowsProps } from './rowsProps';

/** Rows kept mounted beyond each edge of the viewport. */
const OVERSCAN = 6;
/** The same, for the first rows shown: the frame that opens a thread draws the rows in view, not a dozen more. */
const FIRST_OVERSCAN = 1;

/**
 * Whether the view is at the newest content. Worked out from the virtualiser's own figures (the
 * rows' total size, the scroll offset and the viewport it last saw), and checked against the
 * scroll box only when they say it is not: reading the box forces a layout, and the virtualiser
 * calls `onChange` on every resize of a streaming row, mostly with the DOM just written. The box
 * has the last word, read as it is (`scrollTop`, not the virtualiser's offset, which lags a
 * scroll it has just made to follow a row: asked then, "Jump to latest" flashed on a send). The
 * log's own padding (a few px) is well inside the threshold.
 */
export function isAtEnd(instance: Virtualizer<HTMLDivElement, HTMLDivElement>): boolean {
  const distance = distanceFromEnd(instance);
  if (distance !== null && distance <= END_THRESHOLD) return true;
  const box = instance.scrollElement;
  if (!box) return true;
  return box.scrollHeight - box.clientHeight - box.scrollTop <= END_THRESHOLD;
}

/** How far (px) the view is above the end, by the virtualiser's own figures (no layout read); null before it has seen the viewport. */
function distanceFromEnd(instance: Virtualizer<HTMLDivElement, HTMLDivElement>): number | null {
  const viewport = instance.scrollRect?.height;
  const offset = instance.scrollOffset;
  if (viewport === undefined || offset === null) return null;
  return instance.getTotalSize() + instance.options.scrollMargin - viewport - offset;
}

/**
 * Whether the reader is at the end after a change, given whether they were before. Only the
 * reader scrolling up leaves the end: rows that come in or grow while they are there are
 * followed, and the virtualiser's scroll to them lands a moment later. Checked before it does,
 * the view is briefly above the end, and "Jump to latest" flashed for a frame on a send.
 */
export function staysAtEnd(wasAtEnd: boolean, instance: Virtualizer<HTMLDivElement, HTMLDivElement>): boolean {
  return (wasAtEnd && instance.scrollDirection !== 'backward') || isAtEnd(instance);
}

/**
 * A row's height without making the browser lay the page out: from its ResizeObserver entry (the
 * browser has just laid it out), else the height already known for its row, else the estimate.
 * So a row that mounts is measured once its entry comes, after the frame's layout and before its
 * paint, and a commit never forces a layout to measure it (a streamed reply's first commit did, at
 * every new row). Without ResizeObserver, where nothing would measure it later, it is read.
 */
export const measureRow = (element: HTMLDivElement, entry: ResizeObserverEntry | undefined, instance: Virtualizer<HTMLDivElement, HTMLDivElement>): number => {
  const box = entry?.borderBoxSize?.[0];
  if (box) return Math.round(box.blockSize);
  if (entry || typeof ResizeObserver !== 'function') return element.offsetHeight;
  const index = instance.indexFromElement(element);
  return instance.itemSizeCache.get(instance.options.getItemKey(index)) ?? instance.options.estimateSize(index);
};

/**
 * Only the rows in and near the viewport are in the DOM (@tanstack/react-virtual,
 * end-anchored): new rows and a growing last row are followed while the reader
 * is at the end, and nothing moves once they have scrolled up. A row holding
 * focus stays mounted, so keyboard users never lose their place.
 */
export function VirtualRows({ scrollRef, ids, renderRow, onAtEndChange, jumpRef, revealRef, estimate }: RowsProps) {
  const focused = useRef<number | null>(null);
  const rangeExtractor = useCallback((range: Range) => {
    const indexes = defaultRangeExtractor(range);
    const keep = focused.current;
    if (keep === null || keep >= range.count || indexes.includes(keep)) return indexes;
    return [...indexes, keep].sort((a, b) => a - b);
  }, []);

  // Stable while the ids array is (the fold appends to it in place): a new key function makes the
  // virtualiser recompute every row's position, twice per appended message.
  const getItemKey = useRowKeys(ids);
  const estimateSize = useCallback(() => estimate, [estimate]);

  // Rows that come in above while the reader is at the end (the whole history taking the place of
  // the newest turns shown first) keep them at the end. The virtualiser keeps its anchor row in
  // place itself, but not while a scroll it was told to make is still to land, and then the view
  // would stay at the old offset, far up in the history.
  const pinned = useRef(true);
  const edge = useRef<{ ids: readonly string[] | null; count: number; last: string | undefined }>({ ids: null, count: 0, last: undefined });
  const refollow = useRef(false);
  const last = ids[ids.length - 1];
  // Rows came in since the last render (at the end, or the history above the newest rows).
  const before = edge.current;
  const grew = ids.length > before.count;
  // More rows took the place of the last ones (a longer version's continuation shown instead):
  // the reader stays where they are, with the newest rows below them ("Jump to latest").
  const replaced = grew && before.count > 0 && last !== before.last && ids[before.count - 1] !== before.last;
  const appended = grew && !replaced;
  if (replaced) pinned.current = false;
  if (appended && before.count > 0 && last === before.last && pinned.current) refollow.current = true;
  edge.current = { ids, count: ids.length, last };
  // The rows around the view join once the first rows are on screen (a task after that frame).
  const [overscan, setOverscan] = useState(FIRST_OVERSCAN);
  const shown = ids.length > 0;
  useEffect(() => {
    if (!shown || overscan === OVERSCAN) return;
    return afterNextFrame(() => setOverscan(OVERSCAN));
  }, [shown, overscan]);
  // The same when other rows take the place of the ones shown (another array: a version switched):
  // the frame that shows them draws the rows in view, and the ones around join after it.
  const narrowed = useRef(false);
  const [, widen] = useReducer((n: number) => n + 1, 0);
  if (before.ids !== null && ids !== before.ids && !appended) narrowed.current = true;
  useEffect(() => {
    if (!narrowed.current) return;
    return afterNextFrame(() => {
      narrowed.current = false;
      widen();
    });
  });
  const [initialRect] = useState(() => ({ width: 0, height: scrollRef.current?.clientHeight || 800 }));
  const virtualizer = useVirtualizer<HTMLDivElement, HTMLDivElement>({
    count: ids.length,
    getScrollElement: () => scrollRef.current,
    estimateSize,
    getItemKey,
    anchorTo: 'end',
    // Appended rows are followed by `follow` below, after the browser's layout (the virtualiser's
    // own follow reads the scroll box in the commit, which forces one there).
    followOnAppend: false,
    measureElement: measureRow,
    scrollEndThreshold: END_THRESHOLD,
    overscan: narrowed.current ? FIRST_OVERSCAN : overscan,
    rangeExtractor,
    // Start at the newest rows: the first render already holds the last message.
    initialOffset: () => ids.length * estimate,
    // Read once, when the rows first render (every render reading it forced a layout there).
    initialRect,
    onChange: (instance) => {
      const atEnd = staysAtEnd(pinned.current, instance);
      pinned.current = atEnd;
      onAtEndChange(atEnd);
    },
    // Positions and the container's height are written straight to the DOM; React re-renders
    // only when the range of rows changes, so a growing reply costs no extra commit.
    directDomUpdates: true,
    directDomUpdatesMode: 'transform',
  });
  // An appended message costs the new rows' positions, not every row's.
  appendInPlace(virtualizer);

  useLayoutEffect(() => {
    virtualizer.scrollToEnd();
  }, [virtualizer]);

  // Following the end: once the frame's layout is done (the rows' container was resized, which a
  // new row or a growing one does, or at the latest the next animation frame), so a commit that
  // adds a row never forces a layout to find the end. Where ResizeObserver is missing, at once.
  const follow = useFollowAfterLayout(virtualizer, pinned);
  useLayoutEffect(() => {
    if (appended && pinned.current) follow();
    else if (replaced) onAtEndChange(false);
  });

  useLayoutEffect(() => {
    if (!refollow.current) return;
    refollow.current = false;
    virtualizer.scrollToEnd();
  });

  // Near the end (the newest rows are mounted and measured), after the layout; from further up, as
  // a virtualiser command, which keeps the end in view while the rows on the way are measured.
  jumpRef.current = () => {
    pinned.current = true;
    if (nearEnd(virtualizer)) follow();
    else virtualizer.scrollToEnd();
  };
  if (revealRef) revealRef.current = (index: number) => virtualizer.scrollToIndex(index, { align: 'auto' });

  useEffect(() => {
    const log = scrollRef.current;
    if (!log) return;
    const onFocusIn = (event: FocusEvent) => {
      const slot = (event.target as Element | null)?.closest?.('[data-index]');
      focused.current = slot ? Number(slot.getAttribute('data-index')) : null;
    };
    const onFocusOut = (event: FocusEvent) => {
      if (!log.contains(event.relatedTarget as Node | null)) focused.current = null;
    };
    log.addEventListener('focusin', onFocusIn);
    log.addEventListener('focusout', onFocusOut);
    return () => {
      log.removeEventListener('focusin', onFocusIn);
      log.removeEventListener('focusout', onFocusOut);
    };
  }, [scrollRef]);

  const items = virtualizer.getVirtualItems();
  return (
    <div ref={follow.containerRef} data-part="transcript-rows" data-virtual="" style={{ position: 'relative', width: '100%' }}>
      {items.map((item) => (
        <div
          key={item.key}
          data-index={item.index}
          ref={virtualizer.measureElement}
          data-part="transcript-slot"
          style={{ position: 'absolute', top: 0, left: 0, width: '100%' }}
        >
          {renderRow(item.index)}
        </div>
      ))}
    </div>
  );
}

/** Whether the view is within a viewport's height of the end, by the virtualiser's figures (no layout read). */
function nearEnd(instance: Virtualizer<HTMLDivElement, HTMLDivElement>): boolean {
  const distance = distanceFromEnd(instance);
  return distance !== null && distance <= (instance.scrollRect?.height ?? 0);
}

/** `follow()`: brings the newest row into view after the frame's layout; `containerRef` goes on the rows' container (it is the virtualiser's too). */
interface FollowAfterLayout {
  (): void;
  containerRef: (node: HTMLDivElement | null) => void;
}

/** The fields of virtual-core's `Virtualizer` (3.19, pinned) that following the end reaches. */
interface FollowInternals {
  /** The scroll command in flight; `toEnd` for a scroll to the end. */
  scrollState: { toEnd?: boolean } | null;
  /** A scroll correction the box could not take yet (it was short), tried again on every commit. */
  _clampedAdjustment?: unknown;
}

/**
 * Keeps the end in view after the browser has laid the page out: whenever the rows' container is
 * resized while the reader is at the end (`pinned`: a row came in or the streaming one grew), and
 * when asked (`follow()`), in a ResizeObserver callback (after layout and before paint, where
 * reading the scroll box costs nothing) or, when no resize comes, in the next animation frame.
 * Without ResizeObserver, at once, as a virtualiser command.
 */
function useFollowAfterLayout(
  virtualizer: Virtualizer<HTMLDivElement, HTMLDivElement> & { containerRef: (node: HTMLDivElement | null) => void },
  pinned: RefObject<boolean>,
): FollowAfterLayout {
  const [follow] = useState(() => {
    let frame = 0;
    let observer: ResizeObserver | null = null;
    const run = () => {
      if (frame) cancelAnimationFrame(frame);
      frame = 0;
      // The reader scrolled away meanwhile: they stay where they are.
      if (!pinned.current) return;
      const box = virtualizer.scrollElement;
      if (!box) return;
      // Written straight to the box, not as a virtualiser command, and what the virtualiser still
      // meant to do to reach the end is done: a scroll-to-end command stays open up to 5 s while
      // its target moves, and a correction the box was too short for is tried again, and each
      // reads the scroll box on every commit meanwhile, which forces a layout while a reply streams.
      const internals = virtualizer as unknown as FollowInternals;
      if (internals.scrollState?.toEnd) virtualizer.cancelScroll();
      if ('_clampedAdjustment' in internals) internals._clampedAdjustment = null;
      box.scrollTop = box.scrollHeight - box.clientHeight;
    };
    const request = (() => {
      if (typeof ResizeObserver !== 'function' || typeof requestAnimationFrame !== 'function') {
        virtualizer.scrollToEnd();
        return;
      }
      // The frame after next: a resize of the container, after this frame's layout, comes first.
      if (!frame) frame = requestAnimationFrame(() => (frame = requestAnimationFrame(run)));
    }) as FollowAfterLayout;
    request.containerRef = (node) => {
      virtualizer.containerRef(node);
      observer?.disconnect();
      observer = null;
      if (node && typeof ResizeObserver === 'function') {
        observer = new ResizeObserver(run);
        observer.observe(node);
      } else if (frame) {
        cancelAnimationFrame(frame);
        frame = 0;
      }
    };
    return request;
  });
  return follow;
}
