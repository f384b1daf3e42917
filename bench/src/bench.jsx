// ChatSurface bench page for the shared harness (window.__bench contract, see
// ../shared/bench/README.md). Everything on the measured path is the kit's own code:
//   - a workspace adapter over the runtime's createEventLog + runTurn (what createLocalWorkspace
//     does, minus the registry), with a model driver that yields pagekit's deltas() as text chunks;
//   - the assembled <ChatSurface> (what a host renders): the thread store (events queued, folded and
//     committed once per animation frame), header with DriverBadge and thread switcher, the
//     virtualised <Transcript>, CastRow, Suggestions, the slash panels and status row, and the
//     Composer with its slash combobox (live: the workspace answers node queries with 200 skills,
//     so the combobox, picker and panel chunks load on idle as on a host page).
// The transcript's rows go through ChatSurface's `renderRow` prop: the harness needs class `msg` on
// every message, so each message row is <MessageRow className="msg"> (other kinds use TranscriptRow).
//
// mount(n): the n messages of makeTranscript(n) are emitted into the thread's event log as
// message.created (+ message.done for assistant messages), then the surface is rendered; it
// replays the log on subscribe. stream(n): workspace.send() runs a real turn (runTurn) whose
// driver streams deltas(n, pace). append(): one user message.created into the log.
// `?virtualize=0` renders every row instead (for comparison). `?versions=V` (issue 40): mount(n)
// writes the thread as the host stamps it (each row's `branch`) with V versions spread over it,
// half edits and half regenerations, each with its reply and switched back (so the n messages stay
// the shown path and the versions wait on the shelf): each right after the message it changes (a
// user who tried a version and went back before going on), or with `&at=end` all after the last
// message (one who went back through the thread at the end). `?code=LANG` (issue 41): stream(n)
// streams the same deltas as one fenced code block (see CODE).
//
// Extra figures in window.__benchDetail after stream(): updates published by the thread store,
// React commits (bench.html installs a devtools hook that records each commit; the virtualiser
// adds its own when its range or scrolling state changes), animation frames during the stream, the most commits
// in one frame and how many frames had more than one, and how many times rows other than the
// streaming one (and the user message it answers) re-rendered.
import { memo, useEffect } from 'react';
import { createRoot } from 'react-dom/client';
import { ChatSurface, MessageRow, TranscriptRow, createLocalWorkspace, useChatSurface, useRow } from 'chatsurface';
import { runTurn } from 'chatsurface/internal';
import { catalogNode, createEventLog, errorResult } from 'chatsurface/runtime';
import 'chatsurface/styles.css';
import {
  installBench, makeTranscript, messageText, deltas, now, nextPaint, whenDom, lastByClass, SENTINEL,
} from '@bench/pagekit';

const THREAD = 'main';
const container = document.getElementById('root');
/** `?virtualize=1|0`: the transcript's rows always virtualised, or never; by default what a host gets ('auto'). */
const VIRTUALIZE = { 1: true, 0: false }[new URLSearchParams(location.search).get('virtualize')] ?? 'auto';
/** `?versions=V`: the mounted thread has V versions (see mount); `&at=end`: all after the last message. */
const VERSIONS = Number(new URLSearchParams(location.search).get('versions') ?? 0);
const VERSIONS_AT_END = new URLSearchParams(location.search).get('at') === 'end';
/**
 * `?code=LANG` (issue 41): stream(n) streams the same n deltas as one fenced code block in LANG:
 * "```LANG\n" first, a line break after every `&line=N`th delta (default 16: 64-character lines),
 * and the closing fence in the last delta's chunk, right after SENTINEL (so the block is closed,
 * and highlighted, in the frame the whole text first shows); `&tokens=1`: see CODE_TOKENS.
 * `stream(n, { code: false })` streams prose on that page (a warm-up that leaves the highlighter
 * unloaded), `{ code: 'ts' }` code on any. bench/code-stream-bench.mjs measures it.
 */
const CODE = new URLSearchParams(location.search).get('code') || false;
const CODE_LINE = Math.max(1, Number(new URLSearchParams(location.search).get('line') ?? 16));
/** `&tokens=1`: each delta but the last is followed by `(k) ` (k its index mod 10), so the code has a coloured token per delta. */
const CODE_TOKENS = new URLSearchParams(location.search).get('tokens') === '1';

