import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createEventLog, type EventLog } from '../eventLog';
import type { ThreadEvent } from '../events';
import { serveThreadEvents } from './serveThreadEvents';

let server: Server | null = null;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = null;
});

async function serve(log: Pick<EventLog, 'subscribe'>): Promise<string> {
  server = createServer((req, res) => serveThreadEvents(req, res, log, { heartbeatMs: 50 }));
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/events`;
}

/** Reads server-sent events until `count` events arrived; returns them with their ids. */
async function read(response: Response, count: number): Promise<{ id: string; event: ThreadEvent }[]> {
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  const out: { id: string; event: ThreadEvent }[] = [];
  let buffer = '';
  while (out.length < count) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    let cut: number;
    while ((cut = buffer.indexOf('\n\n')) !== -1) {
      const block = buffer.slice(0, cut);
      buffer = buffer.slice(cut + 2);
      const id = /^id: (.*)$/m.exec(block)?.[1];
      const data = /^data: (.*)$/m.exec(block)?.[1];
      if (id && data) out.push({ id, event: JSON.parse(data) as ThreadEvent });
    }
  }
  await reader.cancel();
  return out;
}

function say(log: EventLog, text: string) {
  log.emit({ type: 'message.created', message_id: `m-${text}`, role: 'user', text });
}

describe('serveThreadEvents', () => {
  it('streams past and live events with their seq as the event id', async () => {
    const log = createEventLog({ now: () => 5 });
    say(log, 'one');
    const url = await serve(log);
    const response = await fetch(url);
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    setTimeout(() => say(log, 'two'), 20);
    const events = await read(response, 2);
    expect(events.map((e) => e.id)).toEqual(['1', '2']);
    expect(events.map((e) => e.event.type === 'message.created' && e.event.text)).toEqual(['one', 'two']);
  });

  it('resumes after Last-Event-ID with exactly the missed events', async () => {
    const log = createEventLog();
    for (const text of ['a', 'b', 'c', 'd']) say(log, text);
    const url = await serve(log);
    const events = await read(await fetch(url, { headers: { 'Last-Event-ID': '2' } }), 2);
    expect(events.map((e) => e.id)).toEqual(['3', '4']);
    const viaQuery = await read(await fetch(`${url}?since=3`), 1);
    expect(viaQuery.map((e) => e.id)).toEqual(['4']);
  });

  it('refuses a resume point that is not a number with a JSON error', async () => {
    const url = await serve(createEventLog());
    const response = await fetch(url, { headers: { 'Last-Event-ID': '2; DROP TABLE' } });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      error: { code: 'invalid_last_event_id', message: 'Last-Event-ID (or ?since=) must be a whole number of at least 0.' },
    });
  });

  it('unsubscribes when the client goes away', async () => {
    const log = createEventLog();
    let open = 0;
    const counting: Pick<EventLog, 'subscribe'> = {
      subscribe(listener, since) {
        open++;
        const off = log.subscribe(listener, since);
        return () => {
          open--;
          off();
        };
      },
    };
    const url = await serve(counting);
    const controller = new AbortController();
    const response = await fetch(url, { signal: controller.signal });
    expect(response.status).toBe(200);
    expect(open).toBe(1);
    controller.abort();
    await expect.poll(() => open, { timeout: 2_000 }).toBe(0);
  });
});
