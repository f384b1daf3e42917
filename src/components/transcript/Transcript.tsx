import { useEffect, useRef, type ComponentPropsWithRef } from 'react';
import { useRowIds } from '../../hooks/useThread';
import { TranscriptRow } from './TranscriptRow';

export interface TranscriptProps extends ComponentPropsWithRef<'div'> {
  /** Shown while the thread has no rows. @default 'No messages yet.' */
  emptyText?: string;
}

/**
 * The thread as a log region: messages, invocation cards and error rows.
 * Follows new content while the reader is at the bottom.
 * @example
 * <Transcript />
 */
export function Transcript({ emptyText = 'No messages yet.', ref, ...props }: TranscriptProps) {
  const ids = useRowIds();
  const local = useRef<HTMLDivElement | null>(null);
  useStickToBottom(local);

  return (
    <div
      role="log"
      aria-label="Conversation"
      tabIndex={0}
      {...props}
      ref={(node) => {
        local.current = node;
        if (typeof ref === 'function') ref(node);
        else if (ref) ref.current = node;
      }}
      data-part="transcript"
      data-state={ids.length ? 'filled' : 'empty'}
    >
      {ids.length === 0 ? <p data-part="transcript-empty">{emptyText}</p> : null}
      {ids.map((id, index) => (
        <TranscriptRow key={id} index={index} />
      ))}
    </div>
  );
}
Transcript.displayName = 'ChatSurface.Transcript';

/** Keeps the newest content in view unless the reader has scrolled up. */
function useStickToBottom(ref: React.RefObject<HTMLDivElement | null>) {
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    let atBottom = true;
    const onScroll = () => {
      atBottom = el.scrollHeight - el.scrollTop - el.clientHeight < 24;
    };
    const observer = new MutationObserver(() => {
      if (atBottom) el.scrollTop = el.scrollHeight;
    });
    observer.observe(el, { childList: true, subtree: true, characterData: true });
    el.addEventListener('scroll', onScroll, { passive: true });
    return () => {
      observer.disconnect();
      el.removeEventListener('scroll', onScroll);
    };
  }, [ref]);
}