// ---------------------------------------------------------------- model + workspace
let streamCfg = { n: 0, pace: 'burst', watcher: null, code: false };
const benchDriver = {
  info: { id: 'bench', label: 'Bench model' },
  async *respond() {
    const { n, pace, code } = streamCfg;
    if (code) yield { type: 'text', text: '```' + code + '\n' };
    let i = 0;
    for await (const d of deltas(n, pace)) {
      i++;
      if (!code) yield { type: 'text', text: d };
      else if (i === n) yield { type: 'text', text: d + '\n```' };
      else yield { type: 'text', text: (CODE_TOKENS ? `${d}(${(i - 1) % 10}) ` : d) + (i % CODE_LINE === 0 ? '\n' : '') };
    }
    streamCfg.watcher?.markDone();
  },
};

/** The user's slash skills: a local workspace answers the node queries (discovery, pickers). */
const SKILLS = Array.from({ length: 200 }, (_, i) =>
  catalogNode(`default/Skill/team-${i}`, {
    nodeType: 'Skill',
    name: `/team-${i}`,
    description: `Team skill number ${i}: does step ${i % 97} of the weekly process`,
    order: 50 + (i % 13),
    skill: { instructions: 'Do the thing.', autoMount: false, launchesSubThread: false },
  }),
);

function createBenchWorkspace(driver) {
  const log = createEventLog();
  const skillsHost = createLocalWorkspace({ capabilities: [], skills: SKILLS });
  let history = [];
  let queue = Promise.resolve();
  const none = (capability) => errorResult(`The bench workspace has no capability "${capability}".`);
  return {
    log,
    manifest: { capabilities: [], driver: driver.info, alignment: 'strict', anticipation: {} },
    send({ text }) {
      const turn = queue.then(async () => {
        history = await runTurn({
          text, driver, capabilities: [], history, emit: log.emit, invoke: async (capability) => none(capability),
        });
      });
      queue = turn.catch(() => undefined);
      return turn;
    },
    invoke: async ({ capability }) => none(capability),
    cancel() {},
    decide: async () => {},
    setView() {},
    skills: skillsHost.skills,
    query: (request) => skillsHost.query(request),
    subscribe: (_threadId, listener, { since = 0 } = {}) => log.subscribe(listener, since),
  };
}
const workspace = createBenchWorkspace(benchDriver);

// ---------------------------------------------------------------- components
/** Row renders by index, to check that a streamed token re-renders only its own row. */
const rowRenders = new Map();
const BenchRow = memo(function BenchRow({ index }) {
  const row = useRow(index);
  rowRenders.set(index, (rowRenders.get(index) ?? 0) + 1);
  if (row && (row.kind === 'user' || row.kind === 'assistant')) {
    return <MessageRow row={row} id={row.id} className={'msg msg-' + row.kind} />;
  }
  return <TranscriptRow index={index} />;
});

/** Records when the thread store publishes a new state (each one is one React update of the rows). */
window.__storeCommits = [];
function StoreProbe() {
  const { store } = useChatSurface();
  useEffect(() => store.subscribe(() => window.__storeCommits.push(now())), [store]);
  return null;
}

/** Row 0 also mounts the store probe: inside the surface, to reach its store (the assembled
 *  surface has no children slot). The stream tests start from an empty thread, so row 0 (the
 *  warm-up's user message) stays in the DOM while they run. */
function ProbedRow({ index }) {
  return (
    <>
      {index === 0 ? <StoreProbe /> : null}
      <BenchRow index={index} />
    </>
  );
}
const renderRow = (index) => <ProbedRow index={index} />;

/** The assembled <ChatSurface>, with rows that carry class `msg`. */
function App() {
  return <ChatSurface workspace={workspace} defaultThreadId={THREAD} theme="light" placeholder="Say something" renderRow={renderRow} virtualize={VIRTUALIZE} />;
}

// ---------------------------------------------------------------- bench contract
/**
 * pagekit's streamWatcher, plus one condition: the last `.msg` must not be `prev`, the element
 * that was last before the send. The kit commits once per animation frame, so when a burst ends
 * (markDone) the DOM may still end with the previous reply, which also holds SENTINEL (warm-up).
 */
function streamWatcherAfter(root, prev) {
  let done = false; let resolveFn; let t = null;
  const p = new Promise((r) => { resolveFn = r; });
  const check = () => {
    if (!done || t !== null) return;
    const el = lastByClass(root, 'msg');
    if (el && el !== prev && el.textContent.includes(SENTINEL)) { t = now(); mo.disconnect(); resolveFn(t); }
  };
  const mo = new MutationObserver(check);
  mo.observe(root, { childList: true, subtree: true, characterData: true });
  return { promise: p, markDone() { done = true; check(); } };
}

