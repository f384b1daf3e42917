#!/usr/bin/env node
// One thread streamed to many event-stream clients, the kit's workspace server beside a node:http
// fan-out floor, measured in one run; then the server's RSS before and after 10,000 threads are
// written and evicted (issue 45: fan-out at the socket, memory).
//   1. Fan-out: for each subscriber count (`--subscribers 250,1000,2000`) and round (`--rounds 2`),
//      the floor and the kit take turns (the order alternating by round): a server child process,
//      and a client child process holding the subscribers (so their CPU is not the server's). The
//      producer emits `--rate 200` events a second for `--seconds 4`, each stamped with its scheduled
//      time (a late producer shows as latency); each client measures receive time − scheduled time
//      (one clock across processes). Printed: delivery p50/p99/max (the first `--warmup-ms 500` of
//      events left out), whether every client got every event once and in order, and the server's CPU
//      per delivery (process.cpuUsage over the stream, divided by events × subscribers); and the response
//      writes per delivery and CPU per write (a server that falls behind writes several events per chunk,
//      which lowers its CPU per delivery: per write, the two are compared at the same work); and the
//      subscribers' process's own CPU and reads per delivery (it shares the cores, and a read it gets to
//      late is a late delivery: bench/lib/fanoutClients.mjs), and the machine's 1-minute load.
//      - the floor (`--role floor`): node:http; each due event serialised once, the events due at a
//        timer written as one chunk straight to every response; no store.
//      - the kit (`--role kit`): createWorkspaceServer (SQLite file) with a capability that emits the
//        stamped outputs into the thread (`ctx.output`); clients on GET /v1/threads/{id}/events.
//   2. Memory (`--threads 10000`, 0 skips): a kit server: RSS and heap after a full GC at the start
//      (after 500 threads written and evicted as warm-up), with all the threads written and in memory
//      (a view change and an invocation each, over HTTP), and after they are evicted (the server's
//      clock is moved an hour on and its idle sweep run); the start and the end are read after 10 s of
//      quiet (`--settle-ms`), when V8 has given a shrunken heap's pages back.
// Prints one JSON object on stdout, a readable summary on stderr. FANOUT_PROF=dir writes the servers' (and
// the subscribers' processes') CPU profiles there; FANOUT_SMAPS=1 prints the memory server's RSS by mapping at each measurement.
//   node bench/fanout-bench.mjs [--server dist/server.js] [--runtime dist/runtime.js] [--subscribers 250,1000,2000]
//        [--rate 200] [--seconds 4] [--rounds 2] [--threads 10000] [--quick]
import { fork } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { runClients } from './lib/fanoutClients.mjs';

const argv = process.argv.slice(2);
const opt = (name, def) => {
  const i = argv.indexOf('--' + name);
  return i >= 0 && i + 1 < argv.length ? argv[i + 1] : def;
};
const QUICK = argv.includes('--quick');
const ROLE = opt('role', 'main');
const serverPath = resolve(opt('server', 'dist/server.js'));
const runtimePath = resolve(opt('runtime', 'dist/runtime.js'));
const now = () => performance.timeOrigin + performance.now();
const log = (...a) => console.error('[fanout-bench]', ...a);
const THREAD = 'fanout';

/** Waits for one IPC message of `type` from `child` (or from the parent, when `child` is `process`). */
const message = (child, type) =>
  new Promise((resolveMsg, reject) => {
    const exited = (code) => reject(new Error(`child exited with ${code} while waiting for ${type}`));
    const on = (m) => {
      if (m?.type !== type) return;
      child.off('message', on);
      if (child !== process) child.off('exit', exited);
      resolveMsg(m);
    };
    child.on('message', on);
    if (child !== process) child.once('exit', exited);
  });
/**
 * Response writes so far in this process: how many chunks the fan-out made (the same count for both
 * servers): each `response.write`, and each socket write made outside one (the kit writes a chunk it
 * framed once straight to the socket).
 */
