#!/usr/bin/env node
// The server's request path and its database beside their floors, measured side by side in one run
// (issue 45), against the built library (dist/server.js, dist/runtime.js):
//   1. REST read (POST /v1/capabilities/bench.echo) and MCP tools/call (2026-07-28, stateless) of the
//      workspace server, each beside a bare Hono route on the same @hono/node-server, in the same child
//      process, calling the same handler (`bench.echo`'s). `--concurrency` keep-alive clients, `--rounds`
//      interleaved rounds of `--seconds` each (the order rotating); req/s, p50/p99 and CPU per request
//      from the child's own process.cpuUsage() around each measured window (medians over rounds).
//      Each also on a server that keeps no record of a read answered inline (jobs.keepInlineReads: false).
//   2. Jobs: `--reads` REST reads, then the rows of the jobs table per principal and door beside its
//      retention bound (perPrincipal + sweepEveryJobs: 1,000 + 1,000 by default).
//   3. Appends: the event store's append (one event per call, `--threads` threads at once, each in
//      order) beside a bare INSERT of the same rows, and on PostgreSQL a bare INSERT + NOTIFY in one
//      statement, on SQLite and PostgreSQL; events per second, interleaved rounds.
//   4. A REST read on PostgreSQL: the server's CPU per request beside the database's (every process of
//      the cluster, from /proc/<pid>/schedstat, and the exited ones' from the postmaster's children's
//      time), same load as 1, `--pg-rounds` rounds (5): the ratio over every round, each round's (median
//      and spread), the database's CPU by kind of process, and its CPU per second while the bare route
//      ran (what it spends with no request of the kit).
// PostgreSQL: DATABASE_URL is not used: a throwaway cluster from Debian's postgresql
// (scripts/postgres-cluster.mjs), so its processes' CPU can be read; skipped when PostgreSQL is missing.
// Prints one JSON object on stdout.
//   node bench/path-bench.mjs [--concurrency 32] [--seconds 3] [--rounds 3] [--reads 100000]
//        [--appends 2000] [--threads 16] [--pg-rounds 5] [--quick] [--no-postgres] [--appends-only]
//        [--postgres-rest-only] (section 4 alone) [--request-path-only] (section 1 alone)
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { instanceAt, request as send } from './lib/serverClient.mjs';
import { CLUSTER_PARENT, CLUSTER_PREFIX, PostgresMissing, startCluster, stopCluster, stopClusterNow } from '../scripts/postgres-cluster.mjs';

const argv = process.argv.slice(2);
const opt = (name, def) => {
  const i = argv.indexOf('--' + name);
  return i >= 0 && i + 1 < argv.length ? argv[i + 1] : def;
};
const QUICK = argv.includes('--quick');
const serverPath = resolve(opt('server', 'dist/server.js'));
const runtimePath = resolve(opt('runtime', 'dist/runtime.js'));
const KEY = 'bench-key-0123456789abcdef';
const log = (...a) => console.error('[path-bench]', ...a);
const MODERN_META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'path-bench', version: '1.0.0' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

