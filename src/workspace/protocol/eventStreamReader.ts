import { createParser } from 'eventsource-parser';

/** One server-sent event as the stream framed it. */
export interface SseMessage {
  id?: string;
  event?: string;
  data: string;
}

export interface EventStreamHandlers {
  /** Each event, once its blank line has arrived. */
  onEvent(message: SseMessage): void;
  /** A `retry:` the server asked for, in ms. */
  onRetry?(ms: number): void;
}

/**
 * Reads a thread's event stream as `eventStreamWriter.ts` writes it, fed with
 * decoded chunks as they arrive from `fetch` (the framing is
 * `eventsource-parser`'s: `\n`, `\r\n` or `\r` line ends, `:` comments,
 * multi-line `data:`). Works anywhere web streams do.
 * @example
 * const feed = createEventStreamReader({ onEvent: (message) => console.log(message.id, message.data) });
 * feed(chunkText);
 */
export function createEventStreamReader(handlers: EventStreamHandlers): (chunk: string) => void {
  const parser = createParser({
    onEvent: ({ id, event, data }) => {
      const message: SseMessage = { data };
      if (id !== undefined) message.id = id;
      if (event !== undefined) message.event = event;
      handlers.onEvent(message);
    },
    onRetry: (ms) => handlers.onRetry?.(ms),
  });
  return (chunk) => parser.feed(chunk);
}
