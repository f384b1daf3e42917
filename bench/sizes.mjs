// Bundle sizes: gzip -9 (node:zlib, level 9) of a JS file set. Two ways to pick the set:
//   - a library entry of dist/ and every local chunk it imports statically (deps are external);
//   - a Vite page build's initial JS: the html entry chunk and its static imports, from
//     .vite/manifest.json, the same rule as the shared harness's size.mjs.
// GNU gzip -9 -n (what the harness's size table uses) is added when `gzip` is on PATH.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { execFileSync } from 'node:child_process';
import { gzipSync } from 'node:zlib';

let hasGnuGzip = null;
function gnuGzipSize(file) {
  if (hasGnuGzip === null) {
    try { execFileSync('gzip', ['--version'], { stdio: 'ignore' }); hasGnuGzip = true; } catch { hasGnuGzip = false; }
  }
  if (!hasGnuGzip) return null;
  return execFileSync('gzip', ['-9', '-c', '-n', file], { maxBuffer: 1 << 30 }).length;
}

/** raw bytes, node:zlib gzip level 9, and GNU gzip -9 -n (null without gzip) of these files. */
export function sizeOf(files) {
  let raw = 0; let gzip9 = 0; let gnu = 0;
  for (const f of files) {
    const buf = readFileSync(f);
    raw += buf.length;
    gzip9 += gzipSync(buf, { level: 9 }).length;
    const g = gnuGzipSize(f);
    gnu = g === null || gnu === null ? null : gnu + g;
  }
  return { files: files.length, raw, gzip9, gnuGzip9: gnu };
}

// Static `import … from './x.js'`, `export … from './x.js'` and `import './x.js'`; not import().
const STATIC_LOCAL = /(?:^|[\s;})])(?:import|export)\s*(?:[\w$*{}\s,]*?\s*from\s*)?["'](\.{1,2}\/[^"']+)["']/g;

/** `entry` and every local file it imports statically, transitively (absolute paths). */
export function staticClosure(entry) {
  const seen = new Set();
  const visit = (file) => {
    if (seen.has(file)) return;
    seen.add(file);
    const src = readFileSync(file, 'utf8');
    for (const m of src.matchAll(STATIC_LOCAL)) {
      const dep = resolve(dirname(file), m[1]);
      if (!existsSync(dep)) throw new Error(`${file} imports ${m[1]}, which does not exist`);
      visit(dep);
    }
  };
  visit(resolve(entry));
  return [...seen];
}

/** Size of a library entry with its static local chunks. */
export function entrySize(entry) {
  const files = staticClosure(entry);
  const root = dirname(resolve(entry));
  return { entry: relative(process.cwd(), resolve(entry)), chunks: files.map((f) => relative(root, f)), ...sizeOf(files) };
}

/** Initial JS (and CSS) of a Vite build with a manifest: entry chunks and their static imports. */
export function pageSize(dir) {
  const m = JSON.parse(readFileSync(join(dir, '.vite', 'manifest.json'), 'utf8'));
  const seen = new Set(); const js = new Set(); const css = new Set();
  const visit = (key) => {
    if (seen.has(key)) return; seen.add(key);
    const c = m[key]; if (!c) return;
    if (c.file.endsWith('.js')) js.add(join(dir, c.file));
    for (const s of c.css || []) css.add(join(dir, s));
    for (const i of c.imports || []) visit(i);
  };
  for (const [k, c] of Object.entries(m)) if (c.isEntry) visit(k);
  return { dir: relative(process.cwd(), dir), js: sizeOf([...js]), css: sizeOf([...css]) };
}

/**
 * The parts of a Vite build a page fetches only on use (`loaded`: the files it loaded by idle,
 * relative to `dir`; the initial chunks count as loaded too): each JS chunk with the CSS it brings,
 * by name (the highlighter, math, the slash list, a card's MCP App view …), gzip -9, largest first.
 */
