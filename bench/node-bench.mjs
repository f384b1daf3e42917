#!/usr/bin/env node
// Node-side micro-benchmarks of the built runtime (dist/runtime.js): fold throughput, invoke
// overhead, and the overhead of a script capability over a bare process spawn (dist/server.js).
// Run by scripts/bench.mjs in a child process (`node --expose-gc`), prints one JSON object
// on stdout. Standalone:
//   node --expose-gc bench/node-bench.mjs [--runtime dist/runtime.js] [--server dist/server.js] [--runs 5]
//        [--events 200000] [--rows-events 200000] [--rows 10000] [--calls 20000] [--spawns 40]
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { performance } from 'node:perf_hooks';
import { z } from 'zod';

const argv = process.argv.slice(2);
const opt = (name, def) => {
  const i = argv.indexOf('--' + name);
  return i >= 0 && i + 1 < argv.length ? argv[i + 1] : def;
};
const runtimePath = resolve(opt('runtime', 'dist/runtime.js'));
const RUNS = Math.max(1, Number(opt('runs', '5')));
const STREAM_EVENTS = Number(opt('events', '200000'));
const ROWS_EVENTS = Number(opt('rows-events', '200000'));
const ROWS = Number(opt('rows', '10000'));
const CALLS = Number(opt('calls', '20000'));
const serverPath = resolve(opt('server', 'dist/server.js'));
const SPAWNS = Math.max(5, Number(opt('spawns', '40')));

const rt = await import(pathToFileURL(runtimePath).href);
const { fold, foldAll, initialThreadState, createRegistry, defineCapability, invoke, createEventLog, textResult } = rt;

const gc = typeof globalThis.gc === 'function' ? globalThis.gc : () => {};
const median = (xs) => {
  const v = [...xs].sort((a, b) => a - b);
  const m = v.length >> 1;
  return v.length % 2 ? v[m] : (v[m - 1] + v[m]) / 2;
};
const log = (...a) => console.error('[node-bench]', ...a);

// ---------------------------------------------------------------- event streams
const TS0 = 1_767_000_000_000;
const DRIVER = { id: 'bench', label: 'Bench model' };
const ACTOR = { id: 'enricher', name: 'Enricher', glyph: 'E' };
const WORDS = ['the ', 'quick ', 'brown ', 'fox ', 'jumps ', 'over ', 'a ', 'lazy ', 'dog, ', 'then ', 'reads ', 'rows. '];

/**
 * A realistic thread stream: per turn a user message, an assistant message.created, `deltas`
 * message.delta events (one word each), message.done with usage, and a capability cycle
 * (started, `progress` × capability.progress, `outputs` × capability.output, done).
 * Returns exactly `total` events with seq from `seq0 + 1`.
 */
function makeStream(total, { seq0 = 0, deltas = 400, progress = 4, outputs = 8 } = {}) {
  const events = [];
  let seq = seq0;
  const push = (e) => { seq++; events.push({ ...e, seq, ts: TS0 + seq }); };
  const counts = {};
  for (let turn = 0; events.length < total; turn++) {
    const t = `turn_${turn}`;
    const m = `msg_a${turn}`;
    const inv = `inv_${turn}`;
    push({ type: 'message.created', message_id: `msg_u${turn}`, role: 'user', text: `Please enrich the rows of batch ${turn} and summarise what changed.`, turn_id: t });
    push({ type: 'message.created', message_id: m, role: 'assistant', text: '', turn_id: t, driver: DRIVER });
    for (let i = 0; i < deltas; i++) push({ type: 'message.delta', message_id: m, delta: WORDS[i % WORDS.length] });
    push({ type: 'message.done', message_id: m, usage: { input_tokens: 1200 + turn, output_tokens: deltas } });
    push({ type: 'capability.started', invocation_id: inv, capability: 'records.enrich', title: 'Enrich records', args: { batch: turn, fields: ['company', 'country'] }, actor: ACTOR, turn_id: t });
    for (let i = 1; i <= progress; i++) push({ type: 'capability.progress', invocation_id: inv, progress: i, total: progress, message: `batch ${turn}: ${i}/${progress}` });
    for (let i = 0; i < outputs; i++) push({ type: 'capability.output', invocation_id: inv, stream: 'stdout', text: `row ${i}: enriched company=Acme country=DE\n` });
    push({ type: 'capability.done', invocation_id: inv, result: { content: [{ type: 'text', text: `Enriched ${outputs} rows.` }], structuredContent: { enriched: outputs, batch: turn } } });
  }
  events.length = total;
  for (const e of events) counts[e.type] = (counts[e.type] ?? 0) + 1;
  return { events, counts };
}

