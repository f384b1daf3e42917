#!/usr/bin/env node
// What one keystroke costs the slash combobox, counted rather than timed (so it holds on a loaded
// machine): per filter key and per ↓ key, the React commits, the components that rendered in them,
// and from a Chromium trace the style recalcs, layouts and forced layouts (those run from script,
// before the frame), beside the same counts on the floor page (bench/keystroke-floor.html: a bare
// React textarea with the same probe, whose own forced layout per key is the probe's).
//   node bench/slash-keystroke-profile.mjs [--skills 10000] [--keys 20] [--no-build]
// Builds both pages unminified (component names readable) into /tmp/slash-keystroke-profile,
// types "/team-4", then --keys filter keys (digits and Backspaces) and --keys ArrowDowns.
// Prints one JSON line: { profile: { skills, kit: { filter, arrows }, floor: { filter, arrows } } },
// each { commits, rendered: { Component: renders }, recalcs, layouts, forcedLayouts } per key.
// env: CHROMIUM_PATH (default /usr/bin/chromium; through bench/lib/chromium-quiet, see bench/lib/chromium.mjs).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { benchChromium } from './lib/chromium.mjs';
import { buildPage, option, serveDir as serve } from './lib/pages.mjs';

const argv = process.argv.slice(2);
const opt = (name, def) => option(argv, name, def);
const SKILLS = Number(opt('skills', 10_000));
const KEYS = Number(opt("keys", 24));
const OUT = opt('out', '/tmp/slash-keystroke-profile');
const CHROMIUM = benchChromium();
const log = (...a) => console.error('[slash-keystroke-profile]', ...a);

// Runs in the page before React: a devtools hook that counts commits and, per commit, the
// components that rendered (React's own test: a fiber that performed work in this commit).
const hook = () => {
  const PERFORMED_WORK = 1;
  const nameOf = (type) => (typeof type === 'function' ? type.displayName || type.name : type && (type.displayName || type.type?.displayName || type.type?.name || type.render?.displayName || type.render?.name));
  window.__commits = [];
  window.__REACT_DEVTOOLS_GLOBAL_HOOK__ = {
    supportsFiber: true,
    renderers: new Map(),
    inject(renderer) {
      this.renderers.set(1, renderer);
      return 1;
    },
    checkDCE() {},
    onScheduleFiberRoot() {},
    onCommitFiberUnmount() {},
    onPostCommitFiberRoot() {},
    onCommitFiberRoot(_id, root) {
      const rendered = {};
      // A subtree React bailed out of keeps its old fibers (the parent's child is its alternate's).
      const walk = (parent) => {
        if (parent.alternate && parent.child === parent.alternate.child) return;
        for (let f = parent.child; f; f = f.sibling) {
          // Function, forwardRef, memo and simple memo components (tags 0, 11, 14, 15).
          if ((f.tag === 0 || f.tag === 11 || f.tag === 14 || f.tag === 15) && (f.flags & PERFORMED_WORK) !== 0) {
            const name = nameOf(f.type) || nameOf(f.elementType) || '(anonymous)';
            rendered[name] = (rendered[name] ?? 0) + 1;
          }
          walk(f);
        }
      };
      walk(root.current);
      window.__commits.push(rendered);
    },
  };
};

let traceCount = 0;
const TRACE_CATEGORIES = ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'disabled-by-default-devtools.timeline.stack', 'blink.user_timing'];