// ------------------------------------------------------------------ child: the kit's server and the floor
async function serve() {
  const { createWorkspaceServer } = await import(pathToFileURL(serverPath).href);
  const { defineCapability, textResult } = await import(pathToFileURL(runtimePath).href);
  const { z } = await import('zod');
  const { Hono } = await import('hono');
  const { serve: listen } = await import('@hono/node-server');
  const echo = defineCapability({
    name: 'bench.echo',
    title: 'Echo',
    description: 'Returns its input.',
    input: z.object({ id: z.number().int() }),
    handler: ({ id }) => textResult(`#${id}`, { id }),
  });
  const server = await createWorkspaceServer({
    capabilities: [echo],
    database: opt('database'),
    ...(opt('schema') ? { databaseSchema: opt('schema') } : {}),
    apiKeys: [{ id: 'bench', key: KEY, requestsPerMinute: 1e12 }],
  });
  const { url } = await server.listen({ port: 0 });
  // The same server keeping no record of a read answered inline (jobs.keepInlineReads: false), SQLite only.
  const lean = /^postgres/.test(opt('database'))
    ? null
    : await createWorkspaceServer({
        capabilities: [echo],
        database: `${opt('database')}-lean.db`,
        apiKeys: [{ id: 'bench', key: KEY, requestsPerMinute: 1e12 }],
        jobs: { keepInlineReads: false },
      });
  const leanUrl = lean ? (await lean.listen({ port: 0 })).url : url;

  // The floor: the same handler behind a bare route, on the same node server, in the same process.
  const ctx = { invocationId: 'bare', threadKey: 'bare', signal: new AbortController().signal, progress() {}, output() {} };
  const handler = echo.source.handler;
  const bare = new Hono();
  bare.post('/rest', async (c) => c.json(await handler(await c.req.json(), ctx)));
  bare.post('/mcp', async (c) => {
    const message = await c.req.json();
    return c.json({ jsonrpc: '2.0', id: message.id, result: await handler(message.params.arguments, ctx) });
  });
  const bareUrl = await new Promise((done) => {
    const http = listen({ fetch: bare.fetch, port: 0, hostname: '127.0.0.1' }, (info) => done(`http://127.0.0.1:${info.port}`));
    process.once('disconnect', () => http.close());
  });
  process.on('message', (message) => {
    if (message === 'cpu') process.send({ cpu: process.cpuUsage(), pid: process.pid });
  });
  const stop = async () => {
    await Promise.all([server.close(), lean?.close()]);
    process.exit(0);
  };
  process.on('SIGTERM', stop);
  process.on('disconnect', stop);
  console.log(`LISTENING ${url} ${bareUrl} ${leanUrl}`);
}

// ------------------------------------------------------------------ parent
/** The server child: its two URLs and its CPU, asked over IPC. */
async function startChild(database, schema) {
  const child = spawn(process.execPath, [fileURLToPath(import.meta.url), '--serve', '--server', serverPath, '--runtime', runtimePath, '--database', database, ...(schema ? ['--schema', schema] : [])], {
    stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
  });
  process.on('exit', () => child.exitCode === null && child.kill('SIGKILL'));
  const [kitUrl, bareUrl, leanUrl] = await new Promise((done, fail) => {
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      const m = /LISTENING (\S+) (\S+) (\S+)/.exec(out);
      if (m) done([m[1], m[2], m[3]]);
    });
    child.once('exit', (code) => fail(new Error(`the server exited with ${code} before listening`)));
  });
  const cpu = () =>
    new Promise((done) => {
      child.once('message', (m) => done(m.cpu.user + m.cpu.system));
      child.send('cpu');
    });
  const headers = { authorization: `Bearer ${KEY}` };
  const sockets = { maxSockets: Math.max(CONCURRENCY, 8), headers };
  return {
    child,
    cpu,
    kit: instanceAt(kitUrl, sockets),
    bare: instanceAt(bareUrl, sockets),
    lean: instanceAt(leanUrl, sockets),
    async stop() {
      if (child.exitCode !== null) return;
      await new Promise((done) => {
        child.once('exit', done);
        child.kill('SIGTERM');
      });
    },
  };
}

const CONCURRENCY = Number(opt('concurrency', '32'));
const SECONDS = Number(opt('seconds', QUICK ? '1' : '3'));
const ROUNDS = Number(opt('rounds', QUICK ? '2' : '3'));
const READS = Number(opt('reads', QUICK ? '10000' : '100000'));
const APPENDS = Number(opt('appends', QUICK ? '500' : '2000'));
const THREADS = Number(opt('threads', '16'));
const PG_ROUNDS = Number(opt('pg-rounds', QUICK ? '2' : '5'));

/** Section 1's figures against the bare route. */
const ratio = (a, b) => +(a / b).toFixed(2);
function pathVerdict(p) {
  return {
    restCpuVsBare: ratio(p.rest.cpuUsPerRequest, p.bareRest.cpuUsPerRequest),
    restNoRecordCpuVsBare: ratio(p.restNoRecord.cpuUsPerRequest, p.bareRest.cpuUsPerRequest),
    mcpCpuVsBare: ratio(p.mcp.cpuUsPerRequest, p.bareMcp.cpuUsPerRequest),
    mcpNoRecordCpuVsBare: ratio(p.mcpNoRecord.cpuUsPerRequest, p.bareMcp.cpuUsPerRequest),
    restP99Ms: p.rest.p99Ms,
    mcpP99Ms: p.mcp.p99Ms,
  };
}

