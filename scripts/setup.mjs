// Set-up shared by `npm run demo` and `npm test`: install what is missing, nothing else.
import { spawnSync } from 'node:child_process';
import { existsSync, lstatSync, readdirSync, readFileSync, statSync } from 'node:fs';

export const root = new URL('..', import.meta.url).pathname;

/** Runs a command in the repo root, streaming its output; returns its exit code. */
export function run(command, args, options = {}) {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', ...options });
  if (result.error) {
    console.error(`Could not start ${command}: ${result.error.message}`);
    return 1;
  }
  return result.status ?? 1;
}

/** `npm ci` when node_modules is missing or older than the lock file. */
export function ensureDependencies() {
  const marker = `${root}node_modules/.package-lock.json`;
  const lock = `${root}package-lock.json`;
  if (existsSync(marker) && statSync(marker).mtimeMs >= statSync(lock).mtimeMs) return;
  // A node_modules that is a link to another checkout's (a git worktree sharing one install) is
  // that checkout's to install: `npm ci` here would empty it under the other checkout's feet.
  if (existsSync(`${root}node_modules`) && lstatSync(`${root}node_modules`).isSymbolicLink()) {
    console.log('node_modules is a link to another checkout: not reinstalling it here (run npm ci there if it is out of date).');
    return;
  }
  console.log('Installing dependencies (npm ci)…');
  if (run('npm', ['ci', '--no-audit', '--no-fund']) !== 0) {
    console.error('npm ci failed; see the output above.');
    process.exit(1);
  }
}

/** The Chromium to test with: CHROMIUM_PATH, else Debian's, installed with apt when missing. */
export function ensureChromium() {
  const candidates = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].filter(Boolean);
  const found = candidates.find((path) => existsSync(path));
  if (found) return found;
  if (process.env.CHROMIUM_PATH) {
    console.error(`CHROMIUM_PATH is set to ${process.env.CHROMIUM_PATH}, but nothing is there.`);
    process.exit(1);
  }
  console.log("No Chromium found: installing Debian's chromium with apt-get…");
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const asRoot = (...args) => (process.getuid?.() === 0 ? run(args[0], args.slice(1), { env }) : run('sudo', args, { env }));
  if (asRoot('apt-get', 'update', '-qq') !== 0 || asRoot('apt-get', 'install', '-y', '-qq', 'chromium') !== 0) {
    console.error('Installing chromium failed. Install it yourself (apt-get install chromium) or set CHROMIUM_PATH.');
    process.exit(1);
  }
  if (!existsSync('/usr/bin/chromium')) {
    console.error('apt-get finished but /usr/bin/chromium is missing; set CHROMIUM_PATH.');
    process.exit(1);
  }
  return '/usr/bin/chromium';
}

/** The folder with PostgreSQL's server programs (initdb, pg_ctl, postgres), or null: CHATSURFACE_PG_BIN, then PATH, then Debian's and source installs' places. */
export function findPostgres() {
  const has = (dir) => ['initdb', 'pg_ctl', 'postgres'].every((name) => existsSync(`${dir}/${name}`));
  if (process.env.CHATSURFACE_PG_BIN) return has(process.env.CHATSURFACE_PG_BIN) ? process.env.CHATSURFACE_PG_BIN : null;
  // Debian's versioned folders first (newest first), since /usr/bin has only wrappers for the client programs.
  const debian = existsSync('/usr/lib/postgresql')
    ? readdirSync('/usr/lib/postgresql')
        .filter((v) => /^\d+$/.test(v))
        .sort((a, b) => Number(b) - Number(a))
        .map((v) => `/usr/lib/postgresql/${v}/bin`)
    : [];
  const path = (process.env.PATH ?? '').split(':').filter(Boolean);
  return [...debian, ...path, '/usr/local/bin', '/usr/local/pgsql/bin'].find(has) ?? null;
}

/**
 * PostgreSQL's server programs for the tests: found, else Debian's `postgresql`
 * installed with apt. Returns their folder, or null after saying why (the
 * PostgreSQL suites then fail with that reason; nothing else is stopped).
 */
export function ensurePostgres() {
  const found = findPostgres();
  if (found) return found;
  if (process.env.CHATSURFACE_PG_BIN) {
    console.error(`CHATSURFACE_PG_BIN is set to ${process.env.CHATSURFACE_PG_BIN}, but initdb, pg_ctl and postgres are not all there.`);
    return null;
  }
  console.log("No PostgreSQL server found: installing Debian's postgresql with apt-get…");
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const asRoot = (...args) => (process.getuid?.() === 0 ? run(args[0], args.slice(1), { env }) : run('sudo', args, { env }));
  if (asRoot('apt-get', 'update', '-qq') !== 0 || asRoot('apt-get', 'install', '-y', '-qq', '--no-install-recommends', 'postgresql') !== 0) {
    console.error('Installing postgresql failed: the PostgreSQL store tests will fail. Install it yourself (apt-get install postgresql) or set CHATSURFACE_PG_BIN.');
    return null;
  }
  // Debian's package may start its own default cluster: the tests start theirs, so nothing else is left running.
  if (spawnSync('sh', ['-c', 'command -v pg_lsclusters'], { encoding: 'utf8' }).status === 0) {
    for (const line of spawnSync('pg_lsclusters', ['--no-header'], { encoding: 'utf8' }).stdout?.split('\n') ?? []) {
      const [version, cluster, , status] = line.trim().split(/\s+/);
      if (version && cluster && status === 'online') asRoot('pg_ctlcluster', version, cluster, 'stop');
    }
  }
  const installed = findPostgres();
  if (!installed) console.error('apt-get finished but initdb/pg_ctl are nowhere to be found; set CHATSURFACE_PG_BIN.');
  return installed;
}

/**
 * Who runs the test cluster: PostgreSQL refuses to run as root, so a root
 * process runs initdb and pg_ctl as the `postgres` system user (Debian's
 * package makes one), else as `chatsurface-pg`, created here when missing.
 * Null when this process is not root: it runs them itself.
 * @returns {{ name: string, uid: number, gid: number } | null}
 */
export function postgresUser() {
  if (process.getuid?.() !== 0) return null;
  const lookup = (name) => {
    const line = readFileSync('/etc/passwd', 'utf8')
      .split('\n')
      .find((l) => l.startsWith(`${name}:`));
    if (!line) return null;
    const [, , uid, gid] = line.split(':');
    return { name, uid: Number(uid), gid: Number(gid) };
  };
  const existing = lookup('postgres') ?? lookup('chatsurface-pg');
  if (existing) return existing;
  const made = spawnSync('useradd', ['--system', '--no-create-home', '--user-group', '--shell', '/usr/sbin/nologin', 'chatsurface-pg'], { encoding: 'utf8' });
  const user = lookup('chatsurface-pg');
  if (!user) throw new Error(`Could not create the system user chatsurface-pg to run PostgreSQL as (useradd: ${made.error?.message ?? made.stderr?.trim() ?? `exit ${made.status}`}).`);
  return user;
}
