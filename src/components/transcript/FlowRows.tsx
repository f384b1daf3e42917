import { useEffect } from 'react';
import { END_THRESHOLD, type RowsProps } from './VirtualRows';

/**
 * Every row in the DOM, in normal flow (off-screen rows skip layout through
 * `content-visibility`). Follows new content while the reader is at the end,
 * never once they have scrolled up.
 */
export function FlowRows({ scrollRef, ids, renderRow, onAtEndChange, jumpRef, revealRef }: RowsProps) {
  useEffect(() => {
    const el = scrollRef.current;
    if (!el) return;
    let atEnd = true;
    const toEnd = () => {
      el.scrollTop = el.scrollHeight - el.clientHeight;
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
    const onScroll = () => {
      const next = el.scrollHeight - el.scrollTop - el.clientHeight <= END_THRESHOLD;
      if (next !== atEnd) onAtEndChange((atEnd = next));
    };
    const observer = new MutationObserver(() => {
      if (atEnd) toEnd();
    });
    observer.observe(el, { childList: true, subtree: true, characterData: true });
    el.addEventListener('scroll', onScroll, { passive: true });
    toEnd();
    return () => {
      observer.disconnect();
      el.removeEventListener('scroll', onScroll);
    };
  }, [scrollRef, jumpRef, revealRef, onAtEndChange]);

  return (
    <div data-part="transcript-rows">
      {ids.map((id, index) => (
        <div key={id} data-index={index} data-part="transcript-slot">
          {renderRow(index)}
        </div>
      ))}
    </div>
  );
}