/** The routes measured: what each sends and what counts as answered. */
const ROUTES = {
  rest: { side: 'kit', path: '/v1/capabilities/bench.echo', body: (id) => ({ id }), headers: {} },
  bareRest: { side: 'bare', path: '/rest', body: (id) => ({ id }), headers: {} },
  restNoRecord: { side: 'lean', path: '/v1/capabilities/bench.echo', body: (id) => ({ id }), headers: {} },
  mcp: {
    side: 'kit',
    path: '/mcp',
    body: (id) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'bench.echo', arguments: { id }, _meta: MODERN_META } }),
    headers: { accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'bench.echo' },
  },
  mcpNoRecord: {
    side: 'lean',
    path: '/mcp',
    body: (id) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'bench.echo', arguments: { id }, _meta: MODERN_META } }),
    headers: { accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'bench.echo' },
  },
  bareMcp: {
    side: 'bare',
    path: '/mcp',
    body: (id) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'bench.echo', arguments: { id } } }),
    headers: { accept: 'application/json, text/event-stream' },
  },
};

const ROUTE_NAMES = ['rest', 'bareRest', 'mcp', 'bareMcp', 'restNoRecord', 'mcpNoRecord'];

/**
 * One POST; sent again when the server had closed the kept-alive socket just as it was reused (a
 * socket idle past the server's keep-alive timeout while the other routes ran): not an answer.
 */
async function sendAgain(inst, path, body) {
  try {
    return await send(inst, 'POST', path, body);
  } catch (error) {
    if (error.code !== 'ECONNRESET') throw error;
    return send(inst, 'POST', path, body);
  }
}

/** `CONCURRENCY` clients for `ms` on one route: answers, failures and every latency. */
async function load(server, route, ms) {
  const { side, path, body, headers } = ROUTES[route];
  const inst = { ...server[side], headers: { ...server[side].headers, ...headers } };
  const end = performance.now() + ms;
  const times = [];
  let ok = 0;
  let failed = 0;
  let id = 0;
  let firstFailure = null;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (performance.now() < end) {
        const t0 = performance.now();
        const res = await sendAgain(inst, path, body(++id));
        times.push(performance.now() - t0);
        if (res.status === 200 && !res.body.includes('"error"')) ok++;
        else {
          failed++;
          firstFailure ??= `${res.status} ${res.body.slice(0, 200)}`;
        }
      }
    }),
  );
  if (firstFailure) log(`${route}: ${failed} failed, the first: ${firstFailure}`);
  return { ok, failed, times };
}

/** One measured window: req/s, p50/p99 and the server process's CPU per request (µs). */
async function measure(server, route, extraCpu) {
  await load(server, route, 300);
  const c0 = await server.cpu();
  const x0 = extraCpu?.();
  const t0 = performance.now();
  const run = await load(server, route, SECONDS * 1_000);
  const seconds = (performance.now() - t0) / 1_000;
  const cpu = (await server.cpu()) - c0;
  const x1 = extraCpu?.();
  const times = run.times.sort((a, b) => a - b);
  const requests = run.ok + run.failed;
  // The database's CPU by kind of process (backends, autovacuum, walwriter, …): µs in this window.
  // Over the kinds of both samples: a process that exited meanwhile leaves its kind (its time moved to `exited`).
  const kinds = x1 ? Object.fromEntries([...new Set([...Object.keys(x0), ...Object.keys(x1)])].map((k) => [k, (x1[k] ?? 0) - (x0[k] ?? 0)])) : undefined;
  const extra = kinds ? Object.values(kinds).reduce((a, b) => a + b, 0) : undefined;
  return {
    requestsPerSecond: Math.round(run.ok / seconds),
    p50Ms: +times[Math.floor(times.length * 0.5)].toFixed(2),
    p99Ms: +times[Math.floor(times.length * 0.99)].toFixed(2),
    cpuUsPerRequest: +(cpu / requests).toFixed(1),
    ...(extra !== undefined ? { dbCpuUsPerRequest: +(extra / requests).toFixed(1), dbCpuVsInstance: +(extra / cpu).toFixed(3) } : {}),
    failed: run.failed,
    sums: { requests, seconds, cpuUs: cpu, ...(extra !== undefined ? { dbCpuUs: extra, dbKinds: kinds } : {}) },
  };
}

