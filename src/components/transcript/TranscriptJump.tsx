import type { ComponentPropsWithRef } from 'react';

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
  if (waiting)
    return (
      <button type="button" {...props} data-part="transcript-jump" data-state="waiting">
        Jump to the decision waiting for you
      </button>
    );
  return (
    <button type="button" {...props} data-part="transcript-jump" data-state={newCount > 0 ? 'new' : 'idle'}>
      Jump to latest
      {newCount > 0 ? <span data-part="transcript-jump-count"> ({newCount} new)</span> : null}
    </button>
  );
}
TranscriptJump.displayName = 'ChatSurface.TranscriptJump';
