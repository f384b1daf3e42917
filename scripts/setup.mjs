// Set-up shared by `npm run demo` and `npm test`: install what is missing, nothing else.
import { spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';

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
