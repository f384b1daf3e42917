// Interleaved rounds of the shared driver (harness/bench.mjs) over several pages: in every round,
// for every test, each page that takes part runs once (a fresh browser, one measured run; the
// driver's contention guard re-runs a contended one up to --extra times), the page order rotating
// from round to round. So the kit and the anchors are measured minutes apart at most, under the
// same load, and a figure is the median over rounds.
//
// runRounds({ harness, pages, plan, rounds, out, run, log, chromium }) -> { [label]: { [test]: Aggregate } }
//   pages: { label: { dist, page = 'bench.html', query = '' } }
//   plan:  [{ test: 'stream:2000:task', labels: ['chatsurface', 'naive', …], rounds? }]; `rounds` of a
//          test: its own number of rounds (default: the `rounds` given); a test with fewer rounds than
//          another takes part in the first ones
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const median = (xs) => {
  const v = xs.filter((x) => typeof x === 'number' && !Number.isNaN(x)).sort((a, b) => a - b);
  if (!v.length) return null;
  const m = v.length >> 1;
  return v.length % 2 ? v[m] : (v[m - 1] + v[m]) / 2;
};

/** The figures of one used run, flattened (same names as the driver's medians). */
function figures(r, kind) {
  const f = {
    ms: r.ms, paintMs: r.detail?.paintMs, domMs: r.detail?.domMs,
    longTaskCount: r.longTaskCount, longTaskTotalMs: r.longTaskTotalMs, longTaskMaxMs: r.longTaskMaxMs,
    scriptMs: r.cdp.scriptMs, layoutMs: r.cdp.layoutMs, recalcStyleMs: r.cdp.recalcStyleMs, taskMs: r.cdp.taskMs,
    layoutCount: r.cdp.layoutCount, otherCpu: r.otherCpu,
  };
  if (kind === 'mount') {
    Object.assign(f, {
      nodesAfterGc: r.nodesAfterGc, jsHeapAfterGc: r.jsHeapAfterGc, elements: r.dom?.elements,
      appendFirstMs: r.appendFirst?.ms, appendFirstTaskMs: r.appendFirst?.cdp.taskMs, appendMedianMs: r.appendMedianMs,
      appendMaxLongTaskMs: Math.max(0, ...(r.appends ?? []).map((a) => a.longTaskMaxMs)),
    });
  } else f.finalLen = r.finalLen;
  return f;
}

export async function runRounds({ harness, pages, plan, rounds, out, run, log, chromium, extra }) {
  const dir = join(out, 'rounds');
  mkdirSync(dir, { recursive: true });
  const collected = {}; // label → test → { runs: [], attempts, clean }
  const total = Math.max(0, ...plan.map((p) => p.rounds ?? rounds));
  for (let round = 0; round < total; round++) {
    for (const { test, labels, rounds: own = rounds } of plan) {
      if (round >= own) continue;
      const k = round % labels.length;
      const order = [...labels.slice(k), ...labels.slice(0, k)];
      for (const label of order) {
        const p = pages[label];
        const file = `${label}~${test.replaceAll(':', '-')}~r${round + 1}`;
        const args = [harness, '--label', file, '--dist', p.dist, '--page', p.page ?? 'bench.html', '--tests', test, '--runs', '1', '--out', dir];
        if (p.query) args.push('--query', p.query);
        if (chromium) args.push('--chromium', chromium);
        if (extra !== undefined) args.push('--extra', String(extra));
        log(`round ${round + 1}/${own} ${test} ${label}`);
        const slot = ((collected[label] ??= {})[test] ??= { runs: [], attempts: 0, clean: 0, errors: [] });
        try {
          await run(process.execPath, args, { capture: true, label: `driver ${label} ${test}` });
        } catch (e) {
          slot.errors.push(`round ${round + 1}: ${e.message}`);
          continue;
        }
        const res = JSON.parse(readFileSync(join(dir, `${file}.json`), 'utf8'));
        const t = res.tests[test];
        slot.browserVersion = res.browserVersion;
        slot.info = res.info;
        slot.kind = t.kind;
        slot.n = t.n;
        slot.attempts += t.attempts;
        const used = t.runs.find((r) => r.used);
        if (used) {
          if (used.clean) slot.clean += 1;
          slot.runs.push(used);
          slot.errors.push(...(used.errors ?? []));
        }
      }
    }
  }
  const result = {};
  for (const [label, tests] of Object.entries(collected)) {
    for (const [test, slot] of Object.entries(tests)) {
      const figs = slot.runs.map((r) => figures(r, slot.kind));
      const keys = new Set(figs.flatMap((f) => Object.keys(f)));
      const med = Object.fromEntries([...keys].map((key) => [key, median(figs.map((f) => f[key]))]));
      // the worst round too: long tasks are a "never" target
      med.longTaskMaxMsWorst = Math.max(0, ...figs.map((f) => f.longTaskMaxMs ?? 0));
      if (slot.kind === 'mount') med.appendMaxLongTaskMsWorst = Math.max(0, ...figs.map((f) => f.appendMaxLongTaskMs ?? 0));
      (result[label] ??= {})[test] = {
        kind: slot.kind, n: slot.n, rounds: slot.runs.length, cleanRuns: slot.clean, attempts: slot.attempts,
        median: med, runs: slot.runs, errors: slot.errors, info: slot.info, browserVersion: slot.browserVersion,
      };
    }
  }
  return result;
}
