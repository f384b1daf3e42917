#!/usr/bin/env node
// Keystroke to paint of the slash combobox with 5,000 (and --skills N,M…) skills, in headless Chromium, beside a floor:
// a bare React page with a controlled message box (bench/keystroke-floor.html), same probe, same keys;
// and that page with six options whose ↓ moves a highlight band (?highlight=1: the least a key that
// changes the screen costs; the bare box's ↓ changes nothing on screen), and with sixty options in
// a list that shows six, a ↓ past the view scrolling it one option (?highlight=scroll).
//   builds both pages (bench/vite.config.mjs), serves them on 127.0.0.1 (random port), and on each
//   types "/" then, per cycle, "team-4" plus three more characters and as many Backspaces (each
//   keystroke re-filters 5,006 skills and re-renders the virtualised list), then 40 ArrowDowns.
// Between keys it waits as a fast typist does: 0.6–1.4 × --gap ms (default 100 ms, about 120 words
// a minute), so keys land anywhere in the 60 Hz frame; --gap 0 presses them back to back (a random
// 0–16.7 ms apart). Per key kind it reports, in ms (n, median, p95, max):
//   paint: keydown → after the next paint (rAF, then a task); includes the wait for the next frame;
//   work:  keydown → handled, committed, styled and laid out (what the key costs before a paint);
//   cpu:   main-thread time the key caused until after that paint (CDP Performance.getMetrics
//          TaskDuration, thread ticks): input handling, React, effects, style, layout, paint;
//   script, style: the parts of it that ran script and recalculated style (ScriptDuration,
//          RecalcStyleDuration), so a page's excess over another's can be told apart.
// Prints one JSON line: { slashKeystroke: { skills, kit: { filter, arrows }, floor: { filter, arrows }, floorHighlight: { … }, floorScrolled: { … }, check, … } }.
// usage: node bench/slash-keystroke.mjs [--skills 5000,10000] [--cycles 20] [--gap 100] [--out bench-results/pages/slash-keystroke] [--no-build]
// env: CHROMIUM_PATH (default /usr/bin/chromium; through bench/lib/chromium-quiet, see bench/lib/chromium.mjs). Stops the server and the browser on exit.
import { basename, dirname, resolve } from 'node:path';
import { benchChromium } from './lib/chromium.mjs';
import { buildPage as build, option, repo, serveDir as serve } from './lib/pages.mjs';

const argv = process.argv.slice(2);
const opt = (name, def) => option(argv, name, def);
const CYCLES = Number(opt('cycles', 20));
const SKILL_COUNTS = String(opt('skills', '5000')).split(',').map(Number);
const OUT = resolve(repo, opt('out', 'bench-results/pages/slash-keystroke'));
const FLOOR_OUT = `${OUT}-floor`;
const CHROMIUM = benchChromium();
const log = (...a) => console.error('[slash-keystroke]', ...a);

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

const FRAME_MS = 1000 / 60;
const GAP_MS = Number(opt('gap', 100));

/** Types `keys` on the page one at a time, at a typist's pace (see --gap); returns per-key figures. */
async function typeKeys(page, cdp, keys) {
  // The renderer's task, script and style-recalc time so far, in ms of its main thread.
  const times = async () => {
    const { metrics } = await cdp.send('Performance.getMetrics');
    const ms = (name) => metrics.find((m) => m.name === name).value * 1000;
    return { task: ms('TaskDuration'), script: ms('ScriptDuration'), style: ms('RecalcStyleDuration') };
  };
  const paint = []; const work = []; const cpu = []; const script = []; const style = [];
  for (const key of keys) {
    await new Promise((ok) => setTimeout(ok, GAP_MS ? GAP_MS * (0.6 + 0.8 * Math.random()) : Math.random() * FRAME_MS));
    const before = await times();
    const workBefore = await page.evaluate(() => { window.__pending = window.__nextSample(); return window.__work.length; });
    await page.keyboard.press(key);
    await page.evaluate(() => window.__pending);
    const after = await times();
    cpu.push(after.task - before.task);
    script.push(after.script - before.script);
    style.push(after.style - before.style);
    const [p, w] = await page.evaluate((n) => [window.__samples[window.__samples.length - 1], window.__work.slice(n)], workBefore);
    paint.push(p);
    if (w.length) work.push(w[0]);
  }
  return { paint, work, cpu, script, style };
}

/** The keys of the filter cycles: three characters after "team-4", then as many Backspaces. */
function filterKeys(cycles) {
  const keys = [];
  for (let c = 0; c < cycles; c++) {
    const tail = String(1000 + ((c * 37) % 999)).slice(1); // three digits: 001…998
    keys.push(...tail, ...Array(tail.length).fill('Backspace'));
  }
  return keys;
}

