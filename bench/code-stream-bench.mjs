#!/usr/bin/env node
// A reply that is one long code block, beside the same reply as prose and the per-frame floor
// (issue 41: "a 2,000-delta reply that is one long code block stays within 1.4× the floor").
// Interleaved rounds (the order rotates every round), each page fresh (a new context of one browser),
// mounted empty and warmed up as the shared harness does (a 20-delta burst), a forced GC, then one
// measured `__bench.stream(n, { pace })` started from a setTimeout(0) callback (as the harness does):
//   code   the kit's bench page with `?code=LANG` (bench/src/bench.jsx): the same n deltas as one
//          fenced code block, a line break every `--line` deltas, closed in the last delta's chunk;
//          its warm-up is a code block too, and the highlighter has loaded (the block shows
//          highlighted) before the measured stream, as after a user's earlier code block;
//   prose  the kit's bench page as the harness measures it (the same deltas as one paragraph);
//   floor  the shared harness's naive list with its deltas flushed once per frame (`?batch=raf`,
//          bench/anchors.mjs STREAM_FLOOR), what the README compares streams against;
//   cold   (unless --no-cold) the code page warmed up with prose: the reply is the page's first
//          code block (and its first markdown beyond plain text), so the parser's and the
//          highlighter's chunks are fetched and compiled inside the measured stream; timed until
//          the whole code shows highlighted (textMs: until its text first shows, as plain source
//          while the parser loads).
// Each is timed send → the whole text in the DOM (ms) and → the frame after it (paintMs), with the
// renderer's CPU from CDP Performance.getMetrics (TaskDuration, ScriptDuration, RecalcStyleDuration,
// LayoutDuration, ms) and the long tasks (> 50 ms) that started meanwhile. A code stream counts
// only if its block ends highlighted with exactly the code streamed.
//   node bench/code-stream-bench.mjs --dist DIR [--floor DIR] [--n 2000] [--pace task] [--rounds 7]
//                                    [--lang ts] [--line 16] [--pause 300] [--no-cold] [--compare DIR] [--tokens]
// --dist: a build of bench/bench.html (ENTRY=bench.html OUT=DIR vite build --config bench/vite.config.mjs);
// --floor: the naive anchor's bench build (default bench-results/anchors/apps/naive/dist-bench, made by `npm run bench`).
// --tokens: each delta of the code but the last is followed by `(k) ` (a number token each: 2,000
// coloured spans, 2.3× the text; a stress figure, not the prose's text).
// --compare DIR: also the code stream on another build of bench.html (`compare`: an A/B of a change in the same rounds).
// Prints one JSON line: { n, pace, lang, line, tokens, rounds, load (os.loadavg before and after),
// chars, code, prose, floor, cold, compare, ratio, highlighted } (medians over rounds; ratio: each
// page ÷ the floor, to the frame, to the DOM and in CPU; highlighted: the code block's last state
// and its coloured spans).
// env: CHROMIUM_PATH (default /usr/bin/chromium, through bench/lib/chromium-quiet).
import { existsSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium } from 'playwright-core';
import { benchChromium } from './lib/chromium.mjs';
import { option, repo, serveDir } from './lib/pages.mjs';