/** A thread state holding `n` rows (alternating user/assistant messages, ~200 chars, done). */
function stateWithRows(n) {
  let s = initialThreadState;
  let seq = 0;
  const text = (i) => `#${i} ` + 'lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor incididunt ut labore et dolore magna aliqua ut enim ad minim veniam quis nostrud exercitation ullamco laboris nisi ut '.slice(0, 190);
  // Built with one fold per event like a replayed history, but without timing it.
  for (let i = 0; i < n; i++) {
    const role = i % 2 === 0 ? 'user' : 'assistant';
    s = fold(s, { type: 'message.created', seq: ++seq, ts: TS0 + seq, message_id: `h-${i}`, role, text: text(i) });
    if (role === 'assistant') s = fold(s, { type: 'message.done', seq: ++seq, ts: TS0 + seq, message_id: `h-${i}` });
  }
  if (s.rows.length !== n) throw new Error(`expected ${n} rows, got ${s.rows.length}`);
  return s;
}

/** A state equal to `state` that no earlier run folded from (its rows are copied at its first write). */
const fresh = (state) => ({ ...state, rows: state.rows.slice() });

function foldRun(state, events, batch = 1) {
  gc();
  const t0 = performance.now();
  let s = fresh(state);
  if (batch === 1) for (let i = 0; i < events.length; i++) s = fold(s, events[i]);
  else for (let i = 0; i < events.length; i += batch) s = foldAll(s, events.slice(i, i + batch));
  const ms = performance.now() - t0;
  return { ms, state: s };
}

function measureFold(name, state, events, counts, batch = 1) {
  // Warm-up on a slice (JIT), untimed.
  foldRun(state, events.slice(0, Math.min(events.length, 50000)), batch);
  const times = [];
  let last;
  for (let r = 0; r < RUNS; r++) {
    const { ms, state: s } = foldRun(state, events, batch);
    times.push(ms);
    last = s;
    log(`${name} run ${r + 1}: ${events.length} events in ${ms.toFixed(0)} ms = ${Math.round(events.length / (ms / 1000)).toLocaleString('en-US')} ev/s`);
  }
  if (last.malformed !== 0) throw new Error(`${name}: ${last.malformed} events were malformed`);
  const med = median(times);
  return {
    events: events.length,
    mix: counts,
    rowsBefore: state.rows.length,
    rowsAfter: last.rows.length,
    runs: RUNS,
    msMedian: +med.toFixed(1),
    msAll: times.map((t) => +t.toFixed(1)),
    eventsPerSecMedian: Math.round(events.length / (med / 1000)),
    usPerEventMedian: +((med * 1000) / events.length).toFixed(3),
  };
}

// ---------------------------------------------------------------- invoke
async function measureInvoke(name, descriptor, args) {
  const registry = createRegistry([descriptor]);
  const once = async (calls) => {
    const eventLog = createEventLog();
    gc();
    const t0 = performance.now();
    for (let i = 0; i < calls; i++) {
      const r = await invoke(descriptor.name, args, { registry, emit: eventLog.emit, threadId: 't1' });
      if (r.isError) throw new Error(`${name}: ${JSON.stringify(r)}`);
    }
    const ms = performance.now() - t0;
    return { ms, events: eventLog.lastSeq };
  };
  await once(Math.min(2000, CALLS)); // warm-up
  const times = [];
  let events = 0;
  for (let r = 0; r < RUNS; r++) {
    const { ms, events: ev } = await once(CALLS);
    times.push(ms);
    events = ev;
    log(`invoke ${name} run ${r + 1}: ${CALLS} calls in ${ms.toFixed(0)} ms = ${((ms * 1000) / CALLS).toFixed(2)} µs/call`);
  }
  const med = median(times);
  return {
    calls: CALLS,
    runs: RUNS,
    usPerCallMedian: +((med * 1000) / CALLS).toFixed(2),
    callsPerSecMedian: Math.round(CALLS / (med / 1000)),
    eventsPerCall: events / CALLS,
  };
}

const add = defineCapability({
  name: 'math.add',
  title: 'Add',
  description: 'Adds two numbers.',
  input: z.object({ a: z.number(), b: z.number() }),
  handler: ({ a, b }) => textResult(String(a + b), { sum: a + b }),
});
const report = defineCapability({
  name: 'report.build',
  title: 'Build report',
  description: 'Builds a small report, with progress and output.',
  input: z.object({ rows: z.number().int().positive() }),
  actor: ACTOR,
  handler: ({ rows }, ctx) => {
    ctx.progress(1, 2, 'reading');
    ctx.output('read rows\n', 'stdout');
    ctx.progress(2, 2, 'writing');
    ctx.output('wrote report\n', 'stdout');
    return textResult(`Report of ${rows} rows.`, { rows });
  },
});