let writes = 0;
if (ROLE === 'floor' || ROLE === 'kit') {
  const write = http.ServerResponse.prototype.write;
  let inResponse = false;
  // Fixed arity, no rest arguments: the count costs a few ns a write, on both servers.
  http.ServerResponse.prototype.write = function (chunk, encoding, callback) {
    writes++;
    inResponse = true;
    try {
      return write.call(this, chunk, encoding, callback);
    } finally {
      inResponse = false;
    }
  };
  // Only the kit writes to sockets itself; the floor's responses are not slowed by a second count.
  const socketWrite = net.Socket.prototype.write;
  if (ROLE === 'kit') {
    net.Socket.prototype.write = function (chunk, encoding, callback) {
      if (!inResponse) writes++;
      return socketWrite.call(this, chunk, encoding, callback);
    };
  }
}
const cpuMicros = () => {
  const c = process.cpuUsage();
  return c.user + c.system;
};
const cpuReport = () => ({ type: 'cpu', micros: cpuMicros(), writes });

if (ROLE !== 'main' && ROLE !== 'kit') process.on('disconnect', () => process.exit(0));
if (ROLE === 'floor') await floorServer();
else if (ROLE === 'kit') await kitServer();
else if (ROLE === 'clients') await runClients(process, message);
else await main();

// ------------------------------------------------------------------ the floor: node:http, serialise once, write directly
async function floorServer() {
  const responses = new Set();
  const server = http.createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache, no-transform', connection: 'keep-alive' });
    res.write('retry: 1000\n\n');
    responses.add(res);
    res.on('close', () => responses.delete(res));
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  process.on('message', (m) => {
    if (m?.type === 'cpu') process.send(cpuReport());
    if (m?.type !== 'start') return;
    const { count, intervalMs, startAt } = m;
    let next = 0;
    const tick = () => {
      // Every event due by now, serialised once each, written to every response as one chunk.
      const frames = [];
      const t = now();
      while (next < count && startAt + next * intervalMs <= t) {
        const seq = next + 1;
        const event = { type: 'capability.output', seq, ts: Date.now(), invocation_id: 'inv_floor', stream: 'log', text: String(startAt + next * intervalMs) };
        frames.push(`id: ${seq}\nevent: capability.output\ndata: ${JSON.stringify(event)}\n\n`);
        next++;
      }
      if (frames.length) {
        const chunk = Buffer.from(frames.join(''));
        for (const res of responses) res.write(chunk);
      }
      if (next < count) setTimeout(tick, Math.max(0, startAt + next * intervalMs - now()));
    };
    setTimeout(tick, Math.max(0, startAt - now()));
  });
  process.send({ type: 'listening', url: `http://127.0.0.1:${server.address().port}/events` });
}

