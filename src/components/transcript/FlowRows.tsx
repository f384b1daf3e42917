import { useEffect, useRef } from 'react';
import { END_THRESHOLD, type RowsProps } from './VirtualRows';

/**
 * Every row in the DOM, in normal flow (off-screen rows skip layout through
 * `content-visibility`). Follows new content while the reader is at the end,
 * never once they have scrolled up.
 */
export function FlowRows({ scrollRef, ids, renderRow, onAtEndChange, jumpRef, revealRef }: RowsProps) {
  const rowsRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = scrollRef.current;
    const rows = rowsRef.current;
    if (!el || !rows) return;
    let atEnd = true;
    let frame = 0;
    /** Where the log was scrolled last (by the reader or by a follow). */
    let lastTop = el.scrollTop;
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
      if (atEnd) toEnd();
    };
    const request = () => {
      if (!frame) frame = requestAnimationFrame(() => (frame = requestAnimationFrame(follow)));
    };
    jumpRef.current = () => {
      atEnd = true;
      toEnd();
      onAtEndChange(true);
    };
    if (revealRef)
      revealRef.current = (index: number) => {
        el.querySelector(`:scope > [data-part="transcript-rows"] > [data-index="${index}"]`)?.scrollIntoView({ block: 'nearest' });
      };
    // Only the reader scrolling up leaves the end: rows that come in or grow while they are there
    // are followed a frame later, and a scroll event in between (the last follow's, or the one a
    // jump to the end made) finds the view above the new end for a moment.
    const onScroll = () => {
      const top = el.scrollTop;
      const up = top < lastTop;
      lastTop = top;
      if (atEnd && !up) return;
      const next = el.scrollHeight - top - el.clientHeight <= END_THRESHOLD;
      if (next !== atEnd) onAtEndChange((atEnd = next));
    };
    const changes = new MutationObserver(request);
    changes.observe(rows, { childList: true, subtree: true, characterData: true });
    const resizes = typeof ResizeObserver === 'function' ? new ResizeObserver(follow) : null;
    resizes?.observe(rows);
    el.addEventListener('scroll', onScroll, { passive: true });
    toEnd();
    return () => {
      if (frame) cancelAnimationFrame(frame);
      changes.disconnect();
      resizes?.disconnect();
      el.removeEventListener('scroll', onScroll);
    };
  }, [scrollRef, jumpRef, revealRef, onAtEndChange]);

  return (
    <div ref={rowsRef} data-part="transcript-rows">
      {ids.map((id, index) => (
        <div key={id} data-index={index} data-part="transcript-slot">
          {renderRow(index)}
        </div>
      ))}
    </div>
  );
}
