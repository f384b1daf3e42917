import { useEffect, useState, type ComponentPropsWithRef } from 'react';
import { useMessages } from '../messages/context';
import { useMessageActions } from './context';

export type MessageCopyProps = ComponentPropsWithRef<'button'>;

/** How long (ms) the button says "Copied" before it says "Copy" again. */
const COPIED_MS = 2_000;

/**
 * Copies the reply as markdown, as the model wrote it, and announces "Copied"
 * (`data-state` idle|copied|failed).
 * @example
 * <Message.Copy />
 */
export function MessageCopy({ children, onClick, ...props }: MessageCopyProps) {
  const m = useMessages().messageActions;
  const { row, announce } = useMessageActions('Copy');
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  useEffect(() => {
    if (state === 'idle') return;
    const timer = setTimeout(() => setState('idle'), COPIED_MS);
    return () => clearTimeout(timer);
  }, [state]);

  const copy = () => {
    const clipboard = typeof navigator !== 'undefined' ? navigator.clipboard : undefined;
    const done = (next: 'copied' | 'failed') => {
      setState(next);
      announce(next === 'copied' ? m.copied : m.copyFailed);
    };
    if (!clipboard) return done('failed');
    clipboard.writeText(row.text).then(
      () => done('copied'),
      () => done('failed'),
    );
  };

  return (
    <button
      type="button"
      {...props}
      data-part="message-copy"
      data-state={state}
      onClick={(event) => {
        onClick?.(event);
        if (!event.defaultPrevented) copy();
      }}
    >
      {children ?? (state === 'copied' ? m.copied : state === 'failed' ? m.copyFailed : m.copy)}
    </button>
  );
}
MessageCopy.displayName = 'Message.Copy';