// ------------------------------------------------------------------ the kit: createWorkspaceServer
async function kitServer() {
  const { createWorkspaceServer } = await import(pathToFileURL(serverPath).href);
  const { defineCapability, textResult } = await import(pathToFileURL(runtimePath).href);
  const { z } = await import('zod');
  const tick = defineCapability({
    name: 'bench.tick',
    title: 'Tick',
    description: 'Emits `count` outputs `intervalMs` apart from `startAt`, each stamped with its scheduled time.',
    input: z.object({ count: z.number().int().min(1), intervalMs: z.number().min(0), startAt: z.number() }),
    handler: async ({ count, intervalMs, startAt }, ctx) => {
      for (let i = 0; i < count; i++) {
        const due = startAt + i * intervalMs;
        // Late (the thread was busy): emitted at once, with the ones due meanwhile, as tokens would arrive.
        if (due > now()) await new Promise((r) => setTimeout(r, due - now()));
        ctx.output(String(due), 'log');
      }
      return textResult(`${count} ticks`, { count });
    },
  });
  const echo = defineCapability({ name: 'bench.echo', title: 'Echo', description: 'Returns its input.', input: z.object({ id: z.number().int() }), handler: ({ id }) => textResult(`#${id}`, { id }) });
  const dir = mkdtempSync(join(tmpdir(), 'chatsurface-fanout-bench-'));
  let skew = 0;
  const server = await createWorkspaceServer({
    capabilities: [tick, echo],
    database: join(dir, 'bench.db'),
    // The memory run's threads stay live until it says: its clock jumps an hour ahead, and idle ones go.
    workspace: { idleMs: 600_000, now: () => Date.now() + skew, maxThreadsPerUser: 1_000_000, maxLiveThreads: 1_000_000 },
    // Every thread comes from one address here: the per-address cap on new threads (5,000 a day) raised.
    limits: { threads: { perSpace: 1_000_000, perAddress: 1_000_000 } },
  });
  const { url } = await server.listen({ port: 0 });
  const local = { user: 'local', scopes: ['skills:space'] };
  await server.host.setView(local, { threadId: THREAD, view: { kind: 'bench' } });
  const memory = () => {
    globalThis.gc?.();
    globalThis.gc?.();
    const m = process.memoryUsage();
    return { rss: m.rss, heapUsed: m.heapUsed, heapTotal: m.heapTotal, external: m.external, arrayBuffers: m.arrayBuffers, liveThreads: server.host.liveThreads };
  };
  process.on('message', (m) => {
    if (m?.type === 'cpu') process.send(cpuReport());
    if (m?.type === 'evict') {
      skew += 3_600_000;
      process.send({ type: 'evicted', count: server.host.evictIdle() });
    }
    if (m?.type === 'memory') {
      const mem = memory();
      if (process.env.FANOUT_SMAPS) console.error('[fanout-bench] server RSS by mapping (KB):', JSON.stringify(rssByMapping()));
      process.send({ type: 'memory', ...mem });
    }
    if (m?.type === 'start') void server.host.invoke(local, { threadId: THREAD, capability: 'bench.tick', args: { count: m.count, intervalMs: m.intervalMs, startAt: m.startAt } });
  });
  process.on('disconnect', async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
    process.exit(0);
  });
  process.send({ type: 'listening', url: `${url}/v1/threads/${THREAD}/events`, base: url });
}

/** The process's resident memory by mapping (`[heap]`: malloc's main arena; `[anon]`: V8's heap and other arenas), largest first. */
function rssByMapping() {
  const by = new Map();
  let name = null;
  for (const line of readFileSync('/proc/self/smaps', 'utf8').split('\n')) {
    if (/^[0-9a-f]+-[0-9a-f]+ /.test(line)) name = line.split(/\s+/).slice(5).join(' ') || '[anon]';
    else if (line.startsWith('Rss:')) by.set(name, (by.get(name) ?? 0) + Number(line.split(/\s+/)[1]));
  }
  return [...by].sort((a, b) => b[1] - a[1]).slice(0, 6);
}

