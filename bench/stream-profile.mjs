#!/usr/bin/env node
// Where a streamed reply's time goes, beside the per-frame floor, from a Chromium trace of one
// bench call per run (counted and summed, not judged: `npm run bench` gives the verdict).
//   node bench/stream-profile.mjs [--test stream:2000:task] [--runs 3] [--query virtualize=0] [--kit-dir DIR] [--no-build] [--fresh]
// --fresh: a new browser for every run and a GC before the traced stream, as the shared harness's
// driver does (the kit's code that first runs in the measured stream is compiled there).
// Builds the kit's bench page unminified (component and library function names readable) into
// /tmp/stream-profile/kit (--kit-dir: an already built one, with --no-build), and the floor (the shared harness's naive list with ?batch=raf) through
// bench/anchors.mjs into bench-results/anchors/ (npm install there the first time). Each run opens
// a fresh page (1280×800), mounts an empty thread, warms up with a 20-delta burst, as the harness
// does, then traces one stream(n, {pace}). Pages alternate, kit first.
// Prints one JSON line: { streamProfile: { test, runs, kit, floor } }, each the median over runs of
//   ms (send → whole text in the DOM), tasks, deltaTaskMs (the MessageChannel tasks the deltas
//   arrive in, with the microtasks they run), frames and frameMs (BeginMainFrame: animation frame
//   callbacks, style, layout, ResizeObserver callbacks, paint), styleMs, layoutMs, forcedLayouts
//   (style or layout run from script, before its frame), scrollEvents, resizeObserverMs, gcMs,
//   longestTaskMs; and for the kit, forcedBy: the JS functions that forced them, most costly first.
// env: CHROMIUM_PATH (default /usr/bin/chromium, through bench/lib/chromium-quiet).
import { spawn } from 'node:child_process';
import { join, resolve } from 'node:path';
import { STREAM_FLOOR, BROWSER_ANCHORS, prepareAnchors } from './anchors.mjs';
import { benchChromium } from './lib/chromium.mjs';
import { buildPage, openWarmStreamPage, option, repo, serveDir as serve } from './lib/pages.mjs';

const argv = process.argv.slice(2);
const opt = (name, def) => option(argv, name, def);
const TEST = opt('test', 'stream:2000:task');
const RUNS = Math.max(1, Number(opt('runs', 3)));
/** Query of the kit's page (`virtualize=0`: every row in the DOM, no virtualiser; `virtualize=1`: always virtualised; default: the surface's own choice). */
const QUERY = opt('query', '');
/** A new browser for every run, and a GC before the traced stream, as the shared harness's driver does. */
const FRESH = argv.includes('--fresh');
const KIT_OUT = resolve(opt('kit-dir', '/tmp/stream-profile/kit'));
const SHARED = resolve(process.env.BENCH_SHARED || resolve(repo, '../shared/bench'));
const log = (...a) => console.error('[stream-profile]', ...a);
const [kind, nText, pace = 'burst'] = TEST.split(':');
if (kind !== 'stream' || !(Number(nText) > 0)) {
  console.error('usage: node bench/stream-profile.mjs [--test stream:N[:task|burst]] [--runs 3] [--query virtualize=0] [--kit-dir DIR] [--no-build] [--fresh]');
  process.exit(2);
}

function run(cmd, args, { cwd = repo, env = {}, label = cmd } = {}) {
  return new Promise((ok, fail) => {
    const child = spawn(cmd, args, { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 2, 2] });
    child.on('error', fail);
    child.on('close', (code) => (code === 0 ? ok() : fail(new Error(`${label} exited with ${code}`))));
  });
}

const CATEGORIES = ['devtools.timeline', 'v8.execute', 'blink', 'disabled-by-default-devtools.timeline', 'disabled-by-default-devtools.timeline.stack'];

/** One traced stream call on a fresh page: the figures above, from the renderer's main thread. */
async function profileOnce(browser, url) {
  const { context, page, errors } = await openWarmStreamPage(browser, url);
  try {
    if (FRESH) {
      const cdp = await context.newCDPSession(page);
      await cdp.send('HeapProfiler.collectGarbage');
      await cdp.detach();
    }
    await browser.startTracing(page, { categories: CATEGORIES });
    const ms = await page.evaluate(
      ([n, pace]) => new Promise((ok, fail) => setTimeout(() => window.__bench.stream(n, { pace }).then(ok, fail), 0)),
      [Number(nText), pace],
    );
    await page.waitForTimeout(150);
    const events = JSON.parse((await browser.stopTracing()).toString()).traceEvents;
    if (errors.length) throw new Error(`page errors: ${errors.join(' | ')}`);
    return { ms, ...summarise(events) };
  } finally {
    await context.close();
  }
}

