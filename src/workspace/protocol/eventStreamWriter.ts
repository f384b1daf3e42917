import type { EventLog } from '../../runtime/eventLog';
import type { ThreadEvent } from '../../runtime/events';

export interface ThreadEventStreamOptions {
  /** A comment line is sent this often so proxies keep the connection open. @default 15000 */
  heartbeatMs?: number;
  /** The `retry:` delay a browser EventSource waits before reconnecting. @default 1000 */
  retryMs?: number;
  /**
   * Events queued for a client that reads too slowly before its stream is
   * ended; it reconnects with `Last-Event-ID` and catches up from the log, so
   * nothing is lost and the server's memory stays bounded. @default 2000
   */
  maxQueued?: number;
}

const encoder = new TextEncoder();

/**
 * A thread's events as server-sent events, as a web `Response` (Hono, the
 * Fetch API, any runtime with web streams): `id:` is the event's seq, `event:`
 * its type, `data:` the JSON. A client that reconnects with `Last-Event-ID`
 * (or `?since=`) gets exactly the events after it, then live ones. The
 * subscription ends when the client goes away. `eventStreamReader.ts` reads
 * it on the page.
 * @example
 * app.get(routes.events.path, (c) => threadEventResponse(c.req.raw, logOf(c.req.param('threadId'))));
 */
export function threadEventResponse(request: Request, log: Pick<EventLog, 'subscribe'>, options: ThreadEventStreamOptions = {}): Response {
  const { heartbeatMs = 15_000, retryMs = 1_000, maxQueued = 2_000 } = options;
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
        let ended = false;
        let unsubscribe: (() => void) | null = null;
        const heartbeat = setInterval(() => send(': keep-alive\n\n'), heartbeatMs);
        const end = () => {
          if (ended) return;
          ended = true;
          clearInterval(heartbeat);
          unsubscribe?.();
          request.signal.removeEventListener('abort', end);
          try {
            controller.close();
          } catch {
            // Already closed or cancelled by the client.
          }
        };
        const send = (text: string) => {
          if (ended) return;
          controller.enqueue(encoder.encode(text));
          if ((controller.desiredSize ?? 0) < -maxQueued) end();
        };
        stop = end;
        send(`retry: ${retryMs}\n\n`);
        unsubscribe = log.subscribe((event: ThreadEvent) => {
          send(`id: ${event.seq}\nevent: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`);
        }, since);
        if (ended) unsubscribe();
        if (request.signal.aborted) end();
        else request.signal.addEventListener('abort', end, { once: true });
      },
      cancel() {
        stop();
      },
    },
    new CountQueuingStrategy({ highWaterMark: 0 }),
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

function resumePoint(request: Request): number | null {
  const raw = request.headers.get('last-event-id') ?? new URL(request.url).searchParams.get('since') ?? '0';
  if (!/^\d{1,15}$/.test(raw.trim())) return null;
  return Number(raw.trim());
}
