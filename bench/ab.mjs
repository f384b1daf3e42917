#!/usr/bin/env node
// A/B of built bench pages: fresh pages of each, interleaved (the order rotates every round), one
// `__bench.stream(n, { pace })` each after the harness's warm-up (openWarmStreamPage), with the renderer's CDP metrics
// around it. For a change's effect under the same conditions, which the full bench's three rounds
// are too few to show on a noisy machine.
//   node bench/ab.mjs [--test stream:2000:task] [--runs 9] [--pause 300] [--all] DIR[#PAGE] DIR[#PAGE] …
// --all: also every run's send → DOM, sorted (a median can hide two clusters).
// --pause: ms between the warm-up stream and the measured one (0: at once, as the shared harness does).
// DIR: a page built with `ENTRY=bench.html OUT=DIR npx vite build --config bench/vite.config.mjs`
// (from each commit to compare), or an anchor's, e.g. the floor:
// "bench-results/anchors/apps/naive/dist-bench#bench.html?batch=raf" (after `npm run bench`).
// --fresh: a new browser for every run, and a forced GC (CDP HeapProfiler.collectGarbage) before the
// measured stream, as the shared harness does in `npm run bench`; without it every run is a new
// context of one browser that stays up. The kit's code that first runs in the measured stream is
// compiled there, so the two can differ: see README, "What is left over the floor".
// Prints a line per page: medians of send → DOM (ms) and, in ms of the renderer's main thread,
// Task, Script, RecalcStyle and Layout, with the counts of style recalcs and layouts.
// env: CHROMIUM_PATH (default /usr/bin/chromium, through bench/lib/chromium-quiet).
import { benchChromium } from './lib/chromium.mjs';
import { openWarmStreamPage, option, serveDir } from './lib/pages.mjs';

const argv = process.argv.slice(2);
const TEST = option(argv, 'test', 'stream:2000:task');
const RUNS = Math.max(1, Number(option(argv, 'runs', 9)));
const PAUSE = Math.max(0, Number(option(argv, 'pause', 300)));
const VALUED = new Set(['--test', '--runs', '--pause']);
const dirs = argv.filter((a, i) => !a.startsWith('--') && !VALUED.has(argv[i - 1]));
const [kind, nText, pace = 'burst'] = TEST.split(':');
if (kind !== 'stream' || !(Number(nText) > 0) || dirs.length === 0) {
  console.error('usage: node bench/ab.mjs [--test stream:N[:task|burst]] [--runs 9] [--pause 300] [--all] [--fresh] DIR[#PAGE] …');
  process.exit(2);
}
const n = Number(nText);
const KEYS = ['TaskDuration', 'ScriptDuration', 'RecalcStyleDuration', 'LayoutDuration', 'RecalcStyleCount', 'LayoutCount'];

const { chromium } = await import('playwright-core');
const servers = await Promise.all(dirs.map((d) => serveDir(d.split('#')[0])));
const FRESH = argv.includes('--fresh');
const launch = () => chromium.launch({ executablePath: benchChromium(), args: ['--no-sandbox', '--disable-gpu', '--no-first-run'] });
let browser = await launch();
try {
  const out = dirs.map(() => ({ ms: [], ...Object.fromEntries(KEYS.map((k) => [k, []])) }));
  for (let r = 0; r < RUNS; r++) {
    for (let i = 0; i < dirs.length; i++) {
      const j = (i + r) % dirs.length;
      const page = dirs[j].split('#')[1] ?? 'bench.html';
      if (FRESH) {
        await browser.close();
        browser = await launch();
      }
      const { context, page: tab, errors } = await openWarmStreamPage(browser, `http://127.0.0.1:${servers[j].address().port}/${page}`);
      try {
        await tab.waitForTimeout(PAUSE);
        const cdp = await context.newCDPSession(tab);
        await cdp.send('Performance.enable');
        if (FRESH) {
          await cdp.send('HeapProfiler.enable');
          await cdp.send('HeapProfiler.collectGarbage');
        }
        const metrics = async () => Object.fromEntries((await cdp.send('Performance.getMetrics')).metrics.map((m) => [m.name, m.value]));
        const before = await metrics();
        out[j].ms.push(await tab.evaluate(([count, how]) => window.__bench.stream(count, { pace: how }), [n, pace]));
        const after = await metrics();
        for (const k of KEYS) out[j][k].push((after[k] - before[k]) * (k.endsWith('Count') ? 1 : 1000));
        if (errors.length) throw new Error(`${dirs[j]}: page errors: ${errors.join(' | ')}`);
      } finally {
        await context.close();
      }
    }
  }
  const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
  console.log(`${TEST}, ${RUNS} runs each, medians`);
  dirs.forEach((d, i) => console.log(`${d.padEnd(40)} ${Object.entries(out[i]).map(([k, v]) => `${k === 'ms' ? 'send→DOM' : k.replace('Duration', '')} ${median(v).toFixed(1)}`).join('  ')}`));
  // Every run's send → DOM, sorted: a median can hide two clusters (a run that takes a frame or two more).
  if (argv.includes('--all')) dirs.forEach((d, i) => console.log(`${d.padEnd(40)} send→DOM, sorted: ${[...out[i].ms].sort((a, b) => a - b).map((x) => x.toFixed(1)).join(' ')}`));
} finally {
  await browser.close();
  for (const s of servers) s.close();
}