const median = (values) => {
  const s = [...values].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/** Interleaved rounds over `routes` (the order rotating each round); medians per route. */
async function rounds(server, routes, extraCpu, n = ROUNDS) {
  const runs = Object.fromEntries(routes.map((r) => [r, []]));
  // Compiled and warm before anything counts: every route once, as long as a round.
  for (const route of routes) await load(server, route, Math.max(1_000, SECONDS * 1_000));
  for (let round = 0; round < n; round++) {
    const order = routes.map((_, i) => routes[(i + round) % routes.length]);
    for (const route of order) {
      const r = await measure(server, route, extraCpu);
      runs[route].push(r);
      log(`round ${round + 1} ${route}: ${r.requestsPerSecond} req/s, p99 ${r.p99Ms} ms, ${r.cpuUsPerRequest} µs CPU/request${r.dbCpuUsPerRequest !== undefined ? `, database ${r.dbCpuUsPerRequest} µs` : ''}`);
    }
  }
  const out = {};
  for (const [route, list] of Object.entries(runs)) {
    out[route] = { rounds: list.length };
    for (const k of Object.keys(list[0])) if (k !== 'sums') out[route][k] = +median(list.map((r) => r[k])).toFixed(2);
    const sum = (k) => list.reduce((a, r) => a + (r.sums[k] ?? 0), 0);
    if (list[0].sums.dbCpuUs !== undefined) {
      // Over every round: the database's CPU and the instance's per request, and the one beside the other;
      // then each round's ratio (its median and spread), and where the database's CPU went, per request.
      out[route].dbCpuUsPerRequest = +(sum('dbCpuUs') / sum('requests')).toFixed(1);
      out[route].instanceCpuUsPerRequestAllRounds = +(sum('cpuUs') / sum('requests')).toFixed(1);
      out[route].dbCpuVsInstance = +(sum('dbCpuUs') / sum('cpuUs')).toFixed(3);
      const ratios = list.map((r) => r.dbCpuVsInstance);
      out[route].dbCpuVsInstanceRounds = ratios;
      out[route].dbCpuVsInstanceMedian = +median(ratios).toFixed(3);
      out[route].dbCpuVsInstanceSpread = [Math.min(...ratios), Math.max(...ratios)];
      const byKind = {};
      for (const r of list) for (const [k, us] of Object.entries(r.sums.dbKinds)) byKind[k] = (byKind[k] ?? 0) + us;
      out[route].dbCpuUsPerRequestByKind = Object.fromEntries(Object.entries(byKind).map(([k, us]) => [k, +(us / sum('requests')).toFixed(1)]));
      out[route].dbCpuUsPerSecond = Math.round(sum('dbCpuUs') / sum('seconds'));
    }
  }
  return out;
}

/** The jobs table after `READS` REST reads: rows per principal and door beside the bound. */
async function jobsAfterReads(server, dbFile) {
  let done = 0;
  let id = 0;
  const inst = server.kit;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (id < READS) {
        id++;
        const res = await sendAgain(inst, '/v1/capabilities/bench.echo', { id });
        if (res.status === 200) done++;
      }
    }),
  );
  // The sweep after the last 1,000 finished jobs runs off the request path: give it a moment.
  await new Promise((r) => setTimeout(r, 500));
  const Database = createRequire(import.meta.url)('better-sqlite3');
  const db = new Database(dbFile, { readonly: true });
  const perKey = Object.fromEntries(db.prepare('SELECT thread_id AS key, count(*) AS n FROM jobs GROUP BY thread_id').all().map((r) => [r.key, r.n]));
  const total = db.prepare('SELECT count(*) FROM jobs').pluck().get();
  db.close();
  const bound = 1_000 + 1_000;
  return { reads: READS, answered: done, rows: total, rowsPerPrincipal: perKey, boundPerPrincipal: bound, withinBound: Object.values(perKey).every((n) => n <= bound) };
}

