#!/usr/bin/env node
// Two workspace server instances on one PostgreSQL, beside one instance on a SQLite file, measured the
// same way (each server a child process: `bench/server-bench.mjs --serve`, against dist/):
//   1. SSE delivery: `--clients` event-stream clients on one thread, split evenly across the instances;
//      a capability on the first instance emits `--events` outputs stamped with a high-resolution
//      wall-clock time; each client measures emit → received (p50, p99, max). On PostgreSQL, a client of
//      the second instance hears through LISTEN/NOTIFY and a read of the log.
//   2. Event-log append throughput: `--appends` capability outputs back to back on one thread (each one
//      an event stored before it is sent), then the same spread over `--threads` threads at once, half
//      of them on each instance: events stored per second, from request to answer.
// PostgreSQL: DATABASE_URL when set (a schema of its own is made and left), else a throwaway cluster
// from Debian's postgresql (scripts/postgres-cluster.mjs), stopped at the end. Prints one JSON object.
//   node bench/instances-bench.mjs [--server dist/server.js] [--runtime dist/runtime.js] [--clients 50]
//        [--events 200] [--interval-ms 5] [--appends 2000] [--threads 16] [--quick]
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { instanceAt, measureSse, must, request } from './lib/serverClient.mjs';
import { CLUSTER_PARENT, CLUSTER_PREFIX, PostgresMissing, startCluster, stopCluster, stopClusterNow } from '../scripts/postgres-cluster.mjs';

const argv = process.argv.slice(2);
const opt = (name, def) => {
  const i = argv.indexOf('--' + name);
  return i >= 0 && i + 1 < argv.length ? argv[i + 1] : def;
};
const QUICK = argv.includes('--quick');
const serverPath = resolve(opt('server', 'dist/server.js'));
const runtimePath = resolve(opt('runtime', 'dist/runtime.js'));
const CLIENTS = Number(opt('clients', '50'));
const EVENTS = Number(opt('events', QUICK ? '100' : '200'));
const INTERVAL = Number(opt('interval-ms', '5'));
const APPENDS = Number(opt('appends', QUICK ? '500' : '2000'));
const THREADS = Number(opt('threads', '16'));
const log = (...a) => console.error('[instances-bench]', ...a);
const SSE = { clients: CLIENTS, events: EVENTS, intervalMs: INTERVAL };
const serverBench = fileURLToPath(new URL('./server-bench.mjs', import.meta.url));

const children = new Set();
process.on('exit', () => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
});

/** One server instance in a child process; resolves with its host and port once it listens. */
function instance(database, schema) {
  const child = spawn(process.execPath, [serverBench, '--serve', '--server', serverPath, '--runtime', runtimePath, '--database', database, ...(schema ? ['--schema', schema] : [])], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.add(child);
  return new Promise((resolveUrl, reject) => {
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      const m = /LISTENING (\S+)/.exec(out);
      if (m) resolveUrl({ child, ...instanceAt(m[1]) });
    });
    child.once('exit', (code) => reject(new Error(`an instance exited with ${code} before listening`)));
  });
}

function stop(inst) {
  return new Promise((done) => {
    if (inst.child.exitCode !== null) return done();
    inst.child.once('exit', () => done());
    inst.child.kill('SIGTERM');
    inst.agent.destroy();
  });
}

/** Events stored per second: one thread back to back, then `THREADS` threads at once across `instances`. */
async function appends(instances, prefix) {
  const burst = async (inst, thread, count) => {
    await must('creating the thread', request(inst, 'POST', `/v1/threads/${thread}/view`, { view: { kind: 'bench' } }));
    const t0 = performance.now();
    await must('bench.tick', request(inst, 'POST', '/v1/invocations', { threadId: thread, capability: 'bench.tick', args: { count, intervalMs: 0 } }));
    return performance.now() - t0;
  };
  await burst(instances[0], `${prefix}-warm`, 100);
  const oneMs = await burst(instances[0], `${prefix}-one`, APPENDS);
  const per = Math.max(1, Math.floor(APPENDS / THREADS));
  const t0 = performance.now();
  await Promise.all(Array.from({ length: THREADS }, (_, i) => burst(instances[i % instances.length], `${prefix}-many-${i}`, per)));
  const manyMs = performance.now() - t0;
  // Each output is one event; the invocation adds a few (queued, started, done) that are not counted.
  return {
    oneThread: { events: APPENDS, ms: +oneMs.toFixed(1), eventsPerSecond: Math.round(APPENDS / (oneMs / 1_000)) },
    manyThreads: { threads: THREADS, events: per * THREADS, ms: +manyMs.toFixed(1), eventsPerSecond: Math.round((per * THREADS) / (manyMs / 1_000)) },
  };
}

let clusterDir = null;
let url = process.env.DATABASE_URL;
const result = { node: process.version, server: serverPath };
try {
  if (!url) {
    clusterDir = mkdtempSync(join(CLUSTER_PARENT, CLUSTER_PREFIX));
    writeFileSync(join(clusterDir, 'owner'), String(process.pid));
    process.once('exit', () => clusterDir && stopClusterNow(clusterDir));
    log('starting a throwaway PostgreSQL …');
    url = await startCluster(clusterDir);
  }
  const schema = `bench_${randomBytes(5).toString('hex')}`;

  log(`SQLite, one instance: SSE ${CLIENTS} clients × ${EVENTS} events, ${APPENDS} appends`);
  const sqliteDir = mkdtempSync(join(tmpdir(), 'chatsurface-instances-bench-'));
  const single = await instance(join(sqliteDir, 'bench.db'));
  result.sqlite = { sse: await measureSse([single], 'sse', SSE), appends: await appends([single], 'ap') };
  await stop(single);
  rmSync(sqliteDir, { recursive: true, force: true });

  log(`PostgreSQL, two instances: SSE ${CLIENTS} clients split across them, ${APPENDS} appends`);
  const a = await instance(url, schema);
  const b = await instance(url, schema);
  result.postgres = { sse: await measureSse([a, b], 'sse', SSE), appends: await appends([a, b], 'ap') };
  // The same database through one instance: what the second instance's NOTIFY path adds to SSE.
  result.postgres.sseOneInstance = await measureSse([a], 'sse-one', SSE);
  await Promise.all([stop(a), stop(b)]);
} catch (error) {
  if (error instanceof PostgresMissing) result.skipped = `no PostgreSQL: ${error.message}`;
  else throw error;
} finally {
  if (clusterDir) {
    await stopCluster(clusterDir);
    clusterDir = null;
  }
}
for (const [name, r] of Object.entries({ sqlite: result.sqlite, postgres: result.postgres })) {
  if (!r) continue;
  log(`${name}: SSE p50 ${r.sse.p50Ms} ms, p99 ${r.sse.p99Ms} ms; appends ${r.appends.oneThread.eventsPerSecond}/s on one thread, ${r.appends.manyThreads.eventsPerSecond}/s on ${THREADS}`);
}
console.log(JSON.stringify(result));
process.exit(0);