const argv = process.argv.slice(2);
const dist = option(argv, 'dist');
const floorDir = option(argv, 'floor', join(repo, 'bench-results/anchors/apps/naive/dist-bench'));
const usage = 'usage: node bench/code-stream-bench.mjs --dist DIR (a build of bench/bench.html) [--floor DIR] [--n 2000] [--pace task] [--rounds 7] [--lang ts] [--line 16] [--pause 300] [--no-cold] [--compare DIR] [--tokens]';
if (!dist || !existsSync(join(resolve(dist), 'bench.html'))) {
  console.error(usage);
  process.exit(2);
}
if (!existsSync(join(resolve(floorDir), 'bench.html'))) {
  console.error(`the floor's page is not built at ${floorDir} (run \`npm run bench\` once, or pass --floor DIR)\n${usage}`);
  process.exit(2);
}
const n = Number(option(argv, 'n', '2000'));
const pace = option(argv, 'pace', 'task');
const rounds = Math.max(1, Number(option(argv, 'rounds', '7')));
const lang = option(argv, 'lang', 'ts');
const line = Math.max(1, Number(option(argv, 'line', '16')));
const pause = Math.max(0, Number(option(argv, 'pause', '300')));
const cold = !argv.includes('--no-cold');
const compareDir = option(argv, 'compare');
if (compareDir && !existsSync(join(resolve(compareDir), 'bench.html'))) {
  console.error(`--compare ${compareDir}: no bench.html there\n${usage}`);
  process.exit(2);
}
if (!(n >= 2) || !['task', 'burst'].includes(pace) || !/^[a-z0-9+#-]+$/i.test(lang)) {
  console.error(usage);
  process.exit(2);
}
const log = (...a) => console.error('[code-stream-bench]', ...a);

// The text the pages stream (the shared harness's pagekit: deltaAt), and the code the code page shows.
const deltaAt = (i) => (i === n - 1 ? '<<END>>' : 'w' + String(i % 1000).padStart(3, '0'));
const prose = Array.from({ length: n }, (_, i) => deltaAt(i)).join('');
const tokens = argv.includes('--tokens');
const code = Array.from({ length: n }, (_, i) => (i === n - 1 ? deltaAt(i) : (tokens ? `${deltaAt(i)}(${i % 10}) ` : deltaAt(i)) + ((i + 1) % line === 0 ? '\n' : ''))).join('');

const kit = await serveDir(dist);
const compare = compareDir ? await serveDir(compareDir) : null;
const floor = await serveDir(floorDir);
const url = (server, query) => `http://127.0.0.1:${server.address().port}/bench.html${query ? `?${query}` : ''}`;
const codeQuery = `code=${encodeURIComponent(lang)}&line=${line}${tokens ? '&tokens=1' : ''}`;
const PAGES = {
  code: { url: url(kit, codeQuery), warmup: {}, highlighterReady: true },
  prose: { url: url(kit, ''), warmup: {} },
  floor: { url: url(floor, 'batch=raf'), warmup: {} },
  ...(cold ? { cold: { url: url(kit, codeQuery), warmup: { code: false }, untilHighlighted: true } } : {}),
  ...(compare ? { compare: { url: url(compare, codeQuery), warmup: {}, highlighterReady: true } } : {}),
};
const names = Object.keys(PAGES);

const browser = await chromium.launch({
  executablePath: benchChromium(),
  headless: true,
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
});
const load = { before: loadavg().map((x) => +x.toFixed(2)) };
const runs = Object.fromEntries(names.map((k) => [k, []]));
try {
  for (let round = 0; round < rounds; round++) {
    const order = names.map((_, i) => names[(i + round) % names.length]);
    const parts = [];
    for (const name of order) {
      const r = await measure(PAGES[name], name);
      runs[name].push(r);
      parts.push(`${name} ${r.paintMs.toFixed(1)} ms (CPU ${r.taskMs.toFixed(0)})`);
    }
    log(`round ${round + 1}: ${parts.join(', ')}`);
  }
} finally {
  await browser.close();
  kit.close();
  floor.close();
  compare?.close();
}
load.after = loadavg().map((x) => +x.toFixed(2));

/** One fresh page: mount, warm up, GC, the measured stream with the renderer's CPU around it. */
async function measure(spec, name) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  try {
    const page = await context.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.addInitScript(() => {
      window.__codeBenchLongTasks = [];
      new PerformanceObserver((list) => window.__codeBenchLongTasks.push(...list.getEntries().map((e) => e.startTime))).observe({ type: 'longtask' });
    });
    await page.goto(spec.url, { waitUntil: 'load' });
    await page.waitForFunction(() => !!window.__bench, null, { timeout: 30_000 });
    await page.evaluate(() => window.__bench.mount(0));
    await page.evaluate((warmup) => window.__bench.stream(20, { pace: 'burst', ...warmup }), spec.warmup);
    if (spec.highlighterReady) {
      // The highlighter's chunk arrives after the warm-up's block closed: wait until that block shows highlighted.
      await page.waitForFunction(() => document.querySelector('[data-part="code-block"][data-state="highlighted"]') !== null, null, { timeout: 30_000 });
    }
    await page.waitForTimeout(pause);
    const cdp = await context.newCDPSession(page);
    await cdp.send('Performance.enable');
    await cdp.send('HeapProfiler.enable');
    await cdp.send('HeapProfiler.collectGarbage');
    const metrics = async () => Object.fromEntries((await cdp.send('Performance.getMetrics')).metrics.map((m) => [m.name, m.value]));
    const before = await metrics();
    const result = await page.evaluate(([count, how, untilHighlighted]) => new Promise((done, fail) => setTimeout(() => {
      const t0 = performance.now();
      // The first code block (cold): until it shows highlighted, the parser's and highlighter's chunks loaded meanwhile.
      const highlighted = () => new Promise((shown) => {
        const root = document.getElementById('root');
        const msgs = root.getElementsByClassName('msg');
        const check = () => msgs[msgs.length - 1]?.querySelector('[data-part="code-block"][data-state="highlighted"]') != null;
        if (check()) return shown(performance.now());
        const mo = new MutationObserver(() => { if (check()) { mo.disconnect(); shown(performance.now()); } });
        mo.observe(root, { childList: true, subtree: true, attributes: true, characterData: true });
      });
      const frame = () => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
      window.__bench.stream(count, { pace: how }).then(async (ms) => {
        if (!untilHighlighted) return done({ ms, t0 });
        const tDom = await highlighted();
        await frame();
        done({ ms: tDom - t0, paintMs: performance.now() - t0, t0, textMs: ms });
      }, fail);
    }, 0)), [n, pace, !!spec.untilHighlighted]);
    const after = await metrics();
    const detail = await page.evaluate((t0) => {
      const msgs = document.getElementsByClassName('msg');
      const last = msgs[msgs.length - 1];
      const block = last?.querySelector('[data-part="code-block"]');
      const code = block ? { state: block.getAttribute('data-state'), text: block.querySelector('pre > code')?.textContent ?? null, spans: block.querySelectorAll('pre > code span').length } : window.__benchDetail.code;
      return { ...window.__benchDetail, code, lastText: last?.textContent ?? '', longTasks: window.__codeBenchLongTasks.filter((t) => t >= t0).length };
    }, result.t0);
    if (errors.length) throw new Error(`${name}: page errors: ${errors.slice(0, 3).join(' | ')}`);
    const streamed = name !== 'prose' && name !== 'floor' ? detail.code?.text === code : detail.lastText.includes(prose);
    if (!streamed) throw new Error(`${name}: the page does not show the text streamed${detail.code ? ` (code block: ${detail.code.text?.length ?? 'none'} chars, expected ${code.length})` : ''}`);
    if ((name === 'code' || name === 'compare') && detail.code.state !== 'highlighted') throw new Error(`code: the block ends ${detail.code.state}, not highlighted`);
    return {
      ms: result.ms,
      paintMs: result.paintMs ?? detail.paintMs,
      ...(result.textMs !== undefined ? { textMs: result.textMs } : {}),
      taskMs: (after.TaskDuration - before.TaskDuration) * 1000,
      scriptMs: (after.ScriptDuration - before.ScriptDuration) * 1000,
      styleMs: (after.RecalcStyleDuration - before.RecalcStyleDuration) * 1000,
      layoutMs: (after.LayoutDuration - before.LayoutDuration) * 1000,
      longTasks: detail.longTasks,
      ...(detail.code ? { state: detail.code.state, spans: detail.code.spans } : {}),
    };
  } finally {
    await context.close();
  }
}