// ------------------------------------------------------------------ main
function child(role, execArgv = []) {
  return fork(fileURLToPath(import.meta.url), ['--role', role, '--server', serverPath, '--runtime', runtimePath], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'], execArgv });
}

async function stop(proc) {
  if (proc.exitCode !== null) return;
  const exited = new Promise((r) => proc.once('exit', r));
  if (proc.connected) proc.disconnect();
  else proc.kill('SIGTERM');
  const kill = setTimeout(() => proc.kill('SIGKILL'), 5_000);
  await exited;
  clearTimeout(kill);
}

/** One measurement: a server of `kind`, `subscribers` clients, `count` events at `rate` a second. */
async function fanoutOnce(kind, subscribers, rate, seconds, warmupMs) {
  const server = child(kind, process.env.FANOUT_PROF ? ['--cpu-prof', '--cpu-prof-dir', process.env.FANOUT_PROF] : []);
  const { url } = await message(server, 'listening');
  const clients = child('clients', process.env.FANOUT_PROF ? ['--cpu-prof', '--cpu-prof-dir', process.env.FANOUT_PROF] : []);
  try {
    clients.send({ type: 'connect', url, subscribers });
    await message(clients, 'ready');
    const intervalMs = 1_000 / rate;
    const count = Math.round(rate * seconds);
    const startAt = now() + 300;
    const warmupEvents = Math.round(warmupMs / intervalMs);
    server.send({ type: 'cpu' });
    const before = await message(server, 'cpu');
    clients.send({ type: 'measure', count, warmupEvents, deadline: startAt + seconds * 1_000 + 20_000 });
    server.send({ type: 'start', count, intervalMs, startAt });
    const result = await message(clients, 'done');
    server.send({ type: 'cpu' });
    const after = await message(server, 'cpu');
    const deliveries = result.received;
    const micros = after.micros - before.micros;
    const chunks = after.writes - before.writes;
    if (!result.complete || !result.inOrder) log(kind, JSON.stringify({ short: result.short, outOfOrder: result.outOfOrder, range: result.receivedRange, closed: result.closed, count }));
    return { kind, subscribers, events: count, rate, ...result.latency, complete: result.complete, inOrder: result.inOrder, deliveries, cpuMicrosPerDelivery: +(micros / deliveries).toFixed(3), writesPerDelivery: +(chunks / deliveries).toFixed(3), cpuMicrosPerWrite: +(micros / chunks).toFixed(3), serverCpuMs: Math.round(micros / 1_000), clientCpuMs: result.clientCpuMs, clientReadsPerDelivery: +(result.clientReads / deliveries).toFixed(3), load1m: +loadavg()[0].toFixed(2) };
  } finally {
    await stop(clients);
    await stop(server);
  }
}

/** RSS and heap of a kit server before, with and after `threads` threads written over HTTP and evicted. */
async function memoryRun(threads) {
  const server = child('kit', ['--expose-gc']);
  const { base } = await message(server, 'listening');
  const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });
  const post = (path, body) =>
    new Promise((resolvePost, reject) => {
      const payload = JSON.stringify(body);
      const req = http.request(`${base}${path}`, { method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } }, (res) => {
        res.resume();
        res.on('end', () => (res.statusCode === 200 ? resolvePost() : reject(new Error(`${path}: HTTP ${res.statusCode}`))));
      });
      req.on('error', reject);
      req.end(payload);
    });
  const write = async (prefix, n) => {
    for (let i = 0; i < n; i += 16) {
      await Promise.all(
        Array.from({ length: Math.min(16, n - i) }, async (_, k) => {
          const id = `${prefix}-${i + k}`;
          await post(`/v1/threads/${id}/view`, { view: { kind: 'records', id } });
          await post('/v1/invocations', { threadId: id, capability: 'bench.echo', args: { id: i + k } });
        }),
      );
    }
  };
  const memory = async () => {
    server.send({ type: 'memory' });
    return message(server, 'memory');
  };
  const evicted = async () => {
    server.send({ type: 'evict' });
    await message(server, 'evicted');
    return memory();
  };
  try {
    // V8 gives the pages of a shrunken heap back when the process is idle (its memory reducer), not at
    // once: both ends are read after the same quiet wait.
    const settled = async () => {
      await new Promise((r) => setTimeout(r, Number(opt('settle-ms', '10000'))));
      return memory();
    };
    await write('warm', 500);
    await evicted();
    const start = await settled();
    const t0 = performance.now();
    await write('idle', threads);
    const writeSeconds = (performance.now() - t0) / 1_000;
    const written = await memory();
    const justEvicted = await evicted();
    const end = await settled();
    const MB = (b) => +(b / 1_048_576).toFixed(1);
    const view = (m) => ({ rssMB: MB(m.rss), heapUsedMB: MB(m.heapUsed), heapTotalMB: MB(m.heapTotal), externalMB: MB(m.external), liveThreads: m.liveThreads });
    return { threads, writeSeconds: +writeSeconds.toFixed(1), start: view(start), written: view(written), justEvicted: view(justEvicted), evicted: view(end), rssOverStartMB: MB(end.rss - start.rss), rssPerLiveThreadKB: +((written.rss - start.rss) / written.liveThreads / 1_024).toFixed(2) };
  } finally {
    agent.destroy();
    await stop(server);
  }
}

