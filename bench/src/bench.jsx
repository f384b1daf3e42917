// ChatSurface bench page for the shared harness (window.__bench contract, see
// ../shared/bench/README.md). Everything on the measured path is the kit's own code:
//   - a workspace adapter over the runtime's createEventLog + runTurn (what createLocalWorkspace
//     does, minus the registry), with a model driver that yields pagekit's deltas() as text chunks;
//   - ChatSurface.Root (which creates the kit's thread store: events queued, folded and committed
//     once per animation frame), DriverBadge, CastRow, Composer, and MessageRow for each message.
// The one recomposed part is the transcript list: the kit's <Transcript> renders <TranscriptRow>,
// which gives MessageRow no className, and the harness needs class `msg` on every message. So the
// list below is Transcript's markup with useRowIds/useRow and <MessageRow className="msg">; its
// stick-to-bottom observer is a copy of Transcript's, so the page pays the same per-mutation cost.
//
// mount(n): the n messages of makeTranscript(n) are emitted into the thread's event log as
// message.created (+ message.done for assistant messages), then the surface is rendered; it
// replays the log on subscribe. stream(n): workspace.send() runs a real turn (runTurn) whose
// driver streams deltas(n, pace). append(): one user message.created into the log.
import { memo, useEffect, useRef } from 'react';
import { createRoot } from 'react-dom/client';
import { ChatSurface, Composer, MessageRow, TranscriptRow, useRow, useRowIds } from 'chatsurface';
import { createEventLog, errorResult, runTurn } from 'chatsurface/runtime';
import 'chatsurface/styles.css';
import {
  installBench, makeTranscript, messageText, deltas, now, nextPaint, whenDom, lastByClass, SENTINEL,
} from '@bench/pagekit';

const THREAD = 'main';
const container = document.getElementById('root');

// ---------------------------------------------------------------- model + workspace
let streamCfg = { n: 0, pace: 'burst', watcher: null };
const benchDriver = {
  info: { id: 'bench', label: 'Bench model' },
  async *respond() {
    for await (const d of deltas(streamCfg.n, streamCfg.pace)) yield { type: 'text', text: d };
    streamCfg.watcher?.markDone();
  },
};

function createBenchWorkspace(driver) {
  const log = createEventLog();
  let history = [];
  let queue = Promise.resolve();
  const none = (capability) => errorResult(`The bench workspace has no capability "${capability}".`);
  return {
    log,
    manifest: { capabilities: [], driver: driver.info },
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
    subscribe: (_threadId, listener, { since = 0 } = {}) => log.subscribe(listener, since),
  };
}
const workspace = createBenchWorkspace(benchDriver);

// ---------------------------------------------------------------- components
const BenchRow = memo(function BenchRow({ index }) {
  const row = useRow(index);
  if (row && (row.kind === 'user' || row.kind === 'assistant')) {
    return <MessageRow row={row} id={row.id} className={'msg msg-' + row.kind} />;
  }
  return <TranscriptRow index={index} />;
});

/** Transcript's markup and behaviour, with BenchRow instead of TranscriptRow. */
function BenchTranscript({ emptyText = 'No messages yet.' }) {
  const ids = useRowIds();
  const ref = useRef(null);
  useStickToBottom(ref);
  return (
    <div role="log" aria-label="Conversation" tabIndex={0} ref={ref} data-part="transcript" data-state={ids.length ? 'filled' : 'empty'}>
      {ids.length === 0 ? <p data-part="transcript-empty">{emptyText}</p> : null}
      {ids.map((id, index) => <BenchRow key={id} index={index} />)}
    </div>
  );
}

/** Copy of Transcript's useStickToBottom. */
function useStickToBottom(ref) {
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    let atBottom = true;
    const onScroll = () => { atBottom = el.scrollHeight - el.scrollTop - el.clientHeight < 24; };
    const observer = new MutationObserver(() => { if (atBottom) el.scrollTop = el.scrollHeight; });
    observer.observe(el, { childList: true, subtree: true, characterData: true });
    el.addEventListener('scroll', onScroll, { passive: true });
    return () => { observer.disconnect(); el.removeEventListener('scroll', onScroll); };
  }, [ref]);
}

/** ChatSurface's assembled layout with the bench transcript. */
function App() {
  return (
    <ChatSurface.Root workspace={workspace} threadId={THREAD} theme="light">
      <header data-part="header"><ChatSurface.DriverBadge /></header>
      <BenchTranscript />
      <ChatSurface.CastRow />
      <Composer.Root>
        <Composer.Input placeholder="Say something" />
        <Composer.Send />
      </Composer.Root>
    </ChatSurface.Root>
  );
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

let mounted = false;
let count = 0;
let appendSeq = 0;

async function mount(n) {
  if (mounted) throw new Error('mount() needs a fresh page');
  mounted = true;
  count = n;
  const transcript = makeTranscript(n);
  const t0 = now();
  for (const m of transcript) {
    workspace.log.emit({ type: 'message.created', message_id: m.id, role: m.role, text: m.text });
    if (m.role === 'assistant') workspace.log.emit({ type: 'message.done', message_id: m.id });
  }
  const lastId = 'm-' + (n - 1);
  const dom = n === 0
    ? whenDom(container, () => container.querySelector('[data-part="composer"]') !== null)
    : whenDom(container, () => document.getElementById(lastId) !== null);
  createRoot(container).render(<App />);
  const tDom = await dom;
  await nextPaint();
  const t1 = now();
  window.__benchDetail = { domMs: tDom - t0, paintMs: t1 - t0, elements: container.getElementsByTagName('*').length };
  return t1 - t0;
}

async function stream(n, opts = {}) {
  if (!mounted) await mount(0);
  const watcher = streamWatcherAfter(container, lastByClass(container, 'msg'));
  streamCfg = { n, pace: opts.pace || 'burst', watcher };
  const t0 = now();
  workspace.send({ threadId: THREAD, text: 'go ' + n });
  const tDom = await watcher.promise;
  await nextPaint();
  const last = lastByClass(container, 'msg');
  const textEl = last?.querySelector('[data-part="message-text"]');
  window.__benchDetail = { domMs: tDom - t0, paintMs: now() - t0, textLen: textEl ? textEl.textContent.length : -1 };
  count += 2;
  return tDom - t0;
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

installBench({ mount, stream, append }, { name: 'ChatSurface (kit store + Root/MessageRow/Composer, rAF-batched fold)' });
