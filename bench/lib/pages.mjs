// What the browser benches share: `--name value` options, building one bench page with
// bench/vite.config.mjs, serving a built folder on 127.0.0.1 (a random port, files only), and
// opening a bench page warmed up for a stream.
import { spawn } from 'node:child_process';
import { createReadStream, existsSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { dirname, extname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const require = createRequire(import.meta.url);

/** The value after `--name` in `argv`, else `def`. */
export const option = (argv, name, def) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 && i + 1 < argv.length ? argv[i + 1] : def;
};

/** Builds bench/<entry> into `out` (`minify: false`: component and library function names stay readable). */
export function buildPage(entry, out, { minify = true } = {}) {
  const vite = join(dirname(require.resolve('vite/package.json')), 'bin', 'vite.js');
  return new Promise((ok, fail) => {
    const child = spawn(process.execPath, [vite, 'build', '--config', 'bench/vite.config.mjs', ...(minify ? [] : ['--minify', 'false'])], {
      cwd: repo,
      env: { ...process.env, ENTRY: entry, OUT: out },
      stdio: ['ignore', 2, 2],
    });
    child.on('error', fail);
    child.on('close', (code) => (code === 0 ? ok() : fail(new Error(`vite build ${entry} exited with ${code}`))));
  });
}

const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.json': 'application/json' };

/** Serves the files under `dir` (nothing outside it, no listings) on 127.0.0.1; resolves with the listening server. */
export function serveDir(dir) {
  const root = resolve(dir);
  const server = createServer((req, res) => {
    const path = join(root, decodeURIComponent(new URL(req.url, 'http://x').pathname));
    if (!path.startsWith(root) || !existsSync(path) || !statSync(path).isFile()) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': TYPES[extname(path)] ?? 'application/octet-stream' });
    createReadStream(path).pipe(res);
  });
  return new Promise((ok) => server.listen(0, '127.0.0.1', () => ok(server)));
}

/**
 * A fresh context (1280×800) on a bench page (`window.__bench`), an empty thread mounted and a
 * 20-delta burst streamed, as the shared harness warms up before it measures. `errors` collects
 * the page's uncaught errors; close `context` when done.
 */
export async function openWarmStreamPage(browser, url) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const errors = [];
  try {
    const page = await context.newPage();
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(url, { waitUntil: 'load' });
    await page.waitForFunction(() => !!window.__bench, null, { timeout: 30_000 });
    await page.evaluate(() => window.__bench.mount(0));
    await page.evaluate(() => window.__bench.stream(20, { pace: 'burst' }));
    return { context, page, errors };
  } catch (error) {
    await context.close();
    throw error;
  }
}
