#!/usr/bin/env node
// The workspace server under load, against the built library (dist/server.js, dist/runtime.js):
//   1. SSE delivery latency: `--clients` concurrent event-stream clients on one thread; a capability
//      emits `--events` outputs stamped with a high-resolution wall-clock time; each client measures
//      emit → received (p50, p99, max) across processes (performance.timeOrigin + now() on one clock).
//   2. REST requests per second for a read capability: keep-alive clients at `--concurrency` for
//      `--seconds` against POST /v1/capabilities/bench.echo (bearer key, meter, job in SQLite).
//   3. Memory: the server's RSS and heap (after a full GC) before and after 5,000 GETs of the event
//      stream of thread ids never written (they must create nothing), and before, during and after
//      the eviction of 1,000 threads that were written (a view change and an invocation each) and left idle.
// The server runs in a child process (its own core on a 2-core machine) on 127.0.0.1 with a SQLite
// file in a temporary folder; it is stopped on exit. Prints one JSON object on stdout. (`--serve` alone
// runs just that server, on `--database` when given: bench/instances-bench.mjs starts its instances so.)
//   node bench/server-bench.mjs [--server dist/server.js] [--runtime dist/runtime.js] [--clients 50]
//        [--events 200] [--interval-ms 5] [--concurrency 32] [--seconds 5] [--quick]
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { instanceAt, measureSse, request as send } from './lib/serverClient.mjs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';

const argv = process.argv.slice(2);
const opt = (name, def) => {
  const i = argv.indexOf('--' + name);
  return i >= 0 && i + 1 < argv.length ? argv[i + 1] : def;
};
const QUICK = argv.includes('--quick');
const serverPath = resolve(opt('server', 'dist/server.js'));
const runtimePath = resolve(opt('runtime', 'dist/runtime.js'));
const KEY = 'bench-key-0123456789abcdef';
const log = (...a) => console.error('[server-bench]', ...a);

if (argv.includes('--serve')) {
  // ------------------------------------------------------------ child: the server
  const { createWorkspaceServer } = await import(pathToFileURL(serverPath).href);
  const { defineCapability, textResult } = await import(pathToFileURL(runtimePath).href);
  const { z } = await import('zod');
  const tick = defineCapability({
    name: 'bench.tick',
    title: 'Tick',
    description: 'Emits `count` outputs `intervalMs` apart, each stamped with the time it was emitted.',
    input: z.object({ count: z.number().int().min(1).max(100_000), intervalMs: z.number().min(0).max(1_000) }),
    handler: async ({ count, intervalMs }, ctx) => {
      for (let i = 0; i < count; i++) {
        // 0 ms: back to back, yielding to I/O between outputs (a timer would cap it near 1,000 a second).
        await new Promise((r) => (intervalMs > 0 ? setTimeout(r, intervalMs) : setImmediate(r)));
        ctx.output(String(performance.timeOrigin + performance.now()), 'log');
      }
      return textResult(`${count} ticks`, { count });
    },
  });
  const echo = defineCapability({
    name: 'bench.echo',
    title: 'Echo',
    description: 'Returns its input.',
    input: z.object({ id: z.number().int() }),
    handler: ({ id }) => textResult(`#${id}`, { id }),
  });
  const dir = mkdtempSync(join(tmpdir(), 'chatsurface-server-bench-'));
  // --database postgres://… --schema s: one of several instances on one PostgreSQL (bench/instances-bench.mjs).
  const server = await createWorkspaceServer({
    capabilities: [tick, echo],
    database: opt('database', join(dir, 'bench.db')),
    ...(opt('schema') ? { databaseSchema: opt('schema') } : {}),
    apiKeys: [{ id: 'bench', key: KEY, requestsPerMinute: 1e12 }],
    // Idle threads leave memory after 1 s here (60 s by default), so the bench need not wait long.
    workspace: { idleMs: 1_000, maxThreadsPerUser: 100_000, maxLiveThreads: 100_000 },
  });
  // The bench's own probe (not a kit route): memory after a full GC, and how many threads are in memory.
  server.app.get('/bench/memory', (c) => {
    globalThis.gc?.();
    globalThis.gc?.();
    const m = process.memoryUsage();
    return c.json({ rss: m.rss, heapUsed: m.heapUsed, liveThreads: server.host.liveThreads });
  });
  const { url } = await server.listen({ port: 0 });
  const stop = async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
    process.exit(0);
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  console.log(`LISTENING ${url}`);
} else {
  await main();
}

