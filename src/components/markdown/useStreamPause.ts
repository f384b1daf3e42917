import { useLayoutEffect, useState } from 'react';

/** How long a streaming reply brings no new text before its cursor starts to blink. */
export const CURSOR_PAUSE_MS = 600;

/**
 * Whether a streaming `text` has stayed as it is for CURSOR_PAUSE_MS: the cursor stands still
 * while text arrives (as a caret does while one types) and blinks while the reply waits. A
 * blinking cursor is an animation the browser steps on the main thread every frame, and so is
 * restyled and repainted in each frame of a stream. One render when the pause starts; text
 * that comes after it renders as flowing with no render of its own.
 */
export function useStreamPause(text: string, streaming: boolean): boolean {
  const [pausedAt, setPausedAt] = useState<string | null>(null);
  // A layout effect: only a timer is set, and a passive one would cost a task of its own each frame.
  // No text yet is a pause already (below): no timer, no render that changes nothing.
  useLayoutEffect(() => {
    if (!streaming || text === '') return;
    const timer = setTimeout(() => setPausedAt(text), CURSOR_PAUSE_MS);
    return () => clearTimeout(timer);
  }, [text, streaming]);
  return streaming && (text === '' || pausedAt === text);
}