/**
 * CPU (µs) of every process of a PostgreSQL cluster, by kind: the client backends, each background
 * process (walwriter, autovacuum worker, …), and the children that have exited since it started
 * (reaped by the postmaster: its children's time, e.g. autovacuum workers). From /proc: a live
 * process's run time in ns (`schedstat`), the reaped ones' in ticks of 10 ms.
 */
function clusterCpu(clusterDir) {
  const postmaster = Number(readFileSync(join(clusterDir, 'data', 'postmaster.pid'), 'utf8').split('\n')[0]);
  const tick = 1e6 / 100; // CLK_TCK is 100 on Linux
  const kinds = { backends: 0, exited: 0 };
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat, command;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      command = readFileSync(`/proc/${entry}/cmdline`, 'utf8').replace(/\0/g, ' ').trim();
    } catch {
      continue; // gone meanwhile
    }
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const pid = Number(entry);
    if (pid !== postmaster && Number(fields[1]) !== postmaster) continue;
    let us;
    try {
      us = Number(readFileSync(`/proc/${entry}/schedstat`, 'utf8').split(' ')[0]) / 1_000;
    } catch {
      us = (Number(fields[11]) + Number(fields[12])) * tick; // a kernel without schedstat: ticks
    }
    if (pid === postmaster) {
      kinds.postmaster = us;
      kinds.exited = (Number(fields[13]) + Number(fields[14])) * tick;
      continue;
    }
    // "postgres: chatsurface postgres [local] idle" is a client's backend; "postgres: walwriter " a background process.
    const kind = /\[local\]|\d+\.\d+\.\d+\.\d+\(/.test(command) ? 'backends' : command.replace(/^postgres:\s*/, '').replace(/\s+/g, ' ').trim() || 'other';
    kinds[kind] = (kinds[kind] ?? 0) + us;
  }
  return kinds;
}

/** Events stored per second by `write(thread, seq)`: `THREADS` threads at once, each in order. */
async function appendRate(write) {
  const per = Math.max(1, Math.floor(APPENDS / THREADS));
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: THREADS }, async (_, t) => {
      for (let seq = 1; seq <= per; seq++) await write(t, seq);
    }),
  );
  return Math.round((per * THREADS) / ((performance.now() - t0) / 1_000));
}

const eventOf = (seq) => ({ type: 'capability.output', seq, ts: Date.now(), invocation_id: 'inv_bench', stream: 'log', text: `line ${seq} of the bench's output` });

/** Appends beside bare INSERTs (and INSERT + NOTIFY on PostgreSQL), interleaved rounds; medians. */
async function appendsBeside(kinds) {
  const runs = Object.fromEntries(Object.keys(kinds).map((k) => [k, []]));
  for (let round = 0; round < ROUNDS; round++) {
    const names = Object.keys(kinds);
    for (let i = 0; i < names.length; i++) {
      const name = names[(i + round) % names.length];
      runs[name].push(await appendRate(kinds[name](round)));
    }
  }
  return Object.fromEntries(Object.entries(runs).map(([k, v]) => [k, median(v)]));
}