async function main() {
  const CLIENTS = Number(opt('clients', '50'));
  const EVENTS = Number(opt('events', QUICK ? '100' : '200'));
  const INTERVAL = Number(opt('interval-ms', '5'));
  const CONCURRENCY = Number(opt('concurrency', '32'));
  const SECONDS = Number(opt('seconds', QUICK ? '2' : '5'));

  const child = spawn(process.execPath, ['--expose-gc', fileURLToPath(import.meta.url), '--serve', '--server', serverPath, '--runtime', runtimePath], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const stopChild = () => {
    if (child.exitCode === null) child.kill('SIGTERM');
  };
  process.on('exit', stopChild);
  for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => (stopChild(), process.exit(130)));
  const url = await new Promise((resolveUrl, reject) => {
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      const m = /LISTENING (\S+)/.exec(out);
      if (m) resolveUrl(m[1]);
    });
    child.once('exit', (code) => reject(new Error(`server exited with ${code} before listening`)));
  });
  const inst = instanceAt(url, { maxSockets: Math.max(CONCURRENCY, 8), headers: { authorization: `Bearer ${KEY}` } });
  const request = (method, path, body) => send(inst, method, path, body);

  // ------------------------------------------------------------ 1. SSE fan-out latency
  log(`SSE: ${CLIENTS} clients, ${EVENTS} events ${INTERVAL} ms apart`);
  const sse = await measureSse([inst], 'bench', { clients: CLIENTS, events: EVENTS, intervalMs: INTERVAL });
  log(`SSE delivery: p50 ${sse.p50Ms} ms, p99 ${sse.p99Ms} ms, max ${sse.maxMs} ms (${sse.samples} samples)`);

  // ------------------------------------------------------------ 2. REST requests per second
  log(`REST: ${CONCURRENCY} keep-alive clients for ${SECONDS} s (after a 1 s warm-up)`);
  const load = async (ms) => {
    const end = performance.now() + ms;
    let ok = 0;
    let failed = 0;
    const times = [];
    let id = 0;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (performance.now() < end) {
          const t0 = performance.now();
          const res = await request('POST', '/v1/capabilities/bench.echo', { id: id++ });
          times.push(performance.now() - t0);
          if (res.status === 200) ok++;
          else failed++;
        }
      }),
    );
    return { ok, failed, times };
  };
  await load(1_000);
  const t0 = performance.now();
  const run = await load(SECONDS * 1_000);
  const elapsed = (performance.now() - t0) / 1_000;
  const times = run.times.sort((a, b) => a - b);
  const rest = {
    concurrency: CONCURRENCY,
    seconds: +elapsed.toFixed(2),
    requests: run.ok + run.failed,
    failed: run.failed,
    requestsPerSecond: Math.round(run.ok / elapsed),
    p50Ms: +times[Math.floor(times.length * 0.5)].toFixed(2),
    p99Ms: +times[Math.floor(times.length * 0.99)].toFixed(2),
  };
  log(`REST read: ${rest.requestsPerSecond} req/s, p50 ${rest.p50Ms} ms, p99 ${rest.p99Ms} ms (${rest.failed} failed)`);

  // ------------------------------------------------------------ 3. memory: unknown threads, idle threads
  const memory = async () => JSON.parse((await request('GET', '/bench/memory')).body);
  const MB = (bytes) => +(bytes / 1_048_576).toFixed(1);
  const inBatches = async (n, size, work) => {
    for (let i = 0; i < n; i += size) await Promise.all(Array.from({ length: Math.min(size, n - i) }, (_, k) => work(i + k)));
  };
  const GETS = QUICK ? 2_000 : 5_000;
  const IDLE = QUICK ? 400 : 1_000;
  log(`memory: ${GETS} GETs of never-written threads' event streams, then ${IDLE} written-then-idle threads`);
  const base = await memory();
  const statuses = new Map();
  await inBatches(GETS, 32, async (i) => {
    const res = await request('GET', `/v1/threads/never-${i}/events`);
    statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
  });
  const afterGets = await memory();
  await inBatches(IDLE, 16, async (i) => {
    await request('POST', `/v1/threads/idle-${i}/view`, { view: { kind: 'records', id: String(i) } });
    await request('POST', '/v1/invocations', { threadId: `idle-${i}`, capability: 'bench.echo', args: { id: i } });
  });
  const written = await memory();
  // Idle for 1 s, swept every second: give it three.
  await new Promise((r) => setTimeout(r, 3_000));
  const evicted = await memory();
  const mem = {
    gets: GETS,
    getStatuses: Object.fromEntries(statuses),
    idleThreads: IDLE,
    baseline: { rssMB: MB(base.rss), heapMB: MB(base.heapUsed), liveThreads: base.liveThreads },
    afterGets: { rssMB: MB(afterGets.rss), heapMB: MB(afterGets.heapUsed), liveThreads: afterGets.liveThreads },
    written: { rssMB: MB(written.rss), heapMB: MB(written.heapUsed), liveThreads: written.liveThreads },
    evicted: { rssMB: MB(evicted.rss), heapMB: MB(evicted.heapUsed), liveThreads: evicted.liveThreads },
    getsGrowthRssMB: MB(afterGets.rss - base.rss),
    getsGrowthHeapMB: MB(afterGets.heapUsed - base.heapUsed),
    evictedGrowthHeapMB: MB(evicted.heapUsed - afterGets.heapUsed),
    evictedGrowthRssMB: MB(evicted.rss - afterGets.rss),
  };
  log(`memory: after ${GETS} GETs RSS +${mem.getsGrowthRssMB} MB, heap +${mem.getsGrowthHeapMB} MB; ${IDLE} threads written: ${mem.written.liveThreads} in memory, heap ${mem.written.heapMB} MB; after eviction ${mem.evicted.liveThreads} in memory, heap ${mem.evicted.heapMB} MB`);
  inst.agent.destroy();
  stopChild();
  console.log(JSON.stringify({ node: process.version, server: serverPath, sse, rest, memory: mem }));
}
