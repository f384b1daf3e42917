import type { ComponentPropsWithRef } from 'react';

export interface TranscriptJumpProps extends ComponentPropsWithRef<'button'> {
  /** Rows that arrived since the reader scrolled up. */
  newCount: number;
}

/**
 * "Jump to latest": shown by the transcript while the reader is scrolled up;
 * says how many rows arrived meanwhile.
 * @example
 * <TranscriptJump newCount={3} onClick={jump} />
 */
export function TranscriptJump({ newCount, ...props }: TranscriptJumpProps) {
  return (
    <button type="button" {...props} data-part="transcript-jump" data-state={newCount > 0 ? 'new' : 'idle'}>
      Jump to latest
      {newCount > 0 ? <span data-part="transcript-jump-count"> ({newCount} new)</span> : null}
    </button>
  );
}
TranscriptJump.displayName = 'ChatSurface.TranscriptJump';