/** Types `keys` one at a time (a gap between), tracing; returns per-key counts. */
async function profileKeys(page, cdp, keys) {
  const events = [];
  cdp.on('Tracing.dataCollected', ({ value }) => events.push(...value));
  const commitsBefore = await page.evaluate(() => window.__commits.length);
  await cdp.send('Tracing.start', { categories: TRACE_CATEGORIES.join(','), transferMode: 'ReportEvents' });
  for (const key of keys) {
    await page.waitForTimeout(60);
    await page.keyboard.press(key);
  }
  await page.waitForTimeout(200);
  const done = new Promise((ok) => cdp.once('Tracing.tracingComplete', ok));
  await cdp.send('Tracing.end');
  await done;
  cdp.removeAllListeners('Tracing.dataCollected');
  if (opt('trace', null)) writeFileSync(`${opt('trace')}-${keys[0].length > 1 ? 'arrows' : 'filter'}-${traceCount++}.json`, JSON.stringify(events));
  const commits = await page.evaluate((n) => window.__commits.slice(n), commitsBefore);
  const rendered = {};
  for (const c of commits) for (const [name, n] of Object.entries(c)) rendered[name] = (rendered[name] ?? 0) + n;
  // The renderer's main thread: the one that ran the keydown events.
  const main = events.find((e) => e.name === 'EventDispatch' && e.args?.data?.type === 'keydown');
  const onMain = events.filter((e) => main && e.pid === main.pid && e.tid === main.tid && (e.ph === 'X' || e.ph === 'B'));
  const count = (name) => onMain.filter((e) => e.name === name).length;
  const forced = onMain.filter((e) => e.name === 'Layout' && e.args?.beginData?.stackTrace?.length).length;
  const forcedRecalcs = onMain.filter((e) => e.name === 'UpdateLayoutTree' && e.args?.beginData?.stackTrace?.length).length;
  if (argv.includes('--detail')) log(JSON.stringify(commits.slice(0, 8)));
  const per = (n) => Math.round((n / keys.length) * 100) / 100;
  const ms = (name) => per(onMain.filter((e) => e.name === name).reduce((sum, e) => sum + (e.dur ?? 0), 0) / 1000);
  const recalcElements = onMain.filter((e) => e.name === 'UpdateLayoutTree').reduce((sum, e) => sum + (e.args?.elementCount ?? 0), 0);
  const layoutObjects = onMain.filter((e) => e.name === 'Layout').reduce((sum, e) => sum + (e.args?.beginData?.dirtyObjects ?? 0), 0);
  const scripting = onMain.filter((e) => e.name === 'EventDispatch' && ['keydown', 'keypress', 'input', 'keyup', 'beforeinput', 'textInput'].includes(e.args?.data?.type));
  return {
    keys: keys.length,
    commits: per(commits.length),
    rendered: Object.fromEntries(Object.entries(rendered).sort((a, b) => b[1] - a[1]).map(([k, v]) => [k, per(v)])),
    recalcs: per(count('UpdateLayoutTree')),
    forcedRecalcs: per(forcedRecalcs),
    layouts: per(count('Layout')),
    forcedLayouts: per(forced),
    recalcMs: ms('UpdateLayoutTree'),
    recalcElements: per(recalcElements),
    layoutMs: ms('Layout'),
    layoutDirtyObjects: per(layoutObjects),
    paintMs: ms('Paint'),
    prePaintMs: ms('PrePaint'),
    keyEventMs: per(scripting.reduce((s, e) => s + (e.dur ?? 0), 0) / 1000),
  };
}

function filterKeys(n) {
  const keys = [];
  for (let c = 0; keys.length < n; c++) {
    const tail = String(1000 + ((c * 37) % 999)).slice(1);
    keys.push(...tail, ...Array(tail.length).fill('Backspace'));
  }
  return keys.slice(0, n);
}

let server;
let browser;
try {
  if (!argv.includes('--no-build')) {
    log('building the two pages unminified …');
    await buildPage('slash-keystroke.html', join(OUT, 'kit'), { minify: false });
    await buildPage('keystroke-floor.html', join(OUT, 'floor'), { minify: false });
  }
  server = await serve(OUT);
  const base = `http://127.0.0.1:${server.address().port}`;
  const { chromium } = await import('playwright-core');
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu', '--no-first-run'] });
  const run = async (url, slash) => {
    const page = await browser.newPage({ viewport: { width: 1000, height: 800 } });
    await page.addInitScript(hook);
    await page.goto(url);
    const cdp = await page.context().newCDPSession(page);
    await page.getByRole('textbox', { name: 'Message' }).focus();
    await page.keyboard.press('/');
    if (slash) await page.waitForFunction(() => document.querySelectorAll('[data-part="slash-option"]').length > 0);
    for (const ch of 'team-4') await page.keyboard.press(ch);
    await page.waitForTimeout(300);
    const filter = await profileKeys(page, cdp, filterKeys(KEYS));
    const arrows = await profileKeys(page, cdp, Array(KEYS).fill('ArrowDown'));
    await page.close();
    return { filter, arrows };
  };
  const floor = await run(`${base}/floor/keystroke-floor.html`, false);
  const kit = await run(`${base}/kit/slash-keystroke.html?skills=${SKILLS}`, true);
  console.log(JSON.stringify({ profile: { skills: SKILLS, kit, floor } }));
} catch (e) {
  console.error(e);
  process.exitCode = 1;
} finally {
  await browser?.close().catch(() => {});
  server?.close();
}
