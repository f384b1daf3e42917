#!/usr/bin/env node
// Discovery time of the slash-skill query over a catalog of 5,000 skills (plus the built-ins),
// against dist/runtime.js. Prints one JSON line: { discovery: { skills, runs, msMedian, msP95, results } }.
// usage: node bench/slash-bench.mjs [--runtime dist/runtime.js] [--runs 200]
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const argv = process.argv.slice(2);
const opt = (name, def) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1] : def;
};
const runtime = await import(pathToFileURL(resolve(opt('runtime', 'dist/runtime.js'))).href);
const RUNS = Number(opt('runs', 200));
const N = 5_000;
const DISCOVERY = 'namespace:{user}/Skill|{space}/Skill|Skill nodeType:Skill sort:order';

const catalog = runtime.createCatalog([...runtime.BUILT_IN_SKILL_NODES, ...runtime.builtInNodes()]);
const scopes = ['Skill', 'acme/Skill', 'alice/Skill', 'bob/Skill', 'other/Skill'];
for (let i = 0; i < N; i++) {
  const ns = scopes[i % scopes.length];
  catalog.put(
    runtime.catalogNode(`${ns}/skill-${i}`, {
      nodeType: 'Skill',
      name: `/skill-${i}`,
      description: `Generated skill number ${i} for the discovery benchmark`,
      order: (i * 7919) % 1000,
      keywords: [`k${i % 50}`],
      ...(ns === 'alice/Skill' ? { owner: 'alice' } : ns === 'bob/Skill' ? { owner: 'bob' } : {}),
      skill: { instructions: 'Do the thing.', autoMount: false, launchesSubThread: false },
    }),
  );
}

const context = { user: 'alice', space: 'acme' };
let results = 0;
for (let i = 0; i < 20; i++) results = catalog.query(DISCOVERY, context).length; // warm-up
const times = [];
for (let i = 0; i < RUNS; i++) {
  const t0 = performance.now();
  results = catalog.query(DISCOVERY, context).length;
  times.push(performance.now() - t0);
}
times.sort((a, b) => a - b);
const pick = (q) => times[Math.min(times.length - 1, Math.floor(q * times.length))];
console.log(JSON.stringify({ discovery: { skills: N, runs: RUNS, query: DISCOVERY, results, msMedian: pick(0.5), msP95: pick(0.95) } }));
