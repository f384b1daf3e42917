import type { ComponentPropsWithRef } from 'react';
import { useStop } from '../../hooks/useActions';
import { useComposer } from './context';
import { useOptionalMessageQueue } from '../queue/context';
import { useMessages } from '../messages/context';

export type ComposerStopProps = ComponentPropsWithRef<'button'>;

/**
 * Stops the turn in progress: the model stream and every invocation the turn
 * started; the transcript then shows a "Stopped" row. Shown only while a turn
 * runs (Escape in the message box does the same). Focus goes back to the box. Messages queued
 * behind the reply then wait until the user sends them.
 * @example
 * <Composer.Stop />
 */
export function ComposerStop({ children, ...props }: ComposerStopProps) {
  const m = useMessages().composer;
  const stop = useStop();
  const { inputId } = useComposer('Stop');
  const queued = useOptionalMessageQueue();
  if (!stop) return null;
  return (
    <button
      type="button"
      aria-label={m.stopLabel}
      {...props}
      data-part="composer-stop"
      onClick={(event) => {
        props.onClick?.(event);
        if (event.defaultPrevented) return;
        stop();
        // Messages queued behind the reply wait: the user stopped to change course.
        queued?.queue.pause();
        document.getElementById(inputId)?.focus();
      }}
    >
      {children ?? m.stop}
    </button>
  );
}
ComposerStop.displayName = 'Composer.Stop';
