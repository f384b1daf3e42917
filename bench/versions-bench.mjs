#!/usr/bin/env node
// Switching a version in the browser (issue 40): the bench page (a build of bench/bench.html)
// with `?versions=V` mounts n messages with V versions, each switched back (bench/src/bench.jsx),
// then switches a message in the middle of the thread to its edit and back, and the last
// regenerated message's reply to its regeneration and back, as a user's click writes a
// `version.selected`. Each switch is timed to the DOM that shows the version and to the frame after
// it, with the longest task meanwhile; a fresh page per round.
//   node bench/versions-bench.mjs --dist DIR [--n 10000] [--versions 1000] [--rounds 5]
// Prints one JSON line: { n, versions, rounds, switches: { middle, middleBack, end, endBack }: { paintMs, domMs, longestTaskMs } (medians; longest task: the worst) }.
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { chromium } from 'playwright-core';
import { benchChromium } from './lib/chromium.mjs';
import { option, serveDir } from './lib/pages.mjs';

const argv = process.argv.slice(2);
const dist = option(argv, 'dist');
if (!dist || !existsSync(join(resolve(dist), 'bench.html'))) {
  console.error('usage: node bench/versions-bench.mjs --dist DIR (a build of bench/bench.html) [--n 10000] [--versions 1000] [--rounds 5]');
  process.exit(2);
}
const n = Number(option(argv, 'n', '10000'));
const versions = Number(option(argv, 'versions', '1000'));
const rounds = Number(option(argv, 'rounds', '5'));
const log = (...a) => console.error('[versions-bench]', ...a);

// Where the page puts the versions (bench.jsx emitVersioned): user message u (0-based) is m-(2u);
// version j is of user (j * step) % users; even j an edit e-j (reply ea-j), odd j a regeneration r-j (reply ra-j).
const users = Math.floor(n / 2);
const step = Math.max(1, Math.floor(users / versions));
const of = (j) => `m-${2 * ((j * step) % users)}`;
// The first reply to a version's message (the row after it in the thread as first sent).
const replyOf = (j) => `m-${2 * ((j * step) % users) + 1}`;
const middleJ = (() => { for (let j = Math.floor(versions / 2); j < versions; j++) if (j % 2 === 0) return j; return 0; })();
const endJ = (() => { for (let j = versions - 1; j >= 0; j--) if (j % 2 === 1) return j; return 1; })();
const switches = {
  middle: { part: 'message', messageId: of(middleJ), version: `e-${middleJ}`, shows: `ea-${middleJ}` },
  // Back to a longer continuation: the view stays on the message switched, its first reply below it.
  middleBack: { part: 'message', messageId: of(middleJ), version: of(middleJ), shows: replyOf(middleJ) },
  end: { part: 'reply', messageId: of(endJ), version: `r-${endJ}`, shows: `ra-${endJ}` },
  endBack: { part: 'reply', messageId: of(endJ), version: `${of(endJ)}.reply`, shows: replyOf(endJ) },
};

const server = await serveDir(dist);
const browser = await chromium.launch({
  executablePath: benchChromium(),
  headless: true,
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
});
const runs = Object.fromEntries(Object.keys(switches).map((k) => [k, []]));
try {
  for (let round = 1; round <= rounds; round++) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`http://127.0.0.1:${server.address().port}/bench.html?versions=${versions}`);
    await page.waitForFunction(() => !!window.__bench && !!window.__benchVersions);
    const mountMs = await page.evaluate((count) => window.__bench.mount(count), n);
    await page.waitForTimeout(1000);
    const line = [`round ${round}: mount ${mountMs.toFixed(1)} ms`];
    for (const [name, s] of Object.entries(switches)) {
      // The reader at the newest rows (a switch back to a longer continuation leaves them where
      // they were), as "Jump to latest" leaves them, before a switch at the end.
      if (name === 'end') {
        await page.evaluate(() => {
          const log = document.querySelector('[role="log"]');
          log.scrollTop = log.scrollHeight;
        });
        await page.waitForTimeout(500);
      }
      const r = await Promise.race([
        page.evaluate((args) => window.__benchVersions.switchVersion(args), s),
        new Promise((_, fail) => setTimeout(() => fail(new Error(`${name}: #${s.shows} did not show within 10 s`)), 10_000)),
      ]);
      runs[name].push(r);
      line.push(`${name} ${r.paintMs.toFixed(1)} ms`);
      await page.waitForTimeout(300);
    }
    if (errors.length) throw new Error(`page errors: ${errors.slice(0, 3).join(' | ')}`);
    log(line.join(', '));
    await context.close();
  }
} finally {
  await browser.close();
  server.close();
}
const median = (xs) => {
  const v = [...xs].sort((a, b) => a - b);
  const m = v.length >> 1;
  return v.length % 2 ? v[m] : (v[m - 1] + v[m]) / 2;
};
const out = {};
for (const [name, rs] of Object.entries(runs)) {
  out[name] = {
    paintMs: +median(rs.map((r) => r.paintMs)).toFixed(1),
    domMs: +median(rs.map((r) => r.domMs)).toFixed(1),
    longestTaskMs: +Math.max(...rs.map((r) => r.longestTaskMs)).toFixed(1),
  };
}
console.log(JSON.stringify({ n, versions, rounds, switches: out }));