async function sqliteAppends(lib) {
  const dir = mkdtempSync(join(tmpdir(), 'chatsurface-path-bench-'));
  try {
    const database = lib.openWorkspaceDatabase(join(dir, 'appends.db'));
    const store = lib.createSqliteEventStore(database);
    const raw = database; // a better-sqlite3 Database
    raw.exec('CREATE TABLE bare_events (thread_key TEXT NOT NULL, seq INTEGER NOT NULL, body TEXT NOT NULL, PRIMARY KEY (thread_key, seq))');
    const insert = raw.prepare('INSERT INTO bare_events (thread_key, seq, body) VALUES (?, ?, ?)');
    return await appendsBeside({
      append: (round) => (t, seq) => store.append({ user: 'bench', space: 'default', id: `s${round}-${t}` }, [eventOf(seq)]),
      bareInsert: (round) => async (t, seq) => void insert.run(`default/bench/b${round}-${t}`, seq, JSON.stringify(eventOf(seq))),
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function postgresAppends(lib, url, schema) {
  const db = await lib.openPostgres(url, { schema });
  try {
    const store = lib.createPostgresEventStore(db);
    await db.query('CREATE TABLE bare_events (thread_key text NOT NULL, seq integer NOT NULL, body text NOT NULL, PRIMARY KEY (thread_key, seq))');
    const insert = 'INSERT INTO bare_events (thread_key, seq, body) VALUES ($1, $2, $3)';
    const notify = 'WITH ins AS (INSERT INTO bare_events (thread_key, seq, body) VALUES ($1, $2, $3) RETURNING seq) SELECT pg_notify($4, $1 || \' \' || seq) FROM ins';
    return await appendsBeside({
      append: (round) => (t, seq) => store.append({ user: 'bench', space: 'default', id: `p${round}-${t}` }, [eventOf(seq)]),
      bareInsert: (round) => (t, seq) => db.query(insert, [`default/bench/i${round}-${t}`, seq, JSON.stringify(eventOf(seq))]),
      bareInsertNotify: (round) => (t, seq) => db.query(notify, [`default/bench/n${round}-${t}`, seq, JSON.stringify(eventOf(seq)), `${db.channel}_bare`]),
    });
  } finally {
    await db.close();
  }
}

/** `--appends-only`: section 3 alone (SQLite, then PostgreSQL on a throwaway cluster), with its verdict. */
async function appendsOnly(lib) {
  const appends = { sqlite: await sqliteAppends(lib) };
  let clusterDir = mkdtempSync(join(CLUSTER_PARENT, CLUSTER_PREFIX));
  writeFileSync(join(clusterDir, 'owner'), String(process.pid));
  process.once('exit', () => clusterDir && stopClusterNow(clusterDir));
  try {
    appends.postgres = await postgresAppends(lib, await startCluster(clusterDir), 'bench_appends');
  } catch (error) {
    if (!(error instanceof PostgresMissing)) throw error;
    appends.postgresSkipped = `no PostgreSQL: ${error.message}`;
  } finally {
    await stopCluster(clusterDir);
    clusterDir = null;
  }
  const verdict = {
    sqliteAppendVsInsert: ratio(appends.sqlite.append, appends.sqlite.bareInsert),
    ...(appends.postgres ? { postgresAppendVsInsertNotify: ratio(appends.postgres.append, appends.postgres.bareInsertNotify), postgresNotifyCost: ratio(appends.postgres.bareInsertNotify, appends.postgres.bareInsert) } : {}),
  };
  log(`appends: ${JSON.stringify(appends)}; verdict: ${JSON.stringify(verdict)}`);
  console.log(JSON.stringify({ node: process.version, server: serverPath, appends: APPENDS, threads: THREADS, rounds: ROUNDS, ...appends, verdict }));
  process.exit(0);
}

/** Section 4: REST reads on PostgreSQL, the instance's CPU beside the database's, interleaved with the bare route. */
async function postgresRest(url, clusterDir) {
  const pg = await startChild(url, 'bench_rest');
  try {
    log(`REST read on PostgreSQL: the server's CPU beside the database's, ${PG_ROUNDS} rounds × ${SECONDS} s`);
    const both = await rounds(pg, ['rest', 'bareRest'], () => clusterCpu(clusterDir), PG_ROUNDS);
    const g = both.rest;
    log(`REST on PostgreSQL: database ${g.dbCpuUsPerRequest} µs/request, instance ${g.instanceCpuUsPerRequestAllRounds} µs: ${g.dbCpuVsInstance}× over every round; per round median ${g.dbCpuVsInstanceMedian}×, ${g.dbCpuVsInstanceSpread.join('–')}×; by kind ${JSON.stringify(g.dbCpuUsPerRequestByKind)}; with the bare route ${both.bareRest.dbCpuUsPerSecond} µs/s`);
    return { ...g, dbCpuUsPerSecondDuringBareRoute: both.bareRest.dbCpuUsPerSecond };
  } finally {
    await pg.stop();
  }
}

/** `--postgres-rest-only`: section 4 alone, on a throwaway cluster. */
async function postgresRestOnly() {
  let clusterDir = mkdtempSync(join(CLUSTER_PARENT, CLUSTER_PREFIX));
  writeFileSync(join(clusterDir, 'owner'), String(process.pid));
  process.once('exit', () => clusterDir && stopClusterNow(clusterDir));
  let postgresRestResult;
  try {
    postgresRestResult = await postgresRest(await startCluster(clusterDir), clusterDir);
  } finally {
    await stopCluster(clusterDir);
    clusterDir = null;
  }
  console.log(JSON.stringify({ node: process.version, server: serverPath, concurrency: CONCURRENCY, seconds: SECONDS, rounds: PG_ROUNDS, postgresRest: postgresRestResult }));
  process.exit(0);
}

async function main() {
  const result = { node: process.version, server: serverPath, concurrency: CONCURRENCY, seconds: SECONDS, rounds: ROUNDS };
  const lib = await import(pathToFileURL(serverPath).href);
  if (argv.includes('--appends-only')) return appendsOnly(lib);
  if (argv.includes('--postgres-rest-only')) return postgresRestOnly();

  // 1 + 2: SQLite
  const dir = mkdtempSync(join(tmpdir(), 'chatsurface-path-bench-'));
  const dbFile = join(dir, 'bench.db');
  const sqlite = await startChild(dbFile);
  try {
    log(`REST and MCP beside a bare route: ${ROUNDS} rounds × ${SECONDS} s, ${CONCURRENCY} connections`);
    result.requestPath = await rounds(sqlite, ROUTE_NAMES);
    if (argv.includes('--request-path-only')) {
      log(`verdict: ${JSON.stringify(pathVerdict(result.requestPath))}`);
      process.exit(0);
    }
    log(`jobs: ${READS} REST reads …`);
    result.jobs = await jobsAfterReads(sqlite, dbFile);
    log(`jobs: ${result.jobs.rows} rows after ${READS} reads (${JSON.stringify(result.jobs.rowsPerPrincipal)}), bound ${result.jobs.boundPerPrincipal} per principal`);
  } finally {
    await sqlite.stop();
  }
  log(`appends on SQLite: ${APPENDS} events over ${THREADS} threads, ${ROUNDS} rounds`);
  result.appends = { sqlite: await sqliteAppends(lib) };
  rmSync(dir, { recursive: true, force: true });

  // 3 + 4: PostgreSQL
  if (!argv.includes('--no-postgres')) {
    let clusterDir = mkdtempSync(join(CLUSTER_PARENT, CLUSTER_PREFIX));
    writeFileSync(join(clusterDir, 'owner'), String(process.pid));
    process.once('exit', () => clusterDir && stopClusterNow(clusterDir));
    try {
      log('starting a throwaway PostgreSQL …');
      const url = await startCluster(clusterDir);
      log(`appends on PostgreSQL: ${APPENDS} events over ${THREADS} threads, ${ROUNDS} rounds`);
      result.appends.postgres = await postgresAppends(lib, url, 'bench_appends');
      result.postgresRest = await postgresRest(url, clusterDir);
    } catch (error) {
      if (error instanceof PostgresMissing) result.postgresSkipped = `no PostgreSQL: ${error.message}`;
      else throw error;
    } finally {
      await stopCluster(clusterDir);
      clusterDir = null;
    }
  }

  result.verdict = {
    ...pathVerdict(result.requestPath),
    sqliteAppendVsInsert: ratio(result.appends.sqlite.append, result.appends.sqlite.bareInsert),
    ...(result.appends.postgres
      ? {
          postgresAppendVsInsertNotify: ratio(result.appends.postgres.append, result.appends.postgres.bareInsertNotify),
          postgresNotifyCost: ratio(result.appends.postgres.bareInsertNotify, result.appends.postgres.bareInsert),
        }
      : {}),
    ...(result.postgresRest ? { postgresDbCpuVsInstance: result.postgresRest.dbCpuVsInstance, postgresDbCpuVsInstanceRounds: result.postgresRest.dbCpuVsInstanceSpread } : {}),
    jobsWithinBound: result.jobs.withinBound,
  };
  log(`verdict: ${JSON.stringify(result.verdict)}`);
  console.log(JSON.stringify(result));
  process.exit(0);
}

if (argv.includes('--serve')) await serve();
else await main();