// ---------------------------------------------------------------- script capability
/**
 * A script capability (defineScriptCapability from dist/server.js: argv binding, spawn in its own
 * process group, streamed output, exit-code and stdout postconditions, the job record) against the
 * same process spawned bare (child_process.spawn, stdout piped, awaited until close). Calls alternate
 * so drift hits both alike; the overhead is the median of the paired differences.
 */
async function measureScript() {
  const { defineScriptCapability } = await import(pathToFileURL(serverPath).href);
  const appRoot = mkdtempSync(join(tmpdir(), 'chatsurface-bench-'));
  try {
    writeFileSync(join(appRoot, 'echo.cjs'), "process.stdout.write('imported ' + process.argv[2] + ' rows\\n');");
    const descriptor = defineScriptCapability({
      appRoot,
      name: 'records.echo',
      title: 'Echo rows',
      description: 'Prints how many rows it imported.',
      input: z.object({ rows: z.number().int() }),
      command: [process.execPath, 'echo.cjs', '{{rows}}'],
      expected_effect: [{ type: 'exit_code', equals: 0 }, { type: 'stdout_matches', pattern: '^imported \\d+ rows$' }],
    });
    const registry = createRegistry([descriptor]);
    const eventLog = createEventLog();
    // The environment a script capability gets (the server's own is not passed on): the bare spawn gets
    // the same, or node start-up work like NODE_EXTRA_CA_CERTS would be counted against the bare side.
    const scriptEnv = Object.fromEntries(['PATH', 'HOME', 'LANG', 'LC_ALL', 'TZ', 'TMPDIR', 'TEMP', 'TMP', 'SystemRoot'].filter((k) => process.env[k] !== undefined).map((k) => [k, process.env[k]]));
    const bare = () =>
      new Promise((resolveRun, rejectRun) => {
        const child = spawn(process.execPath, ['echo.cjs', '3'], { cwd: appRoot, env: scriptEnv, stdio: ['ignore', 'pipe', 'pipe'] });
        let out = '';
        child.stdout.setEncoding('utf8').on('data', (d) => { out += d; });
        child.on('error', rejectRun);
        child.on('close', (code) => (code === 0 && out === 'imported 3 rows\n' ? resolveRun() : rejectRun(new Error(`bare spawn: ${code} ${out}`))));
      });
    const viaInvoke = async () => {
      const r = await invoke('records.echo', { rows: 3 }, { registry, emit: eventLog.emit, threadId: 't1' });
      if (r.isError || r._meta) throw new Error(`script capability: ${JSON.stringify(r)}`);
    };
    const time = async (fn) => {
      const t0 = performance.now();
      await fn();
      return performance.now() - t0;
    };
    for (let i = 0; i < 3; i++) { await bare(); await viaInvoke(); } // warm-up
    const seq0 = eventLog.lastSeq;
    const bareMs = [];
    const invokeMs = [];
    const diffs = [];
    for (let i = 0; i < SPAWNS; i++) {
      let viaMs;
      let bareRun;
      if (i % 2) {
        viaMs = await time(viaInvoke);
        bareRun = await time(bare);
      } else {
        bareRun = await time(bare);
        viaMs = await time(viaInvoke);
      }
      invokeMs.push(viaMs);
      bareMs.push(bareRun);
      diffs.push(viaMs - bareRun);
    }
    const result = {
      calls: SPAWNS,
      bareSpawnMsMedian: +median(bareMs).toFixed(2),
      invokeMsMedian: +median(invokeMs).toFixed(2),
      overheadMsMedian: +median(diffs).toFixed(2),
      eventsPerCall: (eventLog.lastSeq - seq0) / SPAWNS,
    };
    log(`script capability: bare spawn ${result.bareSpawnMsMedian} ms, via invoke ${result.invokeMsMedian} ms, overhead ${result.overheadMsMedian} ms (median of ${SPAWNS} pairs)`);
    return result;
  } finally {
    rmSync(appRoot, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------- main
const t0 = performance.now();
const streaming = makeStream(STREAM_EVENTS);
const foldStreaming = measureFold('fold streaming', initialThreadState, streaming.events, streaming.counts);
streaming.events.length = 0;

const base = stateWithRows(ROWS);
const onRows = makeStream(ROWS_EVENTS, { seq0: base.appliedUpTo });
const foldRows = measureFold(`fold on ${ROWS} rows`, base, onRows.events, onRows.counts);
onRows.events.length = 0;

// The fold's cost per event against the thread's length: the same streaming mix folded onto
// threads of 300, 3,000 and 30,000 rows, one event per fold() and in batches of 64 (foldAll, as
// the page's store folds a frame's events). A batched run takes a few tens of ms, so one pause of
// the machine moves it: the sizes take turns within each of --scale-runs rounds (default 15, at
// least --runs; the order reversed every other round), after an untimed warm-up of each.
const SCALE_ROWS = String(opt('scale-rows', '300,3000,30000')).split(',').map(Number);
const SCALE_EVENTS = Number(opt('scale-events', '60000'));
const SCALE_RUNS = Math.max(RUNS, Number(opt('scale-runs', '15')));
const scaling = { events: SCALE_EVENTS, batch: 64, runs: SCALE_RUNS, rows: {} };
const scaleCases = SCALE_ROWS.map((rows) => {
  const state = stateWithRows(rows);
  return { rows, state, events: makeStream(SCALE_EVENTS, { seq0: state.appliedUpTo }).events, ms: { 1: [], 64: [] }, rowsAfter: 0 };
});
for (const c of scaleCases) for (const batch of [1, 64]) foldRun(c.state, c.events, batch);
for (let r = 0; r < SCALE_RUNS; r++) {
  for (const c of r % 2 ? [...scaleCases].reverse() : scaleCases) {
    for (const batch of [1, 64]) {
      const { ms, state } = foldRun(c.state, c.events, batch);
      if (state.malformed !== 0) throw new Error(`fold on ${c.rows} rows: ${state.malformed} events were malformed`);
      c.ms[batch].push(ms);
      c.rowsAfter = state.rows.length;
    }
  }
  log(`fold scaling round ${r + 1}: ` + scaleCases.map((c) => `${c.rows} rows ${c.ms[1].at(-1).toFixed(0)} / ${c.ms[64].at(-1).toFixed(0)} ms`).join(', '));
}
const usPerEvent = (times) => +((median(times) * 1000) / SCALE_EVENTS).toFixed(3);
for (const c of scaleCases) scaling.rows[c.rows] = { single: usPerEvent(c.ms[1]), batched: usPerEvent(c.ms[64]), rowsAfter: c.rowsAfter };
scaleCases.length = 0;
const lo = scaling.rows[SCALE_ROWS[0]]; const hi = scaling.rows[SCALE_ROWS[SCALE_ROWS.length - 1]];
scaling.ratio = { single: +(hi.single / lo.single).toFixed(2), batched: +(hi.batched / lo.batched).toFixed(2) };

// Versions (issue 40): a 10,000-message thread (5,000 exchanges, stamped as the host stamps them)
// with 1,000 versions (500 edits and 500 regenerations spread over it, each switched back so the
// long path stays on screen), beside the same thread without versions: mounting it (folded in
// slices of 2,000 events, as the page's store replays a history), appending the streaming mix to
// it, and switching one version (the fold's part of a switch; the frame budget is 16.7 ms).
function versionedThread(exchanges, versions) {
  const events = [];
  let seq = 0;
  const push = (e) => events.push({ ...e, seq: ++seq, ts: TS0 + seq });
  const reply = (id, branch, text) => {
    push({ type: 'message.created', message_id: id, role: 'assistant', text, branch, driver: DRIVER });
    push({ type: 'message.done', message_id: id });
  };
  for (let k = 0; k < exchanges; k++) {
    push({ type: 'message.created', message_id: `u${k}`, role: 'user', text: `Question ${k} about the rows of batch ${k}.`, branch: k ? `u${k - 1}.reply` : 'root' });
    reply(`a${k}`, `u${k}.reply`, `Answer ${k}: the batch has ${k % 97} rows, ${k % 13} of them new.`);
  }
  const plain = events.slice();
  const step = Math.max(1, Math.floor(exchanges / versions));
  for (let j = 0; j < versions; j++) {
    const k = (j * step) % exchanges;
    if (j % 2 === 0) {
      push({ type: 'message.created', message_id: `e${j}`, role: 'user', text: `Question ${k}, asked again.`, version_of: `u${k}`, branch: k ? `u${k - 1}.reply` : 'root' });
      reply(`ea${j}`, `e${j}.reply`, `Another answer to ${k}.`);
      push({ type: 'version.selected', part: 'message', message_id: `u${k}`, version: `u${k}` });
    } else {
      push({ type: 'reply.regenerated', message_id: `u${k}`, reply_id: `r${j}` });
      reply(`ra${j}`, `r${j}`, `A regenerated answer to ${k}.`);
      push({ type: 'version.selected', part: 'reply', message_id: `u${k}`, version: `u${k}.reply` });
    }
  }
  return { plain, branched: events, seq, middle: `u${Math.floor(exchanges / 2 / step) * step}` };
}
function mountRun(events) {
  gc();
  const t0 = performance.now();
  let st = initialThreadState;
  for (let i = 0; i < events.length; i += 2000) st = foldAll(st, events.slice(i, i + 2000));
  return { ms: performance.now() - t0, state: st };
}
const VERSION_MESSAGES = Number(opt('version-messages', '10000'));
const VERSION_COUNT = Number(opt('versions', '1000'));
const vt = versionedThread(VERSION_MESSAGES / 2, VERSION_COUNT);
const versionRuns = { plain: [], branched: [], appendPlain: [], appendBranched: [], switchMiddle: [], switchLast: [] };
const appendEvents = makeStream(20000, { seq0: vt.seq + 10 }).events.map((e) => ({ ...e, ...(e.type === 'message.created' && e.role === 'user' ? { branch: undefined } : {}) }));
let plainState; let branchedState;
mountRun(vt.plain); mountRun(vt.branched);
for (let r = 0; r < RUNS; r++) {
  const a = mountRun(vt.plain); versionRuns.plain.push(a.ms); plainState = a.state;
  const b = mountRun(vt.branched); versionRuns.branched.push(b.ms); branchedState = b.state;
  versionRuns.appendPlain.push(foldRun(plainState, appendEvents, 64).ms);
  versionRuns.appendBranched.push(foldRun(branchedState, appendEvents, 64).ms);
  // Switching: the middle message to its edit and back, and the last message's reply to a regeneration.
  const middleEdit = Object.keys(branchedState.versions.groups).find((k) => k === `u:${vt.middle}`) ? branchedState.versions.groups[`u:${vt.middle}`].ids[1] : null;
  // Each switch folded five times from the same state (the fold keeps its input as it was), the
  // median kept: a page's fold has run its lay-out many times over by the time a user switches.
  const timed = (event) => {
    const times = [];
    let state;
    for (let k = 0; k < 5; k++) {
      const t0 = performance.now();
      state = fold(branchedState, event);
      times.push(performance.now() - t0);
    }
    return { ms: median(times), state };
  };
  if (middleEdit) {
    const switched = timed({ type: 'version.selected', part: 'message', message_id: vt.middle, version: middleEdit, seq: vt.seq + 1, ts: TS0 + vt.seq + 1 });
    versionRuns.switchMiddle.push(switched.ms);
    if (switched.state.rows.length >= branchedState.rows.length) throw new Error('the switch did not show the edit');
  }
  versionRuns.switchLast.push(timed({ type: 'version.selected', part: 'reply', message_id: `u${VERSION_MESSAGES / 2 - 1}`, version: `u${VERSION_MESSAGES / 2 - 1}.reply`, seq: vt.seq + 2, ts: TS0 + vt.seq + 2 }).ms);
}
if (branchedState.rows.length !== plainState.rows.length) throw new Error(`versions: ${branchedState.rows.length} rows shown, expected ${plainState.rows.length}`);
const versionsBench = {
  messages: VERSION_MESSAGES,
  versions: VERSION_COUNT,
  events: { plain: vt.plain.length, branched: vt.branched.length },
  shelved: Object.keys(branchedState.versions.shelf).length,
  mountMs: { plain: +median(versionRuns.plain).toFixed(1), branched: +median(versionRuns.branched).toFixed(1) },
  appendUsPerEvent: { plain: +((median(versionRuns.appendPlain) * 1000) / appendEvents.length).toFixed(3), branched: +((median(versionRuns.appendBranched) * 1000) / appendEvents.length).toFixed(3) },
  switchMs: { middle: +median(versionRuns.switchMiddle).toFixed(2), last: +median(versionRuns.switchLast).toFixed(2) },
};
log(`versions: ${JSON.stringify(versionsBench)}`);

const invokePlain = await measureInvoke('math.add', add, { a: 2, b: 3 });
const invokeProgress = await measureInvoke('report.build (2 progress + 2 output)', report, { rows: 10 });
const invokeScript = await measureScript().catch((e) => {
  log(`script capability: ${e.stack || e}`);
  return { error: String(e.message || e) };
});

console.log(JSON.stringify({
  node: process.version,
  runtime: runtimePath,
  fold: { streaming: foldStreaming, onRows: { ...foldRows, threadRows: ROWS }, scaling, versions: versionsBench },
  invoke: { plain: invokePlain, withProgress: invokeProgress, script: invokeScript },
  seconds: +((performance.now() - t0) / 1000).toFixed(1),
}));
