#!/usr/bin/env node
// Main-thread tasks of the bench page's mount(n), from a Chromium trace: what each task costs in
// CPU (the trace's thread time, so other load on the machine inflates it far less than wall time),
// from the call to the first frame that shows the newest message, and the longest task after it
// (the whole history's commit). Complements the harness's wall-clock long tasks.
//   ENTRY=bench.html OUT=/tmp/page node node_modules/vite/bin/vite.js build --config bench/vite.config.mjs
//   node bench/mount-tasks.mjs --dist /tmp/page [--n 10000] [--runs 3] [--min 3]
// One line per run: mount ms (wall), CPU of every task over --min ms in the window, their sum and
// the longest, and the longest task CPU in the 1.5 s after the first frame.
import http from 'node:http';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { extname, join, normalize, resolve } from 'node:path';
import { chromium } from 'playwright-core';
import { benchChromium } from './lib/chromium.mjs';

const argv = process.argv.slice(2);
const opt = (name, def) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 && i + 1 < argv.length ? argv[i + 1] : def;
};
const dist = opt('dist');
if (!dist || !existsSync(join(resolve(dist), 'bench.html'))) {
  console.error('usage: node bench/mount-tasks.mjs --dist DIR (a build of bench/bench.html) [--n 10000] [--runs 3] [--min 3]');
  process.exit(2);
}
const n = Number(opt('n', '10000'));
const runs = Number(opt('runs', '3'));
const min = Number(opt('min', '3'));
const root = resolve(dist);
const MIME = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css' };
const server = http.createServer((req, res) => {
  const path = normalize(join(root, new URL(req.url, 'http://x').pathname));
  if (!path.startsWith(root) || !existsSync(path) || statSync(path).isDirectory()) {
    res.writeHead(404);
    return res.end();
  }
  res.writeHead(200, { 'content-type': MIME[extname(path)] ?? 'application/octet-stream' });
  res.end(readFileSync(path));
});
await new Promise((done) => server.listen(0, '127.0.0.1', done));
const browser = await chromium.launch({
  executablePath: benchChromium(),
  headless: true,
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
});
try {
  for (let run = 1; run <= runs; run++) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    await page.goto(`http://127.0.0.1:${server.address().port}/bench.html`);
    await page.waitForFunction(() => !!window.__bench);
    await browser.startTracing(page, { categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline'] });
    const ms = await page.evaluate((count) => new Promise((done) => setTimeout(() => window.__bench.mount(count).then(done), 0)), n);
    await page.waitForTimeout(1500);
    const events = JSON.parse((await browser.stopTracing()).toString()).traceEvents;
    await context.close();
    const main = events.find((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain' && events.some((x) => x.pid === e.pid && x.name === 'RunTask'));
    const onMain = events.filter((e) => e.pid === main.pid && e.tid === main.tid && e.ph === 'X' && e.dur).sort((a, b) => a.ts - b.ts);
    const tasks = onMain.filter((e) => e.name === 'RunTask');
    // The window starts with the task that runs mount() (a timer), and lasts `ms`.
    const first = tasks.find((t) => onMain.some((e) => e.name === 'TimerFire' && e.ts >= t.ts && e.ts <= t.ts + t.dur));
    const start = first ? first.ts : tasks[0].ts;
    const end = start + ms * 1000;
    const cpu = (t) => (t.tdur ?? t.dur) / 1000;
    const inWindow = tasks.filter((t) => t.ts < end && t.ts + t.dur > start);
    const after = tasks.filter((t) => t.ts >= end);
    const shown = inWindow.filter((t) => cpu(t) >= min).map((t) => cpu(t).toFixed(1));
    console.log(
      `mount ${n}, run ${run}: ${ms.toFixed(1)} ms; task CPU in the window [${shown.join(', ')}] sum ${inWindow.reduce((s, t) => s + cpu(t), 0).toFixed(1)}, ` +
        `longest ${Math.max(...inWindow.map(cpu)).toFixed(1)} (wall ${Math.max(...inWindow.map((t) => t.dur / 1000)).toFixed(1)}); longest after it ${Math.max(0, ...after.map(cpu)).toFixed(1)}`,
    );
  }
} finally {
  await browser.close();
  server.close();
}