/** The main thread's complete events, summed by what they are. */
function summarise(events) {
  const names = events.filter((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain');
  const main = names.find((t) => events.some((e) => e.pid === t.pid && e.tid === t.tid && e.name === 'RunTask'));
  if (!main) throw new Error('no renderer main thread in the trace');
  const mine = events.filter((e) => e.pid === main.pid && e.tid === main.tid && e.ph === 'X' && e.dur);
  const sum = (name) => mine.filter((e) => e.name === name).reduce((s, e) => s + e.dur / 1000, 0);
  const count = (name) => mine.filter((e) => e.name === name).length;
  const tasks = mine.filter((e) => e.name === 'RunTask');
  const forced = {};
  let forcedLayouts = 0;
  for (const e of mine) {
    if (e.name !== 'Layout' && e.name !== 'UpdateLayoutTree') continue;
    const stack = e.args?.beginData?.stackTrace ?? e.args?.data?.stackTrace;
    if (!stack?.length) continue;
    forcedLayouts++;
    const at = stack.slice(0, 2).map((f) => f.functionName || '(anonymous)').join(' < ');
    (forced[at] ??= { n: 0, ms: 0 }).n++;
    forced[at].ms += e.dur / 1000;
  }
  return {
    tasks: tasks.length,
    deltaTaskMs: sum('MessagePort::Accept'),
    frames: count('WebFrameWidgetImpl::BeginMainFrame'),
    frameMs: sum('WebFrameWidgetImpl::BeginMainFrame'),
    styleMs: sum('UpdateLayoutTree'),
    layoutMs: sum('Layout'),
    forcedLayouts,
    scrollEvents: mine.filter((e) => e.name === 'EventDispatch' && e.args?.data?.type === 'scroll').length,
    resizeObserverMs: sum('LocalFrameView::NotifyResizeObservers'),
    gcMs: sum('MinorGC') + sum('MajorGC'),
    longestTaskMs: tasks.reduce((m, e) => Math.max(m, e.dur / 1000), 0),
    forced,
  };
}

const median = (xs) => {
  const v = [...xs].sort((a, b) => a - b);
  const m = v.length >> 1;
  return v.length % 2 ? v[m] : (v[m - 1] + v[m]) / 2;
};
const round = (x) => Math.round(x * 100) / 100;
function pool(runs, withStacks) {
  const keys = Object.keys(runs[0]).filter((k) => k !== 'forced');
  const out = Object.fromEntries(keys.map((k) => [k, round(median(runs.map((r) => r[k])))]));
  if (withStacks) {
    const all = {};
    for (const r of runs) for (const [at, { n, ms }] of Object.entries(r.forced)) ((all[at] ??= { n: 0, ms: 0 }).n += n / runs.length), (all[at].ms += ms / runs.length);
    out.forcedBy = Object.entries(all)
      .sort((a, b) => b[1].ms - a[1].ms)
      .slice(0, 8)
      .map(([at, { n, ms }]) => ({ at, perRun: round(n), ms: round(ms) }));
  }
  return out;
}

let servers = [];
let browser = null;
try {
  if (!argv.includes('--no-build')) {
    log('building bench/bench.html unminified …');
    await buildPage('bench.html', KIT_OUT, { minify: false });
  }
  const anchors = await prepareAnchors({ shared: SHARED, dest: join(repo, 'bench-results', 'anchors'), run, log });
  const floorDir = anchors.pages[BROWSER_ANCHORS[STREAM_FLOOR].app];
  servers = [await serve(KIT_OUT), await serve(floorDir)];
  const at = (server) => `http://127.0.0.1:${server.address().port}`;
  const pages = {
    kit: `${at(servers[0])}/bench.html${QUERY ? `?${QUERY}` : ''}`,
    floor: `${at(servers[1])}/bench.html?${BROWSER_ANCHORS[STREAM_FLOOR].query}`,
  };
  const { chromium } = await import('playwright-core');
  const launch = () => chromium.launch({ executablePath: benchChromium(), headless: true, args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'] });
  const results = { kit: [], floor: [] };
  for (let i = 0; i < RUNS; i++) {
    for (const [name, url] of Object.entries(pages)) {
      if (FRESH || !browser) {
        await browser?.close();
        browser = await launch();
      }
      const r = await profileOnce(browser, url);
      results[name].push(r);
      log(`${name} run ${i + 1}: ${r.ms.toFixed(1)} ms, ${r.frames} frames (${r.frameMs.toFixed(1)} ms), delta tasks ${r.deltaTaskMs.toFixed(1)} ms, ${r.forcedLayouts} forced layouts`);
    }
  }
  console.log(JSON.stringify({ streamProfile: { test: TEST, runs: RUNS, fresh: FRESH, query: QUERY, chromium: browser.version(), kit: pool(results.kit, true), floor: pool(results.floor, false) } }));
} finally {
  await browser?.close();
  for (const server of servers) server.close();
}
