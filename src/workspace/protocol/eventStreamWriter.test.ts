import { serve } from '@hono/node-server';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createEventLog, type EventLog } from '../../runtime/eventLog';
import type { ThreadEvent } from '../../runtime/events';
import { threadEventResponse } from './eventStreamWriter';

let server: Server | null = null;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = null;
});

async function serveLog(log: Pick<EventLog, 'subscribe'>, options = {}): Promise<string> {
  const url = await new Promise<string>((resolve) => {
    server = serve({ fetch: (request) => threadEventResponse(request, log, { heartbeatMs: 50, ...options }), port: 0, hostname: '127.0.0.1' }, (info: AddressInfo) =>
      resolve(`http://127.0.0.1:${info.port}/events`),
    ) as Server;
  });
  return url;
}

/** Reads server-sent events until `count` events arrived or the stream ended; returns them with their ids. */
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

describe('threadEventResponse', () => {
  it('streams past and live events with their seq as the event id and their type as the event name', async () => {
    const log = createEventLog({ now: () => 5 });
    say(log, 'one');
    const url = await serveLog(log);
    const response = await fetch(url);
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    setTimeout(() => say(log, 'two'), 20);
    const events = await read(response, 2);
    expect(events.map((e) => e.id)).toEqual(['1', '2']);
    expect(events.map((e) => e.event.type === 'message.created' && e.event.text)).toEqual(['one', 'two']);
  });

  it('resumes after Last-Event-ID (or ?since=) with exactly the missed events', async () => {
    const log = createEventLog();
    for (const text of ['a', 'b', 'c', 'd']) say(log, text);
    const url = await serveLog(log);
    const events = await read(await fetch(url, { headers: { 'Last-Event-ID': '2' } }), 2);
    expect(events.map((e) => e.id)).toEqual(['3', '4']);
    const viaQuery = await read(await fetch(`${url}?since=3`), 1);
    expect(viaQuery.map((e) => e.id)).toEqual(['4']);
  });

  it('takes an empty Last-Event-ID (or ?since=) as no resume point: the whole log', async () => {
    const log = createEventLog();
    for (const text of ['a', 'b']) say(log, text);
    const url = await serveLog(log);
    const events = await read(await fetch(url, { headers: { 'Last-Event-ID': '' } }), 2);
    expect(events.map((e) => e.id)).toEqual(['1', '2']);
    const viaQuery = await read(await fetch(`${url}?since=`, { headers: { 'Last-Event-ID': ' ' } }), 2);
    expect(viaQuery.map((e) => e.id)).toEqual(['1', '2']);
  });

  it('refuses a resume point that is not a number with a JSON error', async () => {
    const url = await serveLog(createEventLog());
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
    const url = await serveLog(counting);
    const controller = new AbortController();
    const response = await fetch(url, { signal: controller.signal });
    expect(response.status).toBe(200);
    expect(open).toBe(1);
    controller.abort();
    await expect.poll(() => open, { timeout: 2_000 }).toBe(0);
  });

  it('ends the stream of a client that stops reading, so it resumes from the log instead of growing server memory', async () => {
    const log = createEventLog();
    for (let i = 0; i < 50; i++) say(log, `backlog-${i}`);
    const url = await serveLog(log, { maxQueued: 10 });
    // Each stream ends after a bounded backlog; the client resumes from the last id it got until it has all.
    const got: number[] = [];
    let streams = 0;
    while (got.length < 50 && streams < 50) {
      streams++;
      const page = await read(await fetch(url, { headers: { 'Last-Event-ID': String(got.at(-1) ?? 0) } }), 1_000);
      got.push(...page.map((e) => Number(e.id)));
    }
    expect(streams).toBeGreaterThan(1);
    expect(got).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
  });
});
