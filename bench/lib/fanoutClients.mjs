// The subscribers of bench/fanout-bench.mjs, in a process of their own: `subscribers` event-stream
// connections to one URL; each records, for every `capability.output` event, receive time − the
// scheduled time stamped in its `text`, and checks that its ids come each once and in order.
// The process is part of what is measured (a read it gets to late is a late delivery), and shares the
// machine's cores with the server: it reads each socket into one shared buffer (`onread`: no stream and no
// Buffer per read), which halves its CPU per read against `'data'` events.
import net from 'node:net';
import { performance } from 'node:perf_hooks';

const now = () => performance.timeOrigin + performance.now();
/** Latency histogram: 0.05 ms buckets up to 30 s (the last bucket holds everything beyond). */
const BUCKET_MS = 0.05;
const BUCKETS = 600_000;
const STAMP = '"text":"';
const OUTPUT = 'event: capability.output\n';
/** Every socket reads into this buffer; each read is parsed before the next one lands. */
const shared = Buffer.allocUnsafe(1 << 20);

/**
 * Reads the whole frames in `text` for one client (`c`): an `id:` line, and for a stamped output
 * (`event: capability.output`) the stamp in its data (`"text":"<ms>"`), then `done(c, t - stamp)`. Other
 * frames (`retry:`, keep-alive comments) and the chunked encoding's size lines between frames are passed
 * over. Returns where an unfinished frame starts, or -1.
 */
function readFrames(c, text, t, done) {
  let from = 0;
  for (;;) {
    const at = text.indexOf('id: ', from);
    if (at === -1) return -1;
    const cut = text.indexOf('\n\n', at);
    if (cut === -1) return at;
    from = cut + 2;
    const eol = text.indexOf('\n', at);
    const id = Number(text.slice(at + 4, eol));
    if (id <= c.last) c.inOrder = false;
    c.last = id;
    if (!text.startsWith(OUTPUT, eol + 1)) continue;
    const stamp = text.indexOf(STAMP, eol + 1 + OUTPUT.length);
    if (stamp === -1 || stamp > cut) continue;
    const value = stamp + STAMP.length;
    done(c, t - Number(text.slice(value, text.indexOf('"', value))));
  }
}

/** Serves the parent over IPC: `connect` → `ready`, then `measure` → `done` with the figures. */
export async function runClients(parent, message) {
  const { url, subscribers } = await message(parent, 'connect');
  const histogram = new Uint32Array(BUCKETS);
  let max = 0;
  let samples = 0;
  let warmupEvents = 0;
  let reads = 0;
  const clients = [];
  const { hostname, port, pathname } = new URL(url);
  const request = `GET ${pathname} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nAccept: text/event-stream\r\nLast-Event-ID: 0\r\n\r\n`;
  // Raw sockets, not http.get: the HTTP client's parser and streams per chunk would make the subscribers'
  // process the bottleneck. Every write of both servers is whole frames, so the chunked encoding's size
  // lines only ever sit between frames; frames are found by their `id: ` line and blank-line end.
  await Promise.all(
    Array.from({ length: subscribers }, () =>
      new Promise((ready, reject) => {
        const client = { received: 0, last: 0, inOrder: true, socket: null, ended: false };
        clients.push(client);
        /** The head so far (null once read), then the start of a frame a read cut in two (rare: each server write is whole frames). */
        let head = '';
        let carry = '';
        const done = (c, ms) => {
          const n = ++c.received;
          if (n <= warmupEvents) return;
          histogram[Math.min(BUCKETS - 1, Math.max(0, Math.floor(ms / BUCKET_MS)))]++;
          if (ms > max) max = ms;
          samples++;
        };
        const onRead = (size, buffer) => {
          const t = now();
          reads++;
          let text = buffer.latin1Slice(0, size);
          if (head !== null) {
            head += text;
            const cut = head.indexOf('\r\n\r\n');
            if (cut === -1) return;
            if (!head.startsWith('HTTP/1.1 200')) return reject(new Error(`subscriber: ${head.slice(0, head.indexOf('\r\n'))}`));
            if (!head.includes('retry:', cut)) return;
            text = head.slice(cut + 4);
            head = null;
            ready();
          } else if (carry) {
            text = carry + text;
            carry = '';
          }
          const rest = readFrames(client, text, t, done);
          if (rest !== -1) carry = text.slice(rest);
        };
        const socket = (client.socket = net.connect({ host: hostname, port: Number(port), onread: { buffer: shared, callback: onRead } }, () => socket.write(request)));
        socket.on('error', reject);
        socket.on('end', () => (client.ended = true));
        socket.on('close', () => (client.ended = true));
      }),
    ),
  );
  parent.send({ type: 'ready' });
  const { count, deadline, warmupEvents: warm } = await message(parent, 'measure');
  warmupEvents = warm;
  const cpu0 = process.cpuUsage();
  reads = 0;
  while (clients.some((c) => c.received < count) && now() < deadline) await new Promise((r) => setTimeout(r, 20));
  const cpu = process.cpuUsage(cpu0);
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
    closed: clients.filter((c) => c.ended).length,
    clientCpuMs: Math.round((cpu.user + cpu.system) / 1_000),
    clientReads: reads,
    latency: { samples, p50Ms: pct(50), p99Ms: pct(99), maxMs: +max.toFixed(2) },
  });
  for (const c of clients) c.socket.destroy();
}