const FIGURES = ['paint', 'work', 'cpu', 'script', 'style'];
const summary = (raw) => Object.fromEntries(FIGURES.map((f) => [f, stats(raw[f])]));
/** Pools the samples of several runs ({ paint: [], work: [], cpu: [], script: [], style: [] } each). */
const merge = (runs) => Object.fromEntries(FIGURES.map((f) => [f, runs.flatMap((r) => r[f])]));

/** Opens one page, types the same keys, returns { filter, arrows } and the page for checks. */
async function measure(url, { slash }) {
  const page = await browser.newPage({ viewport: { width: 1000, height: 800 } });
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(url);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable', { timeDomain: 'threadTicks' });
  const input = page.getByRole('textbox', { name: 'Message' });
  await input.focus();
  await page.keyboard.press('/');
  if (slash) {
    await page.getByRole('listbox', { name: 'Slash skills' }).waitFor();
    await page.waitForFunction(() => document.querySelectorAll('[data-part="slash-option"]').length > 0);
  }
  for (const ch of 'team-4') await page.keyboard.press(ch);
  await page.waitForTimeout(100);
  const filter = await typeKeys(page, cdp, filterKeys(CYCLES));
  const arrows = await typeKeys(page, cdp, Array(40).fill('ArrowDown'));
  return { page, errors, raw: { filter, arrows } };
}

try {
  if (!argv.includes('--no-build')) {
    log('building bench/slash-keystroke.html and bench/keystroke-floor.html …');
    await build('slash-keystroke.html', OUT);
    await build('keystroke-floor.html', FLOOR_OUT);
  }
  server = await serve(dirname(OUT));
  const base = `http://127.0.0.1:${server.address().port}`;
  const { chromium } = await import('playwright-core');
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
  // The floors and each skill count in turn, then in reverse, twice (each figure: the four pages pooled;
  // a page's ↓ median moves by about 0.3 ms from one page to the next).
  const floorRuns = [];
  // The floor page with six options whose ↓ moves a highlight band (?highlight=1): the least a
  // key that changes the screen costs, where the bare box's ↓ changes nothing.
  const highlightRuns = [];
  // That page with sixty options in a list that shows six (?highlight=scroll): a ↓ past the view
  // also scrolls the list one option, as the kit's ↓ does after its sixth key.
  const scrolledRuns = [];
  const kitRuns = new Map(SKILL_COUNTS.map((n) => [n, []]));
  const errors = [];
  let check = null;
  let optionsInDom = null;
  for (const order of [SKILL_COUNTS, [...SKILL_COUNTS].reverse(), SKILL_COUNTS, [...SKILL_COUNTS].reverse()]) {
    for (const [query, runs] of [['', floorRuns], ['?highlight=1', highlightRuns], ['?highlight=scroll', scrolledRuns]]) {
      const floor = await measure(`${base}/${basename(FLOOR_OUT)}/keystroke-floor.html${query}`, { slash: false });
      await floor.page.close();
      runs.push(floor.raw);
      errors.push(...floor.errors);
    }
    for (const n of order) {
      const kit = await measure(`${base}/${basename(OUT)}/slash-keystroke.html?skills=${n}`, { slash: true });
      kitRuns.get(n).push(kit.raw);
      errors.push(...kit.errors);
      const { page } = kit;
      if (n === SKILL_COUNTS[0] && check === null) {
        optionsInDom = await page.evaluate(() => document.querySelectorAll('[data-part="slash-option"]').length);
        // The list shows what was typed: after "/team-4" (the cycles leave it so), "999" leaves one option.
        await page.keyboard.type('999');
        await page.waitForFunction(() => document.querySelectorAll('[data-part="slash-option"]').length === 1);
        check = await page.locator('[data-part="slash-option-name"]').first().textContent();
      }
      await page.close();
    }
  }
  const pool = (runs) => ({
    filter: summary(merge(runs.map((r) => r.filter))),
    arrows: summary(merge(runs.map((r) => r.arrows))),
  });
  const bySkills = Object.fromEntries(SKILL_COUNTS.map((n) => [n, pool(kitRuns.get(n))]));
  const result = {
    slashKeystroke: {
      skills: SKILL_COUNTS[0],
      gapMs: GAP_MS,
      kit: bySkills[SKILL_COUNTS[0]],
      bySkills,
      floor: pool(floorRuns),
      floorHighlight: pool(highlightRuns),
      floorScrolled: pool(scrolledRuns),
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