const median = (xs) => {
  const v = [...xs].sort((a, b) => a - b);
  const m = v.length >> 1;
  return v.length % 2 ? v[m] : (v[m - 1] + v[m]) / 2;
};
const fig = (rs) => ({
  paintMs: +median(rs.map((r) => r.paintMs)).toFixed(1),
  ms: +median(rs.map((r) => r.ms)).toFixed(1),
  taskMs: +median(rs.map((r) => r.taskMs)).toFixed(1),
  scriptMs: +median(rs.map((r) => r.scriptMs)).toFixed(1),
  styleMs: +median(rs.map((r) => r.styleMs)).toFixed(1),
  layoutMs: +median(rs.map((r) => r.layoutMs)).toFixed(1),
  longTasks: Math.max(...rs.map((r) => r.longTasks)),
  ...(rs[0]?.textMs !== undefined ? { textMs: +median(rs.map((r) => r.textMs)).toFixed(1) } : {}),
});
const out = { n, pace, lang, line, tokens, rounds, load, chars: { code: code.length, prose: prose.length } };
for (const name of names) out[name] = fig(runs[name]);
const ratio = (a, b) => +(a / b).toFixed(2);
out.ratio = Object.fromEntries(names.filter((k) => k !== 'floor').map((k) => [k, {
  paint: ratio(out[k].paintMs, out.floor.paintMs), dom: ratio(out[k].ms, out.floor.ms), cpu: ratio(out[k].taskMs, out.floor.taskMs),
}]));
out.highlighted = { state: runs.code[0].state, spans: runs.code[0].spans, coldStates: cold ? [...new Set(runs.cold.map((r) => r.state))] : [] };
console.log(JSON.stringify(out));
