import type { EventLog } from '../../runtime/eventLog';
import type { ThreadEvent } from '../../runtime/events';
import { FanoutStream, frameOf, textFrame, type EventSink } from './eventFanout';

export interface ThreadEventStreamOptions {
  /** A comment line is sent this often so proxies keep the connection open (every stream of one period on one timer). @default 15000 */
  heartbeatMs?: number;
  /** The `retry:` delay a browser EventSource waits before reconnecting. @default 1000 */
  retryMs?: number;
  /**
   * Bytes written to a client and not yet taken by it beyond which its stream
   * is ended after what it has (a slow reader, a stalled connection); it
   * reconnects with `Last-Event-ID` and catches up from the log, so nothing is
   * lost. The server holds at most about five times this per client (what
   * the client has not taken, and one page of a backlog).
   * @default 262144 (256 KiB)
   */
  highWaterMark?: number;
  /**
   * Most events written to a client in one go (and at most four times
   * `highWaterMark` bytes): a longer backlog comes as several streams of this
   * many, each resumed by the client. @default 2000
   */
  maxQueued?: number;
}

/**
 * A response written directly rather than through the web body: the Node
 * server's `ServerResponse` (`src/server/nodeEventWriter.ts`). The web body is
 * then only opened and closed, so the response's head (and the headers any
 * middleware added) goes out as usual, and the bytes follow it directly.
 */
export interface DirectEventWriter {
  /** 'waiting' until the response's head is sent, 'closed' once the client is gone. */
  state(): 'waiting' | 'open' | 'closed';
  write(chunk: Uint8Array): void;
  /** Bytes written and not yet handed to the network. */
  buffered(): number;
  /** Cuts the connection. */
  destroy(): void;
  /** Calls back once every byte is handed to the network or the connection closed. */
  onFinished(callback: () => void): void;
}

/** How long a dropped client may take to read what it was written before its connection is cut. */
const DROP_GRACE_MS = 30_000;

/**
 * A thread's events as server-sent events, as a web `Response` (Hono, the
 * Fetch API, any runtime with web streams): `id:` is the event's seq, `event:`
 * its type, `data:` the JSON. A client that reconnects with `Last-Event-ID`
 * (or `?since=`) gets exactly the events after it, then live ones. The
 * subscription ends when the client goes away. Each event is serialised once
 * for all of its clients, what came for a client since its last write reaches
 * it as one chunk, and a client that falls behind by `highWaterMark` bytes has
 * its stream ended, to resume from the log. `eventStreamReader.ts` reads it on
 * the page.
 * @example
 * app.get(routes.events.path, (c) => threadEventResponse(c.req.raw, logOf(c.req.param('threadId'))));
 */
export function threadEventResponse(request: Request, log: Pick<EventLog, 'subscribe'>, options: ThreadEventStreamOptions = {}): Response {
  return eventStreamResponse(request, log, options);
}

/** `threadEventResponse`, its bytes written straight to `direct` when given (the Node server's response). */
export function eventStreamResponse(request: Request, log: Pick<EventLog, 'subscribe'>, options: ThreadEventStreamOptions = {}, direct?: DirectEventWriter): Response {
  const { heartbeatMs = 15_000, retryMs = 1_000, highWaterMark = 262_144, maxQueued = 2_000 } = options;
  const since = resumePoint(request);
  if (since === null) {
    return Response.json(
      { error: { code: 'invalid_last_event_id', message: 'Last-Event-ID (or ?since=) must be a whole number of at least 0.' } },
      { status: 400 },
    );
  }
  let stop = () => {};
  const body = new ReadableStream<Uint8Array>(
    {
      start(controller) {
        let unsubscribe: (() => void) | null = null;
        let quiet = () => {};
        const stream = new FanoutStream(sinkOf(controller, direct), { highWaterMark, maxQueued }, () => {
          quiet();
          unsubscribe?.();
          request.signal.removeEventListener('abort', stop);
        });
        stop = () => stream.end(false);
        quiet = heartbeat(heartbeatMs, stream);
        stream.push(textFrame(`retry: ${retryMs}\n\n`), false);
        unsubscribe = log.subscribe((event: ThreadEvent) => stream.push(frameOf(event)), since);
        if (stream.ended) unsubscribe();
        if (request.signal.aborted) stop();
        else request.signal.addEventListener('abort', stop, { once: true });
      },
      cancel() {
        stop();
      },
    },
    new ByteLengthQueuingStrategy({ highWaterMark: 0 }),
  );
  return new Response(body, {
    status: 200,
    headers: {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    },
  });
}

const KEEP_ALIVE = textFrame(': keep-alive\n\n');

/** The streams kept alive by each period, on one timer per period (thousands of clients, one timer). */
const heartbeats = new Map<number, { streams: Set<FanoutStream>; timer: ReturnType<typeof setInterval> }>();

/**
 * Sends `stream` a keep-alive comment every `ms` with every other stream of
 * that period (the first within `ms`), all in one pass: one timer, and one
 * keep-alive chunk shared by every client. Returns the way to stop.
 */
function heartbeat(ms: number, stream: FanoutStream): () => void {
  let beat = heartbeats.get(ms);
  if (!beat) {
    const streams = new Set<FanoutStream>();
    beat = { streams, timer: setInterval(() => streams.forEach((s) => s.push(KEEP_ALIVE, false)), ms) };
    heartbeats.set(ms, beat);
  }
  const own = beat;
  own.streams.add(stream);
  return () => {
    own.streams.delete(stream);
    if (own.streams.size > 0 || heartbeats.get(ms) !== own) return;
    clearInterval(own.timer);
    heartbeats.delete(ms);
  };
}

/** The web body's controller as a sink, or the direct writer with the web body only opened and closed. */
function sinkOf(controller: ReadableStreamDefaultController<Uint8Array>, direct: DirectEventWriter | undefined): EventSink {
  let closed = false;
  const closeBody = () => {
    if (closed) return;
    closed = true;
    try {
      controller.close();
    } catch {
      // Already cancelled by the client.
    }
  };
  if (!direct) {
    return {
      state: () => (closed ? 'closed' : 'open'),
      write: (chunk) => controller.enqueue(chunk),
      buffered: () => -(controller.desiredSize ?? 0),
      close: closeBody,
    };
  }
  return {
    state: () => (closed ? 'closed' : direct.state()),
    write: (chunk) => direct.write(chunk),
    buffered: () => direct.buffered(),
    close(dropped) {
      // The adapter ends the response once the body closes, after the bytes already written.
      closeBody();
      if (!dropped) return;
      // A client that took nothing for a while is cut, so its unread bytes do not stay.
      const cut = setTimeout(() => direct.destroy(), DROP_GRACE_MS);
      (cut as { unref?: () => void }).unref?.();
      direct.onFinished(() => clearTimeout(cut));
    },
  };
}

function resumePoint(request: Request): number | null {
  // An empty Last-Event-ID (or ?since=) names no event (the SSE spec's "no last event ID"): from the start.
  const raw = request.headers.get('last-event-id')?.trim() || new URL(request.url).searchParams.get('since')?.trim() || '0';
  if (!/^\d{1,15}$/.test(raw)) return null;
  return Number(raw);
}