/** Counts animation frames from now until stop(); commits are bucketed into the frame they fell in. */
function frameCounter() {
  const starts = [now()];
  let running = true;
  const tick = () => { if (!running) return; starts.push(now()); requestAnimationFrame(tick); };
  requestAnimationFrame(tick);
  return {
    stop(commits, storeCommits) {
      running = false;
      const bucket = (times) => {
        const perFrame = new Array(starts.length).fill(0);
        for (const t of times) {
          let i = starts.length - 1;
          while (i > 0 && starts[i] > t) i--;
          perFrame[i]++;
        }
        return perFrame;
      };
      const perFrame = bucket(commits);
      return {
        frames: starts.length,
        maxCommitsPerFrame: Math.max(0, ...perFrame),
        framesOverOne: perFrame.filter((c) => c > 1).length,
        maxStorePerFrame: Math.max(0, ...bucket(storeCommits)),
      };
    },
  };
}

let mounted = false;
let count = 0;
let appendSeq = 0;

async function mount(n) {
  if (mounted) throw new Error('mount() needs a fresh page');
  mounted = true;
  count = n;
  const transcript = makeTranscript(n);
  const t0 = now();
  if (VERSIONS > 0) emitVersioned(transcript, VERSIONS);
  else {
    for (const m of transcript) {
      workspace.log.emit({ type: 'message.created', message_id: m.id, role: m.role, text: m.text });
      if (m.role === 'assistant') workspace.log.emit({ type: 'message.done', message_id: m.id });
    }
  }
  const lastId = 'm-' + (n - 1);
  const dom = n === 0
    ? whenDom(container, () => container.querySelector('[data-part="composer"]') !== null)
    : whenDom(container, () => document.getElementById(lastId) !== null);
  createRoot(container).render(<App />);
  const tDom = await dom;
  await nextPaint();
  const t1 = now();
  window.__benchDetail = {
    domMs: tDom - t0, paintMs: t1 - t0, elements: container.getElementsByTagName('*').length,
    renderedRows: container.querySelectorAll('[data-part="transcript-slot"]').length, virtualize: VIRTUALIZE,
  };
  return t1 - t0;
}

/** The transcript stamped as the host stamps it, with `count` versions, each switched back (see `?versions`). */
function emitVersioned(transcript, count) {
  const log = workspace.log;
  const users = transcript.filter((m) => m.role === 'user');
  const step = Math.max(1, Math.floor(users.length / count));
  // Version j is of user message (j * step) % users (the j-th of those spread over the thread).
  const versionsOf = new Map();
  for (let j = 0; j < count; j++) {
    const message = users[(j * step) % users.length].id;
    versionsOf.set(message, [...(versionsOf.get(message) ?? []), j]);
  }
  const follows = new Map();
  const version = (j, message) => {
    const answer = (id, branch, text) => {
      log.emit({ type: 'message.created', message_id: id, role: 'assistant', text, branch });
      log.emit({ type: 'message.done', message_id: id });
    };
    if (j % 2 === 0) {
      log.emit({ type: 'message.created', message_id: `e-${j}`, role: 'user', text: `Asked again: ${messageText(j)}`, version_of: message, branch: follows.get(message) });
      answer(`ea-${j}`, `e-${j}.reply`, `Another answer: ${messageText(j + 1)}`);
      log.emit({ type: 'version.selected', part: 'message', message_id: message, version: message });
    } else {
      log.emit({ type: 'reply.regenerated', message_id: message, reply_id: `r-${j}` });
      answer(`ra-${j}`, `r-${j}`, `A regenerated answer: ${messageText(j + 1)}`);
      log.emit({ type: 'version.selected', part: 'reply', message_id: message, version: `${message}.reply` });
    }
  };
  let reply = 'root';
  let asked = null;
  const versionsOfAsked = () => {
    if (!VERSIONS_AT_END && asked) for (const j of versionsOf.get(asked) ?? []) version(j, asked);
  };
  for (const m of transcript) {
    if (m.role === 'user') {
      versionsOfAsked();
      follows.set(m.id, reply);
      log.emit({ type: 'message.created', message_id: m.id, role: 'user', text: m.text, branch: reply });
      reply = `${m.id}.reply`;
      asked = m.id;
    } else {
      log.emit({ type: 'message.created', message_id: m.id, role: 'assistant', text: m.text, branch: reply });
      log.emit({ type: 'message.done', message_id: m.id });
    }
  }
  versionsOfAsked();
  if (VERSIONS_AT_END) for (let j = 0; j < count; j++) version(j, users[(j * step) % users.length].id);
}

