#!/usr/bin/env node
// Where a REST read's database time goes on PostgreSQL (issue 45): a throwaway cluster with
// pg_stat_statements, the kit's server (path-bench's child, dist/server.js) on it, `--concurrency`
// keep-alive clients reading `bench.echo` for `--seconds` after a warm-up, then each statement's
// calls, rows and execution (and planning) time per request, most first. A diagnostic beside
// path-bench's section 4 (which measures the database's whole CPU): what is not in this table is
// the statements' binding, protocol and commit.
//   node bench/pg-statements.mjs [--seconds 4] [--concurrency 32] [--top 10]
import { spawn, execFileSync } from 'node:child_process';
import { appendFileSync, mkdtempSync, statSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { CLUSTER_PARENT, CLUSTER_PREFIX, startCluster, stopCluster } from '../scripts/postgres-cluster.mjs';
import { findPostgres } from '../scripts/setup.mjs';
import { instanceAt, request } from './lib/serverClient.mjs';

const argv = process.argv.slice(2);
const opt = (name, def) => {
  const i = argv.indexOf('--' + name);
  return Number(i >= 0 && i + 1 < argv.length ? argv[i + 1] : def);
};
const SECONDS = opt('seconds', 4);
const CONCURRENCY = opt('concurrency', 32);
const TOP = opt('top', 10);

const dir = mkdtempSync(join(CLUSTER_PARENT, CLUSTER_PREFIX));
const url = await startCluster(dir);
let child;
try {
  // pg_stat_statements needs the server started with it: the cluster is restarted as its owner.
  appendFileSync(join(dir, 'data', 'postgresql.conf'), "\nshared_preload_libraries = 'pg_stat_statements'\npg_stat_statements.track = all\npg_stat_statements.track_planning = on\n");
  const owner = statSync(join(dir, 'data'));
  execFileSync(join(findPostgres(), 'pg_ctl'), ['-D', join(dir, 'data'), '-l', join(dir, 'server.log'), '-w', 'restart'], { uid: owner.uid, gid: owner.gid, cwd: dir, stdio: 'ignore' });
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
  child = spawn(process.execPath, [new URL('./path-bench.mjs', import.meta.url).pathname, '--serve', '--server', 'dist/server.js', '--runtime', 'dist/runtime.js', '--database', url, '--schema', 'bench_statements'], { stdio: ['ignore', 'pipe', 'inherit', 'ipc'] });
  const kitUrl = await new Promise((done, fail) => {
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      const m = /LISTENING (\S+)/.exec(out);
      if (m) done(m[1]);
    });
    child.once('exit', (code) => fail(new Error(`the server exited with ${code} before listening`)));
  });
  const inst = instanceAt(kitUrl, { maxSockets: CONCURRENCY, headers: { authorization: 'Bearer bench-key-0123456789abcdef' } });
  const load = async (ms) => {
    const end = performance.now() + ms;
    let n = 0;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (performance.now() < end) {
          const r = await request(inst, 'POST', '/v1/capabilities/bench.echo', { id: ++n });
          if (r.status !== 200) throw new Error(`HTTP ${r.status}: ${r.body}`);
        }
      }),
    );
    return n;
  };
  await load(2_000);
  await admin.query('SELECT pg_stat_statements_reset()');
  const reads = await load(SECONDS * 1_000);
  const { rows } = await admin.query(
    `SELECT calls::int, rows::int, round((total_exec_time * 1000 / $1)::numeric, 2)::float AS exec_us_per_read, round((total_plan_time * 1000 / $1)::numeric, 2)::float AS plan_us_per_read,
       left(regexp_replace(query, '\\s+', ' ', 'g'), 100) AS statement
     FROM pg_stat_statements WHERE query NOT LIKE '%pg_stat_statements%' ORDER BY total_exec_time DESC LIMIT $2`,
    [reads, TOP],
  );
  await admin.end();
  console.log(`${reads} REST reads in ${SECONDS} s (${Math.round(reads / SECONDS)}/s); database time by statement, per read:`);
  console.table(rows);
} finally {
  if (child && child.exitCode === null) {
    child.kill('SIGTERM');
    await new Promise((done) => child.once('exit', done));
  }
  await stopCluster(dir);
}
