import { afterEach, describe, expect, it, vi } from 'vitest';
import { createEventLog, type EventLog } from '../../runtime/eventLog';
import { eventStreamResponse, type DirectEventWriter } from './eventStreamWriter';

/** A Node response as the stream sees it: what it was written, how much it holds unsent, whether it was cut. */
function fakeWriter() {
  const writes: Uint8Array[] = [];
  let unsent = 0;
  let destroyed = false;
  const finished: (() => void)[] = [];
  const writer: DirectEventWriter = {
    state: () => (destroyed ? 'closed' : 'open'),
    write: (chunk) => void writes.push(chunk),
    buffered: () => unsent,
    destroy: () => void (destroyed = true),
    onFinished: (callback) => void finished.push(callback),
  };
  return {
    writer,
    writes,
    /** Everything written, as text. */
    text: () => writes.map((w) => new TextDecoder().decode(w)).join(''),
    /** The ids of the events written, in order. */
    ids: () => [...writes.map((w) => new TextDecoder().decode(w)).join('').matchAll(/^id: (\d+)$/gm)].map((m) => Number(m[1])),
    setUnsent: (bytes: number) => void (unsent = bytes),
    destroyed: () => destroyed,
    finish: () => finished.forEach((f) => f()),
  };
}

const request = (since = 0) => new Request('http://127.0.0.1/v1/threads/t/events', { headers: { 'last-event-id': String(since) } });
const tick = () => new Promise((resolve) => setImmediate(resolve));
/** Until every client has had `count` writes (a pass to hundreds of clients may take more than one tick). */
const written = (clients: { writes: unknown[] }[], count: number) => expect.poll(() => clients.every((client) => client.writes.length >= count), { interval: 2 }).toBe(true);
const say = (log: EventLog, text: string) => log.emit({ type: 'message.created', message_id: `m-${text}`, role: 'user', text });

/** `n` clients of one log, each written directly; returns their writers and responses. */
function follow(log: EventLog, n: number, options = {}) {
  return Array.from({ length: n }, () => {
    const fake = fakeWriter();
    const response = eventStreamResponse(request(), log, { heartbeatMs: 60_000, ...options }, fake.writer);
    return { ...fake, response };
  });
}

afterEach(() => {
  vi.restoreAllMocks();
  vi.useRealTimers();
});