async function stream(n, opts = {}) {
  if (!mounted) await mount(0);
  const prev = lastByClass(container, 'msg');
  const watcher = streamWatcherAfter(container, prev);
  streamCfg = { n, pace: opts.pace || 'burst', watcher, code: opts.code ?? CODE };
  const commitsBefore = window.__commits.length;
  const storeBefore = window.__storeCommits.length;
  rowRenders.clear();
  const frames = frameCounter();
  const t0 = now();
  workspace.send({ threadId: THREAD, text: 'go ' + n });
  const tDom = await watcher.promise;
  await nextPaint();
  const commits = window.__commits.slice(commitsBefore).filter((t) => t >= t0 && t <= tDom);
  const storeCommits = window.__storeCommits.slice(storeBefore).filter((t) => t >= t0 && t <= tDom);
  const { frames: frameCount, maxCommitsPerFrame, framesOverOne, maxStorePerFrame } = frames.stop(commits, storeCommits);
  const last = lastByClass(container, 'msg');
  const textEl = last?.querySelector('[data-part="message-text"]');
  const streamingIndex = Number(last?.closest('[data-index]')?.getAttribute('data-index'));
  const otherRowRenders = [...rowRenders].filter(([index]) => index !== streamingIndex && index !== streamingIndex - 1).reduce((s, [, c]) => s + c, 0);
  window.__benchDetail = {
    domMs: tDom - t0, paintMs: now() - t0, textLen: textEl ? textEl.textContent.length : -1,
    commits: commits.length, frames: frameCount, maxCommitsPerFrame, framesOverOne,
    storeCommits: storeCommits.length, maxStoreCommitsPerFrame: maxStorePerFrame, otherRowRenders,
    ...(streamCfg.code ? { code: codeBlockDetail(last) } : {}),
  };
  count += 2;
  return tDom - t0;
}

/** `?code`: the streamed code block's state (highlighted or plain), its code and how many coloured spans it has. */
function codeBlockDetail(message) {
  const block = message?.querySelector('[data-part="code-block"]');
  const code = block?.querySelector('pre > code');
  return { state: block?.getAttribute('data-state') ?? null, text: code?.textContent ?? null, spans: code ? code.getElementsByTagName('span').length : 0 };
}

async function append() {
  const k = ++appendSeq;
  const id = 'x-' + k;
  const text = `[append-${k}] ` + messageText(count);
  const t0 = now();
  const dom = whenDom(container, () => {
    const el = lastByClass(container, 'msg');
    return !!el && el.id === id;
  });
  workspace.log.emit({ type: 'message.created', message_id: id, role: 'user', text });
  const tDom = await dom;
  await nextPaint();
  const t1 = now();
  count += 1;
  window.__benchDetail = { domMs: tDom - t0, paintMs: t1 - t0 };
  return t1 - t0;
}

/**
 * `?versions`: switches a version (a `version.selected` into the log, as the host writes it) and
 * resolves with the ms to the DOM that shows `shows` (a row's id), to the frame after it, and the
 * longest task meanwhile (long tasks only: over 50 ms).
 */
async function switchVersion({ part, messageId, version, shows }) {
  const tasks = [];
  const observer = new PerformanceObserver((list) => tasks.push(...list.getEntries()));
  observer.observe({ type: 'longtask' });
  const t0 = now();
  const dom = whenDom(container, () => document.getElementById(shows) !== null);
  workspace.log.emit({ type: 'version.selected', part, message_id: messageId, version });
  const tDom = await dom;
  await nextPaint();
  const t1 = now();
  await new Promise((done) => setTimeout(done, 60));
  observer.disconnect();
  return { domMs: tDom - t0, paintMs: t1 - t0, longestTaskMs: Math.max(0, ...tasks.filter((t) => t.startTime + t.duration >= t0).map((t) => t.duration)) };
}
if (VERSIONS > 0) window.__benchVersions = { switchVersion };

installBench({ mount, stream, append }, { name: `ChatSurface (kit store, Transcript virtualize=${VIRTUALIZE}, markdown MessageRow, rAF-batched fold${VERSIONS ? `, ${VERSIONS} versions` : ''}${CODE ? `, replies as one \`${CODE}\` code block` : ''})` });