async function main() {
  const counts = opt('subscribers', QUICK ? '250,1000' : '250,1000,2000').split(',').map(Number).filter((n) => n > 0);
  const rate = Number(opt('rate', '200'));
  const seconds = Number(opt('seconds', QUICK ? '2' : '4'));
  const rounds = Number(opt('rounds', QUICK ? '1' : '2'));
  const warmupMs = Number(opt('warmup-ms', '500'));
  const threads = Number(opt('threads', QUICK ? '2000' : '10000'));
  const runs = [];
  for (let round = 0; round < rounds; round++) {
    for (const subscribers of counts) {
      // Interleaved: the floor and the kit take turns, the first alternating by round.
      const order = round % 2 === 0 ? ['floor', 'kit'] : ['kit', 'floor'];
      for (const kind of order) {
        const run = await fanoutOnce(kind, subscribers, rate, seconds, warmupMs);
        log(`round ${round + 1}, ${kind}, ${subscribers} subscribers: p50 ${run.p50Ms} ms, p99 ${run.p99Ms} ms, max ${run.maxMs} ms, ${run.cpuMicrosPerDelivery} µs CPU/delivery (${run.writesPerDelivery} writes/delivery, ${run.cpuMicrosPerWrite} µs/write; server CPU ${run.serverCpuMs} ms, clients' CPU ${run.clientCpuMs} ms, ${run.clientReadsPerDelivery} reads/delivery; load ${run.load1m})${run.complete && run.inOrder ? '' : '  (INCOMPLETE or out of order)'}`);
        runs.push(run);
      }
    }
  }
  const median = (xs) => {
    const v = [...xs].sort((a, b) => a - b);
    return v.length % 2 ? v[v.length >> 1] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
  };
  const fanout = counts.map((subscribers) => {
    const of = (kind) => runs.filter((r) => r.kind === kind && r.subscribers === subscribers);
    const summary = (rs) => ({ p50Ms: median(rs.map((r) => r.p50Ms)), p99Ms: median(rs.map((r) => r.p99Ms)), maxMs: Math.max(...rs.map((r) => r.maxMs)), cpuMicrosPerDelivery: median(rs.map((r) => r.cpuMicrosPerDelivery)), writesPerDelivery: median(rs.map((r) => r.writesPerDelivery)), cpuMicrosPerWrite: median(rs.map((r) => r.cpuMicrosPerWrite)), complete: rs.every((r) => r.complete && r.inOrder) });
    const floor = summary(of('floor'));
    const kit = summary(of('kit'));
    return { subscribers, rate, floor, kit, cpuRatio: +(kit.cpuMicrosPerDelivery / floor.cpuMicrosPerDelivery).toFixed(2) };
  });
  for (const f of fanout) {
    log(`${f.subscribers} subscribers at ${rate}/s: kit p99 ${f.kit.p99Ms} ms, ${f.kit.cpuMicrosPerDelivery} µs/delivery; floor p99 ${f.floor.p99Ms} ms, ${f.floor.cpuMicrosPerDelivery} µs/delivery; CPU ${f.cpuRatio}× the floor (per write: kit ${f.kit.cpuMicrosPerWrite} µs, floor ${f.floor.cpuMicrosPerWrite} µs)`);
  }
  let memory = null;
  if (threads > 0) {
    log(`memory: ${threads} threads written (a view change and an invocation each), then evicted …`);
    memory = await memoryRun(threads);
    log(`memory: RSS ${memory.start.rssMB} MB at the start → ${memory.written.rssMB} MB with ${memory.written.liveThreads} threads in memory (${memory.rssPerLiveThreadKB} KB each) → ${memory.evicted.rssMB} MB after eviction (${memory.rssOverStartMB >= 0 ? '+' : ''}${memory.rssOverStartMB} MB; heap ${memory.start.heapUsedMB} → ${memory.evicted.heapUsedMB} MB)`);
  }
  console.log(JSON.stringify({ node: process.version, server: serverPath, fanout, runs, memory }));
}