export function lazyParts(dir, loaded = []) {
  const m = JSON.parse(readFileSync(join(dir, '.vite', 'manifest.json'), 'utf8'));
  const initial = new Set();
  const seen = new Set(loaded.map((f) => f.replace(/^\//, '')));
  const visit = (key) => {
    const c = m[key]; if (!c || initial.has(c.file)) return;
    initial.add(c.file);
    for (const i of c.imports || []) visit(i);
  };
  for (const [k, c] of Object.entries(m)) if (c.isEntry) visit(k);
  const parts = [];
  for (const c of Object.values(m)) {
    if (!c.file.endsWith('.js') || initial.has(c.file) || seen.has(c.file)) continue;
    const files = [join(dir, c.file), ...(c.css || []).map((s) => join(dir, s))];
    const { gzip9, raw } = sizeOf(files);
    parts.push({ name: c.name ?? c.file, file: c.file, css: (c.css || []).length, gzip9, raw });
  }
  return parts.sort((a, b) => b.gzip9 - a.gzip9);
}

/** Every JS file of a Vite build (lazy chunks included), as the harness's "all JS" figure. */
export function allJs(dir) {
  const assets = join(dir, 'assets');
  return sizeOf(readdirSync(assets).filter((f) => f.endsWith('.js')).map((f) => join(assets, f)));
}

/**
 * The JS a built page actually loads by idle: the page is opened in headless Chromium (served
 * from `dir` on 127.0.0.1), and every .js it fetches until the network has been quiet and the
 * browser idle (the kit preloads some chunks on idle) is summed (gzip -9 of each file).
 * Chunks fetched only on use (the markdown parser before a formatted reply) are not counted.
 * `focusMessage`: then the user steps into the surface (focus on the message box, which fetches
 * the rows a turn adds on idle) and the page is left idle again, so those chunks count too.
 */
export async function jsByIdle(dir, page, { chromium: executablePath = process.env.CHROMIUM_PATH || '/usr/bin/chromium', settleMs = 3000, focusMessage = false } = {}) {
  const { createServer } = await import('node:http');
  const { chromium } = await import('playwright-core');
  const root = resolve(dir);
  const server = createServer((req, res) => {
    const file = join(root, decodeURIComponent(new URL(req.url, 'http://x').pathname));
    if (!file.startsWith(root) || !existsSync(file)) { res.writeHead(404).end(); return; }
    const type = file.endsWith('.js') ? 'text/javascript' : file.endsWith('.css') ? 'text/css' : file.endsWith('.html') ? 'text/html' : 'application/octet-stream';
    res.writeHead(200, { 'content-type': type }).end(readFileSync(file));
  });
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  const browser = await chromium.launch({ executablePath, args: ['--no-sandbox', '--headless', '--disable-gpu'] });
  try {
    const tab = await browser.newPage();
    const files = new Set();
    const errors = [];
    tab.on('pageerror', (e) => errors.push(String(e)));
    tab.on('request', (r) => { const u = new URL(r.url()); if (u.pathname.endsWith('.js')) files.add(join(root, decodeURIComponent(u.pathname))); });
    const settle = async () => {
      await tab.evaluate(() => new Promise((ok) => requestIdleCallback(() => ok(), { timeout: 2500 })));
      await tab.waitForTimeout(settleMs);
    };
    await tab.goto(`http://127.0.0.1:${server.address().port}/${page}`, { waitUntil: 'networkidle' });
    await settle();
    if (focusMessage) {
      await tab.getByRole('textbox', { name: 'Message' }).focus();
      await settle();
    }
    const list = [...files].filter((f) => existsSync(f));
    const rendered = await tab.evaluate(() => document.querySelector('[data-chat-surface], #root > *') !== null);
    if (!rendered) errors.push('nothing rendered');
    return { ...sizeOf(list), chunks: list.map((f) => relative(root, f)), errors };
  } finally {
    await browser.close();
    server.close();
  }
}
