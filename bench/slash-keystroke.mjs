#!/usr/bin/env node
// Keystroke-to-paint of the slash combobox with 5,000 skills, in headless Chromium.
//   builds bench/slash-keystroke.html (bench/vite.config.mjs), serves it on 127.0.0.1 (random port),
//   types "/" and then, per cycle, "team-4" plus four more characters and as many Backspaces
//   (each keystroke re-filters 5,006 skills and re-renders the virtualised list), then ArrowDown presses.
// Two figures per key kind: keydown → after the next paint (rAF, then a task; includes the wait for
// the next frame, up to 16.7 ms at 60 Hz), and keydown → handled and laid out (the work alone).
// Prints one JSON line: { slashKeystroke: { skills, filter, filterWork, arrows, arrowsWork: {n, msMedian, msP95, msMax}, check } }.
// usage: node bench/slash-keystroke.mjs [--cycles 20] [--out bench-results/pages/slash-keystroke] [--no-build]
// env: CHROMIUM_PATH (default /usr/bin/chromium). Stops the server and the browser on exit.
import { spawn } from 'node:child_process';
import { createReadStream, existsSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { dirname, extname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const argv = process.argv.slice(2);
const opt = (name, def) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 && i + 1 < argv.length ? argv[i + 1] : def;
};
const CYCLES = Number(opt('cycles', 20));
const OUT = resolve(repo, opt('out', 'bench-results/pages/slash-keystroke'));
const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const log = (...a) => console.error('[slash-keystroke]', ...a);

function build() {
  const vite = join(dirname(require.resolve('vite/package.json')), 'bin', 'vite.js');
  return new Promise((ok, fail) => {
    const child = spawn(process.execPath, [vite, 'build', '--config', 'bench/vite.config.mjs'], {
      cwd: repo,
      env: { ...process.env, ENTRY: 'slash-keystroke.html', OUT },
      stdio: ['ignore', 2, 2],
    });
    child.on('error', fail);
    child.on('close', (code) => (code === 0 ? ok() : fail(new Error(`vite build exited with ${code}`))));
  });
}

const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.json': 'application/json' };
function serve(root) {
  const server = createServer((req, res) => {
    const path = join(root, decodeURIComponent(new URL(req.url, 'http://x').pathname));
    if (!path.startsWith(root) || !existsSync(path) || !statSync(path).isFile()) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': TYPES[extname(path)] ?? 'application/octet-stream' });
    createReadStream(path).pipe(res);
  });
  return new Promise((ok) => server.listen(0, '127.0.0.1', () => ok(server)));
}

const stats = (xs) => {
  const v = [...xs].sort((a, b) => a - b);
  const at = (q) => v[Math.min(v.length - 1, Math.floor(q * v.length))];
  return { n: v.length, msMedian: round(at(0.5)), msP95: round(at(0.95)), msMax: round(v[v.length - 1]) };
};
const round = (x) => Math.round(x * 100) / 100;

let server;
let browser;
const stop = async () => {
  await browser?.close().catch(() => {});
  server?.close();
};
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => stop().then(() => process.exit(130)));

try {
  if (!argv.includes('--no-build')) {
    log('building bench/slash-keystroke.html …');
    await build();
  }
  server = await serve(OUT);
  const url = `http://127.0.0.1:${server.address().port}/slash-keystroke.html`;
  const { chromium } = await import('playwright-core');
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
  const page = await browser.newPage({ viewport: { width: 1000, height: 800 } });
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(url);
  const input = page.getByRole('textbox', { name: 'Message' });
  await input.focus();

  const count = () => page.evaluate(() => window.__samples.length);
  const press = async (key) => {
    const before = await count();
    await page.keyboard.press(key);
    await page.waitForFunction((n) => window.__samples.length > n, before);
  };
  await press('/');
  await page.getByRole('listbox', { name: 'Slash skills' }).waitFor();
  await page.waitForFunction(() => document.querySelectorAll('[data-part="slash-option"]').length > 0);
  const optionsInDom = await page.evaluate(() => document.querySelectorAll('[data-part="slash-option"]').length);

  const word = 'team-4';
  for (const ch of word) await press(ch);
  const startFilter = await count();
  for (let c = 0; c < CYCLES; c++) {
    const tail = String(1000 + ((c * 37) % 999)).slice(1); // three digits: 001…998
    for (const ch of `${tail}`) await press(ch);
    for (let i = 0; i < tail.length; i++) await press('Backspace');
  }
  const filterSamples = (await page.evaluate(() => window.__samples)).slice(startFilter);
  const filterWork = (await page.evaluate(() => window.__work)).slice(startFilter);

  const startArrows = await count();
  for (let i = 0; i < 40; i++) await press('ArrowDown');
  const arrowSamples = (await page.evaluate(() => window.__samples)).slice(startArrows);
  const arrowWork = (await page.evaluate(() => window.__work)).slice(startArrows);

  // The list shows what was typed: "/team-4999" leaves one option.
  await page.keyboard.type('999');
  await page.waitForFunction(() => document.querySelectorAll('[data-part="slash-option"]').length === 1);
  const check = await page.locator('[data-part="slash-option-name"]').first().textContent();
  const result = {
    slashKeystroke: {
      skills: await page.evaluate(() => window.__skills),
      filter: stats(filterSamples),
      filterWork: stats(filterWork),
      arrows: stats(arrowSamples),
      arrowsWork: stats(arrowWork),
      check,
      optionsInDom,
      errors,
      chromium: browser.version(),
    },
  };
  console.log(JSON.stringify(result));
} catch (e) {
  console.error(e);
  process.exitCode = 1;
} finally {
  await stop();
}