describe('the event stream fan-out', () => {
  it('serialises each event once for all of its clients, and writes every client the same bytes', async () => {
    const log = createEventLog();
    const clients = follow(log, 200);
    await tick();
    const stringify = vi.spyOn(JSON, 'stringify');
    for (let i = 0; i < 10; i++) say(log, `live-${i}`);
    await tick();
    const eventsSerialised = stringify.mock.calls.filter(([value]) => (value as { type?: string })?.type === 'message.created').length;
    expect(eventsSerialised).toBe(10);
    for (const client of clients) {
      expect(client.ids()).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
      expect(new TextDecoder().decode(client.writes.at(-1))).toBe(new TextDecoder().decode(clients[0]!.writes.at(-1)));
    }
    for (const client of clients) void client.response.body?.cancel();
  });

  it('joins what a fan-out that fell behind writes each client once, however long: every client is written the same chunk', async () => {
    const log = createEventLog();
    const clients = follow(log, 3);
    await tick();
    // Six hundred events in one task: about 90 KB for each client, in one write.
    for (let i = 0; i < 600; i++) say(log, `burst-${i}`);
    await tick();
    const last = clients[0]!.writes.at(-1)!;
    expect(last.byteLength).toBeGreaterThan(65_536);
    for (const client of clients) {
      expect(client.writes).toHaveLength(2);
      expect(client.writes.at(-1)).toBe(last);
    }
    expect(clients[2]!.ids()).toEqual(Array.from({ length: 600 }, (_, i) => i + 1));
    for (const client of clients) void client.response.body?.cancel();
  });

  it('keeps every client of one period alive on one timer, all written the same keep-alive in one tick', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const log = createEventLog();
    const clients = follow(log, 300, { heartbeatMs: 1_000 });
    await written(clients, 1);
    expect(vi.getTimerCount()).toBe(1);
    vi.advanceTimersByTime(1_000);
    await written(clients, 2);
    for (const client of clients) expect(client.text()).toBe('retry: 1000\n\n: keep-alive\n\n');
    expect(clients[299]!.writes.at(-1)).toBe(clients[0]!.writes.at(-1));
    for (const client of clients) await client.response.body?.cancel();
    expect(vi.getTimerCount()).toBe(0);
  });

  it('writes a pass to a thousand clients in slices: the producer runs between them, and a client not yet written gets what came meanwhile in the same write', async () => {
    const log = createEventLog();
    const clients = follow(log, 1_000);
    // Each write takes 20 µs: a pass over every client takes 20 ms, about ten slices.
    let writes = 0;
    let producerRanAfter: number | null = null;
    for (const client of clients) {
      const write = client.writer.write;
      client.writer.write = (chunk) => {
        const until = performance.now() + 0.02;
        while (performance.now() < until);
        write(chunk);
        // The producer's next event comes due while the pass is early on (a model's next token).
        if (++writes === 1_050) {
          setTimeout(() => {
            producerRanAfter = clients.filter((c) => c.ids().length > 0).length;
            say(log, 'second');
          }, 0);
        }
      };
    }
    await written(clients, 1);
    say(log, 'first');
    await expect.poll(() => clients.every((client) => client.ids().length === 2), { interval: 5 }).toBe(true);
    // It ran with the pass under way (not after it): some clients had had the first event, not all.
    expect(producerRanAfter).toBeGreaterThanOrEqual(50);
    expect(producerRanAfter).toBeLessThan(1_000);
    // The first clients were written each event on its own; the last ones, both in one write, the same bytes.
    expect(clients[0]!.writes).toHaveLength(3);
    expect(clients[999]!.writes).toHaveLength(2);
    expect(clients[998]!.writes.at(-1)).toBe(clients[999]!.writes.at(-1));
    for (const client of clients) expect(client.ids()).toEqual([1, 2]);
    for (const client of clients) void client.response.body?.cancel();
  });

  it("writes one tick's events to a client as one chunk, and writes nothing while the producer's task runs", async () => {
    const log = createEventLog();
    const [client] = follow(log, 1);
    await tick();
    // The `retry:` line went out on its own.
    expect(client!.writes).toHaveLength(1);
    expect(client!.text()).toBe('retry: 1000\n\n');
    for (let i = 0; i < 5; i++) {
      say(log, `burst-${i}`);
      // The producer's emit returns before anything reaches the socket.
      expect(client!.writes).toHaveLength(1);
    }
    await tick();
    expect(client!.writes).toHaveLength(2);
    expect(client!.ids()).toEqual([1, 2, 3, 4, 5]);
    say(log, 'alone');
    await tick();
    say(log, 'later');
    await tick();
    expect(client!.writes).toHaveLength(4);
    expect(client!.ids()).toEqual([1, 2, 3, 4, 5, 6, 7]);
    void client!.response.body?.cancel();
  });

  it('ends the stream of a client whose unsent bytes pass the high-water mark, after what it was written, and stops following for it', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const log = createEventLog();
    let following = 0;
    const counted = {
      subscribe(listener: Parameters<EventLog['subscribe']>[0], since?: number) {
        following++;
        const off = log.subscribe(listener, since);
        return () => {
          following--;
          off();
        };
      },
    };
    const slow = fakeWriter();
    const response = eventStreamResponse(request(), counted, { highWaterMark: 1_000, heartbeatMs: 60_000 }, slow.writer);
    const fast = follow(log, 1, { highWaterMark: 1_000 })[0]!;
    say(log, 'one');
    await tick();
    expect(slow.ids()).toEqual([1]);
    // The client stops reading: what it holds unsent passes the mark.
    slow.setUnsent(5_000);
    say(log, 'two');
    await tick();
    expect(slow.ids()).toEqual([1]);
    expect(following).toBe(0);
    // The web body closes: the Node server ends the response after the bytes already written.
    const { done } = await response.body!.getReader().read();
    expect(done).toBe(true);
    // The others go on.
    say(log, 'three');
    await tick();
    expect(fast.ids()).toEqual([1, 2, 3]);
    // A client that still takes nothing is cut after the grace period, so its unsent bytes do not stay.
    vi.advanceTimersByTime(30_000);
    expect(slow.destroyed()).toBe(true);
    void fast.response.body?.cancel();
  });

  it('is not cut when it takes its last bytes within the grace period', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const log = createEventLog();
    const slow = fakeWriter();
    eventStreamResponse(request(), log, { highWaterMark: 1_000, heartbeatMs: 60_000 }, slow.writer);
    await tick();
    slow.setUnsent(5_000);
    say(log, 'one');
    await tick();
    slow.finish();
    vi.advanceTimersByTime(60_000);
    expect(slow.destroyed()).toBe(false);
  });

  it('writes a long backlog as pages: a stream ends after `maxQueued` events or `highWaterMark` bytes, and the next one goes on from its last id', async () => {
    const log = createEventLog();
    for (let i = 0; i < 25; i++) say(log, `backlog-${i}`);
    const pages: number[][] = [];
    let since = 0;
    while (since < 25 && pages.length < 10) {
      const page = fakeWriter();
      eventStreamResponse(request(since), log, { maxQueued: 10, heartbeatMs: 60_000 }, page.writer);
      await tick();
      pages.push(page.ids());
      since = page.ids().at(-1) ?? since;
    }
    expect(pages).toEqual([
      [1, 2, 3, 4, 5, 6, 7, 8, 9, 10],
      [11, 12, 13, 14, 15, 16, 17, 18, 19, 20],
      [21, 22, 23, 24, 25],
    ]);
  });

  it('waits for the response head before writing, then writes what gathered meanwhile', async () => {
    const log = createEventLog();
    const fake = fakeWriter();
    let head = false;
    const writer: DirectEventWriter = { ...fake.writer, state: () => (head ? 'open' : 'waiting') };
    eventStreamResponse(request(), log, { heartbeatMs: 60_000 }, writer);
    say(log, 'early');
    await tick();
    expect(fake.writes).toHaveLength(0);
    head = true;
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(fake.text()).toMatch(/^retry: 1000\n\nid: 1\n/);
  });
});
