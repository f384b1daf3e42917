// What the server benches share: HTTP requests to a server instance over a keep-alive agent, and SSE
// delivery latency measured by event-stream clients spread over one or more instances.
import http from 'node:http';
import { performance } from 'node:perf_hooks';

/** Wall-clock ms on one clock across processes (performance.timeOrigin + now()). */
export const now = () => performance.timeOrigin + performance.now();

/** A server instance at `url`, with its own keep-alive agent. */
export function instanceAt(url, { maxSockets = 64, headers = {} } = {}) {
  const { hostname, port } = new URL(url);
  return { host: hostname, port: Number(port), agent: new http.Agent({ keepAlive: true, maxSockets }), headers };
}

/** One request; resolves with the status and the body text. */
export function request(inst, method, path, body) {
  return new Promise((resolveReq, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = http.request(
      {
        host: inst.host,
        port: inst.port,
        method,
        path,
        agent: inst.agent,
        headers: { 'content-type': 'application/json', ...inst.headers, ...(payload ? { 'content-length': Buffer.byteLength(payload) } : {}) },
      },
      (res) => {
        let data = '';
        res.setEncoding('utf8');
        res.on('data', (d) => (data += d));
        res.on('end', () => resolveReq({ status: res.statusCode, body: data }));
      },
    );
    req.on('error', reject);
    if (payload) req.write(payload);
    req.end();
  });
}

/** The request, or an error naming what failed when the answer is not 200. */
export async function must(what, answer) {
  const res = await answer;
  if (res.status !== 200) throw new Error(`${what}: HTTP ${res.status} ${res.body}`);
  return res;
}

/**
 * SSE delivery latency: `clients` event-stream clients on one thread, spread evenly over
 * `instances`; `bench.tick` on the first emits `events` outputs `intervalMs` apart, each stamped
 * with the time it was emitted; each client measures emit → received. p50, p99 and max in ms.
 */
export async function measureSse(instances, thread, { clients, events, intervalMs }) {
  await must('creating the thread', request(instances[0], 'POST', `/v1/threads/${thread}/view`, { view: { kind: 'bench' } }));
  const latencies = [];
  const received = new Array(clients).fill(0);
  const sockets = [];
  await Promise.all(
    Array.from({ length: clients }, (_, c) =>
      new Promise((ready, reject) => {
        const inst = instances[c % instances.length];
        const req = http.get({ host: inst.host, port: inst.port, path: `/v1/threads/${thread}/events`, headers: { ...inst.headers, accept: 'text/event-stream', 'last-event-id': '0' } }, (res) => {
          if (res.statusCode !== 200) return reject(new Error(`SSE client ${c}: HTTP ${res.statusCode}`));
          res.setEncoding('utf8');
          let buffer = '';
          res.on('data', (chunk) => {
            const t = now();
            buffer += chunk;
            let cut;
            while ((cut = buffer.indexOf('\n\n')) !== -1) {
              const block = buffer.slice(0, cut);
              buffer = buffer.slice(cut + 2);
              if (block.startsWith('retry:')) ready();
              if (!block.includes('event: capability.output')) continue;
              latencies.push(t - Number(JSON.parse(block.slice(block.indexOf('data: ') + 6)).text));
              received[c]++;
            }
          });
        });
        req.on('error', reject);
        sockets.push(req);
      }),
    ),
  );
  await must('bench.tick', request(instances[0], 'POST', '/v1/invocations', { threadId: thread, capability: 'bench.tick', args: { count: events, intervalMs } }));
  const deadline = Date.now() + 15_000;
  while (received.some((n) => n < events) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  for (const s of sockets) s.destroy();
  const sorted = latencies.sort((a, b) => a - b);
  const pct = (p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
  return {
    clients,
    instances: instances.length,
    events,
    intervalMs,
    samples: sorted.length,
    complete: received.every((n) => n === events),
    p50Ms: +pct(50).toFixed(3),
    p99Ms: +pct(99).toFixed(3),
    maxMs: +(sorted.at(-1) ?? NaN).toFixed(3),
  };
}
