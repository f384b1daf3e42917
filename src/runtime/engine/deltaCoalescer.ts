import type { Emit } from '../events';

/** How long (ms) streamed text may wait to go out together with the text that follows it: a frame. */
export const DELTA_WINDOW_MS = 16;

/**
 * The model's streamed text, as `message.delta` events: a chunk goes out at once when none went
 * out in the last frame (DELTA_WINDOW_MS), and chunks that come faster than that go out together,
 * one event a frame. So a slow stream shows each word as it comes, while a fast one (a burst of
 * thousands of tokens in one task, or one per network packet) costs the event log, its listeners,
 * the fold and every client one event a frame instead of one a token; the screen shows it a frame
 * at a time anyway. `flush()` sends what waits: the loop calls it when the reply ends, stops or
 * fails, before anything else it emits, so no text is lost and the order of events holds.
 * @example
 * const deltas = createDeltaCoalescer(log.emit);
 * deltas.push('m1', 'Hel'); // out at once
 * deltas.push('m1', 'lo');  // waits for the frame to end
 * deltas.flush();           // out: 'lo'
 */
export interface DeltaCoalescer {
  /** Sends `text` of message `messageId`: at once, or with the text that follows it in this frame. */
  push(messageId: string, text: string): void;
  /** Sends the text that waits now; the next chunk goes out at once. */
  flush(): void;
}

/** `type`: the event the pieces go out as (`reasoning.delta` for the model's reasoning). */
export function createDeltaCoalescer(emit: Emit, windowMs = DELTA_WINDOW_MS, type: 'message.delta' | 'reasoning.delta' = 'message.delta'): DeltaCoalescer {
  let waitingId = '';
  let waiting = '';
  let timer: ReturnType<typeof setTimeout> | null = null;

  const send = () => {
    if (!waiting) return;
    const delta = waiting;
    waiting = '';
    emit({ type, message_id: waitingId, delta });
  };
  const open = () => {
    timer = setTimeout(windowEnd, windowMs);
    // Its timer never keeps a Node process alive: the loop flushes when the reply ends.
    (timer as { unref?: () => void }).unref?.();
  };
  function windowEnd() {
    timer = null;
    if (!waiting) return;
    send();
    open();
  }

  return {
    push(messageId, text) {
      if (!text) return;
      if (waiting && messageId !== waitingId) send();
      if (timer === null) {
        emit({ type, message_id: messageId, delta: text });
        open();
        return;
      }
      waitingId = messageId;
      waiting += text;
    },
    flush() {
      if (timer !== null) clearTimeout(timer);
      timer = null;
      send();
    },
  };
}
