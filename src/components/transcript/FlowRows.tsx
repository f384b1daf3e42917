import { useEffect, useRef } from 'react';
import { taskQueue } from '../../hooks/taskQueue';
import { READER_GRACE_MS, readerLeft, RESIZE_PULL_MS, watchReaderInput } from './readerScroll';
import { useRowKeys } from './rowKeys';
import { END_THRESHOLD, type RowsProps } from './rowsProps';

/**
 * The newest rows, which are always laid out (`data-recent`): a row that comes in is where the
 * reader is, and as a `content-visibility: auto` row its first frame would lay the page out twice
 * (once skipped, once more when the browser finds it on screen).
 */
const RECENT_ROWS = 8;

/**
 * Every row in the DOM, in normal flow (off-screen rows skip layout through
 * `content-visibility`, except the newest few). Follows new content while the
 * reader is at the end, never once they have scrolled up.
 */
export function FlowRows({ scrollRef, ids, renderRow, onAtEndChange, jumpRef, revealRef }: RowsProps) {
  const rowsRef = useRef<HTMLDivElement>(null);
  const keyOf = useRowKeys(ids);
  useEffect(() => {
    const el = scrollRef.current;
    const rows = rowsRef.current;
    if (!el || !rows) return;
    let atEnd = true;
    let frame = 0;
    /** Where the log was scrolled last (by the reader or by a follow). */
    let lastTop = el.scrollTop;
    /** The log scrolled since `settle` last read where it is. */
    let moved = false;
    const reader = watchReaderInput(el);
    /** When the rows or the log last resized (a pull-back to a shrunk end may follow). */
    let resizedAt = -Infinity;
    /** A short move up that may be a pull-back is held (not followed back) until the reader's input had time to come. */
    let held: ReturnType<typeof setTimeout> | 0 = 0;
    const release = () => {
      if (held) clearTimeout(held);
      held = 0;
    };
    const toEnd = () => {
      el.scrollTop = el.scrollHeight - el.clientHeight;
      lastTop = el.scrollTop;
    };
    // Following the end once the browser has laid the rows out: when they resize (a
    // ResizeObserver callback, after the frame's layout and before its paint, where reading the
    // log's scrollHeight costs nothing), or, for a change that resized nothing, two frames on.
    // Following at once after a commit read the layout there, before the frame's own.
    const follow = () => {
      if (frame) cancelAnimationFrame(frame);
      frame = 0;
      settle();
      if (atEnd && !held) toEnd();
    };
    // The held move: the reader's (their wheel's event came late: the wheel scrolls off the main
    // thread) leaves the end where it is; else it was the browser's, and the end is followed.
    const decide = () => {
      held = 0;
      if (!atEnd) return;
      if (!reader.recent()) return follow();
      lastTop = el.scrollTop;
      if (el.scrollHeight - lastTop - el.clientHeight > END_THRESHOLD) onAtEndChange((atEnd = false));
    };
    const request = () => {
      if (!frame) frame = requestAnimationFrame(() => (frame = requestAnimationFrame(follow)));
    };
    // As every follow: after the frame's layout (the user's own message resizes the rows), or
    // two frames on (the "Jump to latest" button, nothing resized). Scrolling at once read the
    // layout in the commit that added the message, before the frame's own.
    jumpRef.current = () => {
      release();
      atEnd = true;
      moved = false;
      request();
      onAtEndChange(true);
    };
    if (revealRef)
      revealRef.current = (index: number) => {
        el.querySelector(`:scope > [data-part="transcript-rows"] > [data-index="${index}"]`)?.scrollIntoView({ block: 'nearest' });
      };
    // Only the reader scrolling up leaves the end (readerScroll.ts): rows that come in or grow while
    // they are there are followed a frame later, and a scroll event in between (the last follow's,
    // the one a jump to the end made, or the browser pulling the view back to a shrunk end) finds
    // the view above the new end for a moment.
    // The scroll event only notes that the view moved: it comes at the start of a frame, where
    // reading scrollTop would restyle the page ahead of the frame's own style pass (whatever
    // changed since the last frame, an animation stepped for this one), and the frame would then
    // restyle again. Where the view is is read once the frame is laid out: before the next follow
    // (so a reader's scroll up is seen before a follow could undo it), or in a task after the frame.
    const settle = () => {
      if (!moved) return;
      moved = false;
      const top = el.scrollTop;
      const up = lastTop - top;
      lastTop = top;
      if (atEnd) {
        if (up <= 0) return;
        const resized = performance.now() - resizedAt < RESIZE_PULL_MS;
        if (!readerLeft(up, el.clientHeight, reader.recent(), resized)) {
          // Just after a resize, with no input seen: the browser pulling the view back to a shrunk
          // end, or the reader's wheel whose event is still to come. Not followed back until known.
          if (!held) held = setTimeout(decide, READER_GRACE_MS);
          return;
        }
        release();
      }
      const next = el.scrollHeight - top - el.clientHeight <= END_THRESHOLD;
      if (next !== atEnd) onAtEndChange((atEnd = next));
    };
    const afterFrame = taskQueue();
    const onScroll = () => {
      if (moved) return;
      moved = true;
      afterFrame(settle);
    };
    const changes = new MutationObserver(request);
    changes.observe(rows, { childList: true, subtree: true, characterData: true });
    const resizes =
      typeof ResizeObserver === 'function'
        ? new ResizeObserver(() => {
            resizedAt = performance.now();
            follow();
          })
        : null;
    resizes?.observe(rows);
    // The log's own box too (the chips or the cast row come and go below it): at the end, its new
    // end is followed in the same frame.
    resizes?.observe(el);
    el.addEventListener('scroll', onScroll, { passive: true });
    toEnd();
    return () => {
      if (frame) cancelAnimationFrame(frame);
      release();
      moved = false;
      reader.stop();
      changes.disconnect();
      resizes?.disconnect();
      el.removeEventListener('scroll', onScroll);
    };
  }, [scrollRef, jumpRef, revealRef, onAtEndChange]);

  return (
    <div ref={rowsRef} data-part="transcript-rows">
      {ids.map((_, index) => (
        <div key={keyOf(index)} data-index={index} data-part="transcript-slot" data-recent={index >= ids.length - RECENT_ROWS || undefined}>
          {renderRow(index)}
        </div>
      ))}
    </div>
  );
}
