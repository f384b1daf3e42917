// The subscribers of bench/fanout-bench.mjs, in a process of their own: `subscribers` event-stream
// connections to one URL; each records, for every `capability.output` event, receive time − the
// scheduled time stamped in its `text`, and checks that its ids come each once and in order.
import net from 'node:net';
import { performance } from 'node:perf_hooks';

const now = () => performance.timeOrigin + performance.now();
/** Latency histogram: 0.05 ms buckets up to 30 s (the last bucket holds everything beyond). */
const BUCKET_MS = 0.05;
const BUCKETS = 600_000;
const STAMP = '"text":"';

/** Serves the parent over IPC: `connect` → `ready`, then `measure` → `done` with the figures. */
export async function runClients(parent, message) {
  const { url, subscribers } = await message(parent, 'connect');
  const histogram = new Uint32Array(BUCKETS);
  let max = 0;
  let samples = 0;
  let warmupEvents = 0;
  const clients = [];
  const { hostname, port, pathname } = new URL(url);
  const request = `GET ${pathname} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nAccept: text/event-stream\r\nLast-Event-ID: 0\r\n\r\n`;
  // Raw sockets, not http.get: the HTTP client's parser and streams per chunk would make the subscribers'
  // process the bottleneck. Every write of both servers is whole frames, so the chunked encoding's size
  // lines only ever sit between frames; frames are found by their `id: ` line and blank-line end.
  await Promise.all(
    Array.from({ length: subscribers }, () =>
      new Promise((ready, reject) => {
        const client = { received: 0, last: 0, inOrder: true, socket: null };
        clients.push(client);
        let buffer = '';
        let head = true;
        const socket = (client.socket = net.connect({ host: hostname, port: Number(port) }, () => socket.write(request)));
        socket.on('error', reject);
        socket.on('data', (chunk) => {
          const t = now();
          buffer += chunk.latin1Slice();
          if (head) {
            const end = buffer.indexOf('\r\n\r\n');
            if (end === -1) return;
            if (!buffer.startsWith('HTTP/1.1 200')) return reject(new Error(`subscriber: ${buffer.slice(0, buffer.indexOf('\r\n'))}`));
            head = false;
            buffer = buffer.slice(end + 4);
          }
          if (buffer.includes('retry:')) ready();
          let from = 0;
          for (;;) {
            const at = buffer.indexOf('id: ', from);
            if (at === -1) break;
            const cut = buffer.indexOf('\n\n', at);
            if (cut === -1) {
              from = at;
              break;
            }
            from = cut + 2;
            const id = Number(buffer.slice(at + 4, buffer.indexOf('\n', at)));
            if (id <= client.last) client.inOrder = false;
            client.last = id;
            const stamp = buffer.indexOf(STAMP, at);
            const type = buffer.indexOf('event: capability.output', at);
            if (type === -1 || type > cut || stamp === -1 || stamp > cut) continue;
            const n = ++client.received;
            if (n <= warmupEvents) continue;
            const ms = t - Number(buffer.slice(stamp + STAMP.length, buffer.indexOf('"', stamp + STAMP.length)));
            histogram[Math.min(BUCKETS - 1, Math.max(0, Math.floor(ms / BUCKET_MS)))]++;
            if (ms > max) max = ms;
            samples++;
          }
          buffer = from ? buffer.slice(from) : buffer.length > 65_536 && buffer.indexOf('id: ') === -1 ? '' : buffer;
        });
      }),
    ),
  );
  parent.send({ type: 'ready' });
  const { count, deadline, warmupEvents: warm } = await message(parent, 'measure');
  warmupEvents = warm;
  while (clients.some((c) => c.received < count) && now() < deadline) await new Promise((r) => setTimeout(r, 20));
  const pct = (p) => {
    const target = Math.ceil((p / 100) * samples);
    let seen = 0;
    for (let i = 0; i < BUCKETS; i++) {
      seen += histogram[i];
      if (seen >= target) return +((i + 1) * BUCKET_MS).toFixed(2);
    }
    return NaN;
  };
  const received = clients.reduce((sum, c) => sum + c.received, 0);
  parent.send({
    type: 'done',
    received,
    complete: clients.every((c) => c.received === count),
    inOrder: clients.every((c) => c.inOrder),
    short: clients.filter((c) => c.received !== count).length,
    outOfOrder: clients.filter((c) => !c.inOrder).length,
    receivedRange: [Math.min(...clients.map((c) => c.received)), Math.max(...clients.map((c) => c.received))],
    closed: clients.filter((c) => c.socket.readableEnded || c.socket.destroyed).length,
    latency: { samples, p50Ms: pct(50), p99Ms: pct(99), maxMs: +max.toFixed(2) },
  });
  for (const c of clients) c.socket.destroy();
}
