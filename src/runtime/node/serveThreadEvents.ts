import type { IncomingMessage, ServerResponse } from 'node:http';
import type { EventLog } from '../eventLog';

export interface ServeThreadEventsOptions {
  /** A comment line is sent this often so proxies keep the connection open. @default 15000 */
  heartbeatMs?: number;
}

/**
 * Streams a thread's events as server-sent events: `id:` is the event's seq,
 * so a client that reconnects with `Last-Event-ID` (or `?since=`) gets exactly
 * the events it missed, then live ones. Returns a function that ends the stream.
 * @example
 * http.createServer((req, res) => serveThreadEvents(req, res, threadLog)).listen(8787, '127.0.0.1');
 */
export function serveThreadEvents(
  req: IncomingMessage,
  res: ServerResponse,
  log: Pick<EventLog, 'subscribe'>,
  { heartbeatMs = 15_000 }: ServeThreadEventsOptions = {},
): () => void {
  const since = resumePoint(req);
  if (since === null) {
    res.writeHead(400, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        error: { code: 'invalid_last_event_id', message: 'Last-Event-ID (or ?since=) must be a whole number of at least 0.' },
      }),
    );
    return () => {};
  }
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
  });
  res.write('retry: 1000\n\n');
  const unsubscribe = log.subscribe((event) => {
    res.write(`id: ${event.seq}\nevent: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`);
  }, since);
  const heartbeat = setInterval(() => res.write(': keep-alive\n\n'), heartbeatMs);
  let ended = false;
  const end = () => {
    if (ended) return;
    ended = true;
    clearInterval(heartbeat);
    unsubscribe();
    res.end();
  };
  req.on('close', end);
  res.on('close', end);
  return end;
}

function resumePoint(req: IncomingMessage): number | null {
  const header = req.headers['last-event-id'];
  const raw = (Array.isArray(header) ? header[0] : header) ?? new URL(req.url ?? '/', 'http://127.0.0.1').searchParams.get('since') ?? '0';
  if (!/^\d{1,15}$/.test(raw.trim())) return null;
  return Number(raw.trim());
}
