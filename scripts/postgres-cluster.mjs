// A throwaway PostgreSQL cluster for one test or bench run: made in a fresh folder, reachable only
// by the Unix socket in that folder, stopped and removed at the end. Plain Node (no vitest, no
// TypeScript): vitest's global set-up and the benches (bench/instances-bench.mjs) both use it.
import { execFile } from 'node:child_process';
import { appendFileSync, chownSync, existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { findPostgres, postgresUser } from './setup.mjs';

const run = promisify(execFile);

/** The superuser of the test cluster (trust authentication over the private socket: no password). */
const SUPERUSER = 'chatsurface';

/** Where the clusters' folders go: /tmp, since a socket path must stay short and the cluster's user must reach it. */
export const CLUSTER_PARENT = '/tmp';
export const CLUSTER_PREFIX = 'chatsurface-pg-';

/** Why there is no PostgreSQL to test on, as opposed to one that failed to start. */
export class PostgresMissing extends Error {}

/**
 * Makes and starts a cluster in `dir` (an empty folder) and returns the
 * admin URL of its `postgres` database. As root, initdb and pg_ctl run as
 * the `postgres` (or `chatsurface-pg`) system user, who is given the folder.
 */
/** @param {string} dir @returns {Promise<string>} */
export async function startCluster(dir) {
  const bin = findPostgres();
  if (!bin) {
    throw new PostgresMissing(
      process.env.CHATSURFACE_PG_BIN
        ? `CHATSURFACE_PG_BIN is ${process.env.CHATSURFACE_PG_BIN}, but initdb, pg_ctl and postgres are not all there.`
        : 'PostgreSQL is not installed (no initdb/pg_ctl in PATH, /usr/lib/postgresql/*/bin or /usr/local/bin). `npm test` installs Debian\'s postgresql; or apt-get install postgresql, set CHATSURFACE_PG_BIN, or point CHATSURFACE_TEST_PG_URL at a server.',
    );
  }
  const user = postgresUser();
  if (user) chownSync(dir, user.uid, user.gid);
  const data = join(dir, 'data');
  const log = join(dir, 'server.log');
  const options = { cwd: dir, env: { ...process.env, LC_ALL: 'C', LANG: 'C' }, ...(user ? { uid: user.uid, gid: user.gid } : {}) };
  const step = async (/** @type {string} */ what, /** @type {string} */ command, /** @type {string[]} */ args) => {
    try {
      await run(join(bin, command), args, options);
    } catch (error) {
      const e = /** @type {{ stderr?: string; message: string }} */ (error);
      const tail = existsSync(log) ? `\n--- server.log ---\n${readFileSync(log, 'utf8').split('\n').slice(-20).join('\n')}` : '';
      throw new Error(`Could not ${what} a test PostgreSQL in ${dir}${user ? ` as ${user.name}` : ''}: ${e.stderr?.trim() || e.message}${tail}`);
    }
  };
  await step('initialise', 'initdb', ['-D', data, '-U', SUPERUSER, '--auth=trust', '--no-sync', '-E', 'UTF8', '--locale=C']);
  // Written as root into the user's file, which keeps its owner.
  appendFileSync(
    join(data, 'postgresql.conf'),
    [
      '',
      '# chatsurface test cluster: private socket only, speed over durability',
      "listen_addresses = ''",
      `unix_socket_directories = '${dir}'`,
      'port = 5432',
      'fsync = off',
      'synchronous_commit = off',
      'full_page_writes = off',
      'max_connections = 300',
      '',
    ].join('\n'),
  );
  await step('start', 'pg_ctl', ['-D', data, '-l', log, '-w', '-t', '60', 'start']);
  return `postgresql://${SUPERUSER}@localhost/postgres?host=${encodeURIComponent(dir)}`;
}

/** The postmaster's pid, from its lock file, or null when no server runs in `dir`. */
/** @param {string} dir @returns {number | null} */
function postmasterPid(dir) {
  try {
    const pid = Number(readFileSync(join(dir, 'data', 'postmaster.pid'), 'utf8').split('\n')[0]);
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

/** True while the process runs (a zombie counts as gone). */
/** @param {number} pid */
function alive(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  }
}

/**
 * Stops the cluster in `dir` with an immediate shutdown (SIGQUIT to the
 * postmaster: what `pg_ctl stop -m immediate` sends, and root may send it to
 * the cluster's user), waits up to `waitMs` for it to go, and removes the folder.
 */
/** @param {string} dir */
export async function stopCluster(dir, waitMs = 10_000) {
  const pid = postmasterPid(dir);
  if (pid !== null && signal(pid)) {
    const until = Date.now() + waitMs;
    while (alive(pid) && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 25));
  }
  rmSync(dir, { recursive: true, force: true });
}

/**
 * Takes the cluster in `dir` down as an outage would (a fast shutdown: every connection is ended
 * under its client) and keeps its data, so `resumeCluster` brings it back: for tests of a database
 * that goes away. (Not an immediate shutdown: the test cluster runs with fsync off, so a crash
 * would lose what it had not written.)
 */
/** @param {string} dir */
export async function haltCluster(dir) {
  const bin = findPostgres();
  if (!bin) throw new PostgresMissing('PostgreSQL is not installed.');
  await run(join(bin, 'pg_ctl'), ['-D', join(dir, 'data'), '-m', 'fast', '-w', '-t', '60', 'stop'], clusterUser(dir));
}

/** Starts the halted cluster in `dir` again (after crash recovery, as PostgreSQL does on its own). */
/** @param {string} dir */
export async function resumeCluster(dir) {
  const bin = findPostgres();
  if (!bin) throw new PostgresMissing('PostgreSQL is not installed.');
  await run(join(bin, 'pg_ctl'), ['-D', join(dir, 'data'), '-l', join(dir, 'server.log'), '-w', '-t', '60', 'start'], clusterUser(dir));
}

/** How pg_ctl runs on the cluster in `dir`: as its owner when this process is root. */
/** @param {string} dir */
function clusterUser(dir) {
  const user = postgresUser();
  return { cwd: dir, env: { ...process.env, LC_ALL: 'C', LANG: 'C' }, ...(user ? { uid: user.uid, gid: user.gid } : {}) };
}

/** The same, without waiting: for a process that is exiting. */
/** @param {string} dir */
export function stopClusterNow(dir) {
  const pid = postmasterPid(dir);
  if (pid !== null) signal(pid);
  rmSync(dir, { recursive: true, force: true });
}

/** @param {number} pid */
function signal(pid) {
  try {
    process.kill(pid, 'SIGQUIT');
    return true;
  } catch {
    return false;
  }
}

/** Stops and removes the clusters of earlier runs whose vitest process is gone (killed before its teardown). */
export function sweepStaleClusters() {
  /** @type {string[]} */
  let names;
  try {
    names = readdirSync(CLUSTER_PARENT).filter((name) => name.startsWith(CLUSTER_PREFIX));
  } catch {
    return;
  }
  for (const name of names) {
    const dir = join(CLUSTER_PARENT, name);
    let owner;
    try {
      owner = Number(readFileSync(join(dir, 'owner'), 'utf8'));
    } catch {
      continue;
    }
    if (Number.isInteger(owner) && owner > 0 && !alive(owner)) stopClusterNow(dir);
  }
}
