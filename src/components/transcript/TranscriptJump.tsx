import type { ComponentPropsWithRef } from 'react';
import { useMessages } from '../messages/context';

export interface TranscriptJumpProps extends ComponentPropsWithRef<'button'> {
  /** Rows that arrived since the reader scrolled up. */
  newCount: number;
  /** A row below waits for the reader's decision: the button says so and leads there. */
  waiting?: boolean;
}

/**
 * "Jump to latest": shown by the transcript while the reader is scrolled up;
 * says how many rows arrived meanwhile, or that a decision waits below.
 * @example
 * <TranscriptJump newCount={3} onClick={jump} />
 */
export function TranscriptJump({ newCount, waiting = false, ...props }: TranscriptJumpProps) {
  const m = useMessages().transcript;
  if (waiting)
    return (
      <button type="button" {...props} data-part="transcript-jump" data-state="waiting">
        {m.jumpToDecision}
      </button>
    );
  return (
    <button type="button" {...props} data-part="transcript-jump" data-state={newCount > 0 ? 'new' : 'idle'}>
      {m.jumpToLatest}
      {newCount > 0 ? <span data-part="transcript-jump-count">{m.jumpNewCount(newCount)}</span> : null}
    </button>
  );
}
TranscriptJump.displayName = 'ChatSurface.TranscriptJump';
