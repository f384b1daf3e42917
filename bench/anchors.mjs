// The shared harness's anchor apps, built and measured here, in the same session as the kit (no
// copied figures). The shared folder (../shared/bench, read-only) is copied to
// bench-results/anchors/ (gitignored), each anchor app's pinned dependencies are installed there
// with npm, and its bench page (and size app) is built with its own vite config.
//
// prepareAnchors({ shared, dest, run, log }) -> { dir, harness, pages: { naive, aui, aisdk }, sizeApps: { bare, aisdk, aui } }
import { chmodSync, cpSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Anchor bench pages: label → app folder and query (the harness README's variants). */
export const BROWSER_ANCHORS = {
  naive: { app: 'naive', query: '', label: 'naive zustand list' },
  'naive-raf': { app: 'naive', query: 'batch=raf', label: 'naive list, deltas flushed once per frame (the per-frame floor)' },
  aui: { app: 'aui', query: '', label: 'assistant-ui (smooth off)' },
  aisdk: { app: 'aisdk', query: '', label: '@ai-sdk/react useChat' },
};
/** The per-frame floor of streaming: the naive list with its deltas flushed once per animation frame. */
export const STREAM_FLOOR = 'naive-raf';

/** Anchor size apps (initial JS and all JS of their production build). */
export const SIZE_ANCHORS = {
  bare: { app: 'bare', entry: 'index.html', label: 'bare React + react-dom hello world' },
  aisdk: { app: 'aisdk', entry: 'index.html', label: '@ai-sdk/react useChat + hand-written list' },
  aui: { app: 'aui', entry: 'index.html', label: '@assistant-ui/react Thread + useLocalRuntime' },
};

const APPS = ['naive', 'aui', 'aisdk', 'bare'];

function newest(p) {
  const st = statSync(p);
  if (!st.isDirectory()) return st.mtimeMs;
  let max = st.mtimeMs;
  for (const n of readdirSync(p)) if (n !== 'node_modules' && !n.startsWith('dist')) max = Math.max(max, newest(join(p, n)));
  return max;
}
function makeWritable(p) {
  const st = statSync(p);
  chmodSync(p, st.mode | 0o200);
  if (st.isDirectory()) for (const n of readdirSync(p)) makeWritable(join(p, n));
}

/**
 * Copies the shared bench folder to `dest` (when it is newer or missing), installs the anchor apps'
 * dependencies (`npm install`, exact versions from their package.json) and builds their bench pages
 * and size apps. `run(cmd, args, { cwd, env, label })` runs a child process.
 */
export async function prepareAnchors({ shared, dest, run, log }) {
  if (!existsSync(join(shared, 'harness', 'bench.mjs'))) throw new Error(`shared harness not found at ${shared} (set BENCH_SHARED to the bench folder)`);
  const stamp = join(dest, '.copied-from');
  const fresh = existsSync(stamp) && readFileSync(stamp, 'utf8') === `${shared} ${newest(shared)}`;
  if (!fresh) {
    log(`copying ${shared} → ${dest}`);
    mkdirSync(dest, { recursive: true });
    for (const n of readdirSync(shared)) {
      if (n === 'results' || n === 'node_modules') continue;
      // installed node_modules and builds in dest are kept (the copy skips them in the source)
      cpSync(join(shared, n), join(dest, n), { recursive: true, force: true, filter: (src) => !/\/(node_modules|results|dist[^/]*)(\/|$)/.test(src.slice(shared.length)) });
    }
    makeWritable(dest);
    writeFileSync(stamp, `${shared} ${newest(shared)}`);
  }
  for (const app of APPS) {
    const dir = join(dest, 'apps', app);
    if (!existsSync(join(dir, 'node_modules', '.bin', 'vite'))) {
      log(`npm install in ${dir} (the anchor's pinned versions)`);
      await run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel', 'error'], { cwd: dir, label: `npm install (${app})` });
    }
  }
  const build = async (app, entry, out) => {
    const dir = join(dest, 'apps', app);
    rmSync(join(dir, out), { recursive: true, force: true });
    await run(join(dir, 'node_modules', '.bin', 'vite'), ['build'], { cwd: dir, env: { ENTRY: entry, OUT: out }, label: `vite build ${app}/${entry}` });
    return join(dir, out);
  };
  const pages = {};
  for (const app of ['naive', 'aui', 'aisdk']) pages[app] = await build(app, 'bench.html', 'dist-bench');
  const sizeApps = {};
  for (const [key, a] of Object.entries(SIZE_ANCHORS)) sizeApps[key] = await build(a.app, a.entry, 'dist');
  return { dir: dest, harness: join(dest, 'harness', 'bench.mjs'), pages, sizeApps };
}
