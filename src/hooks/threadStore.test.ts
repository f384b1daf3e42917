import { afterEach, describe, expect, it, vi } from 'vitest';
import { textResult } from '../runtime/results';
import { foldAll, initialThreadState } from '../runtime/fold';
import { TAIL_ROWS, createThreadStore, frameScheduler, queueWeight, tailStart } from './threadStore';

const created = (seq: number) => ({ type: 'message.created', seq, ts: seq, message_id: 'a1', role: 'assistant', text: '' });
const delta = (seq: number, text: string) => ({ type: 'message.delta', seq, ts: seq, message_id: 'a1', delta: text });

describe('createThreadStore', () => {
  it('folds a burst of events into one store update at the next flush', () => {
    let pending: (() => void) | null = null;
    const store = createThreadStore((flush) => {
      pending = flush;
    });
    let updates = 0;
    store.subscribe(() => updates++);
    store.receive(created(1));
    for (let i = 2; i <= 101; i++) store.receive(delta(i, 'x'));
    expect(store.getState().thread.rows).toHaveLength(0);
    pending!();
    expect(updates).toBe(1);
    const row = store.getState().thread.rows[0];
    expect(row?.kind === 'assistant' && row.text).toBe('x'.repeat(100));
  });

  it('schedules one flush per batch, and another for events after it', () => {
    const flushes: (() => void)[] = [];
    const store = createThreadStore((flush) => flushes.push(flush));
    store.receive(created(1));
    store.receive(delta(2, 'a'));
    expect(flushes).toHaveLength(1);
    flushes[0]!();
    store.receive(delta(3, 'b'));
    expect(flushes).toHaveLength(2);
    flushes[1]!();
    const row = store.getState().thread.rows[0];
    expect(row?.kind === 'assistant' && row.text).toBe('ab');
  });

  it('does not notify subscribers when a batch holds only replays', () => {
    const store = createThreadStore((flush) => flush());
    store.receive(created(1));
    let updates = 0;
    store.subscribe(() => updates++);
    store.receive(created(1));
    expect(updates).toBe(0);
  });

  it('folds a burst of streamed deltas at once (no replay state), and a history too long even as deltas in slices', () => {
    const tasks: (() => void)[] = [];
    const store = createThreadStore(() => {}, { sliceEvents: 100, nextTask: (work) => tasks.push(work) });
    const states: boolean[] = [];
    store.subscribe((s) => states.push(s.replaying));
    const token = (seq: number) => ({ type: 'message.delta', seq, ts: seq, message_id: 'a1', delta: `w${seq} ` });
    store.receive({ type: 'message.created', seq: 1, ts: 1, message_id: 'a1', role: 'assistant', text: '' });
    for (let seq = 2; seq <= 401; seq++) store.receive(token(seq)); // 400 deltas: weighs 51 events
    store.flush();
    expect(tasks).toHaveLength(0);
    expect(states).toEqual([false]);
    expect((store.getState().thread.rows[0] as { text: string }).text).toBe(Array.from({ length: 400 }, (_, i) => `w${i + 2} `).join(''));
    for (let seq = 402; seq <= 1401; seq++) store.receive(token(seq)); // 1,000 deltas: 125 events
    store.flush();
    expect(store.getState().replaying).toBe(true);
    while (tasks.length) tasks.shift()!();
    expect(store.getState().replaying).toBe(false);
    expect((store.getState().thread.rows[0] as { text: string }).text.endsWith('w1400 w1401 ')).toBe(true);
    expect(queueWeight([token(1), token(2), { type: 'message.delta', message_id: 'b', delta: 'x' }, token(3)])).toBe(3 + 1 / 8);
  });

  it('can start out loading: the first flush ends it, with the history that came in or with none', () => {
    const tasks: (() => void)[] = [];
    const make = () => createThreadStore(() => {}, { replaying: true, sliceEvents: 100, nextTask: (work) => tasks.push(work) });
    const empty = make();
    expect(empty.getState().replaying).toBe(true);
    empty.flush();
    expect(empty.getState()).toMatchObject({ replaying: false, thread: { rows: [] } });

    const short = make();
    short.receive(created(1));
    short.flush();
    expect(short.getState().replaying).toBe(false);
    expect(short.getState().thread.rows).toHaveLength(1);

    // A long one stays loading, and tells nobody, until its slices are folded.
    const long = make();
    let updates = 0;
    long.subscribe(() => updates++);
    for (let i = 1; i <= 300; i++) long.receive({ type: 'message.created', seq: i, ts: i, message_id: `m${i}`, role: 'user', text: `#${i}` });
    long.flush();
    expect(long.getState().replaying).toBe(true);
    expect(updates).toBe(0);
    while (tasks.length) tasks.shift()!();
    expect(long.getState().replaying).toBe(false);
    expect(long.getState().thread.rows).toHaveLength(300);
  });

  it('folds a long replayed history in slices, one task each, and shows it once, complete', () => {
    const tasks: (() => void)[] = [];
    const store = createThreadStore((flush) => flush(), { sliceEvents: 100, nextTask: (work) => tasks.push(work) });
    const states: { rows: number; replaying: boolean }[] = [];
    store.subscribe((s) => states.push({ rows: s.thread.rows.length, replaying: s.replaying }));
    const history = Array.from({ length: 450 }, (_, i) => ({ type: 'message.created', seq: i + 1, ts: i + 1, message_id: `m${i}`, role: 'user', text: `hello ${i}` }));
    // As ChatSurface.Root does: the workspace replays the history on subscribe, then flushes.
    const queued = createThreadStore(() => {}, { sliceEvents: 100, nextTask: (work) => tasks.push(work) });
    for (const e of history) queued.receive(e);
    queued.flush();
    expect(queued.getState().replaying).toBe(true);
    expect(queued.getState().thread.rows).toHaveLength(0);
    expect(tasks).toHaveLength(1);
    // A live event arriving mid-replay is kept, after the history.
    queued.receive({ type: 'message.created', seq: 451, ts: 451, message_id: 'live', role: 'user', text: 'live' });
    let ran = 0;
    let shownAfter = 0;
    while (tasks.length) {
      tasks.shift()!();
      ran++;
      if (!shownAfter && queued.getState().thread.rows.length) shownAfter = ran;
    }
    // 451 events in slices of 100, each in a later task (none in the flush, which may run in a
    // render), then the commit in a task of its own (no slice's folding in the render's task).
    expect(ran).toBe(6);
    expect(shownAfter).toBe(6);
    const rows = queued.getState().thread.rows;
    expect(queued.getState().replaying).toBe(false);
    expect(rows).toHaveLength(451);
    expect(rows[0]?.id).toBe('m0');
    expect(rows[450]?.id).toBe('live');
    // A short batch needs no slicing.
    store.receive(history[0]);
    expect(states).toEqual([{ rows: 1, replaying: false }]);
  });

  it('shows the newest turns of a long history first, still loading, then the whole history in their place', () => {
    const tasks: (() => void)[] = [];
    const store = createThreadStore(() => {}, { sliceEvents: 500, tailEvents: 100, nextTask: (work) => tasks.push(work) });
    const history = Array.from({ length: 3_000 }, (_, i) => ({
      type: 'message.created', seq: i + 1, ts: i + 1, message_id: `m${i}`, role: i % 2 ? 'assistant' : 'user', text: `message ${i}`,
    }));
    for (const e of history) store.receive(e);
    store.flush();
    expect(store.getState()).toMatchObject({ replaying: true });
    expect(store.getState().thread.rows).toHaveLength(0);
    // The newest turns folded in a task of their own, shown in the next (after a frame, in a page).
    tasks.shift()!();
    expect(store.getState().thread.rows).toHaveLength(0);
    tasks.shift()!();
    // The newest turns, from the latest user message with a screenful of rows after it: the newest message is there at once.
    const preview = store.getState();
    expect(preview.replaying).toBe(true);
    expect(preview.thread.rows.map((r) => r.id)).toEqual(history.slice(3_000 - TAIL_ROWS - 2).map((e) => e.message_id));
    expect(preview.thread.rows[0]?.kind).toBe('user');
    expect(preview.thread.malformed).toBe(0);
    while (tasks.length) tasks.shift()!();
    const done = store.getState();
    expect(done.replaying).toBe(false);
    expect(done.thread.rows.map((r) => r.id)).toEqual(history.map((e) => e.message_id));
    expect(done.thread.appliedUpTo).toBe(3_000);
  });

  it('starts the newest turns before a long streamed reply, within the last tailEvents events', () => {
    const history: Record<string, unknown>[] = [];
    const emit = (e: Record<string, unknown>) => history.push({ ...e, seq: history.length + 1, ts: history.length + 1 });
    for (let i = 0; i < 200; i++) emit({ type: 'message.created', message_id: `m${i}`, role: i % 2 ? 'assistant' : 'user', text: `message ${i}` });
    emit({ type: 'message.created', message_id: 'ask', role: 'user', text: 'write a lot' });
    emit({ type: 'message.created', message_id: 'long', role: 'assistant', text: '' });
    for (let i = 0; i < 1_500; i++) emit({ type: 'message.delta', message_id: 'long', delta: 'word ' });
    // No user message among the last 1,000 events: no preview (Loading until the whole history is in).
    expect(tailStart(history, 1_000)).toBe(-1);
    // Among the last 1,600: from the user message with a screenful of rows after it (the long
    // reply, the message it answers, and the turns before them).
    const cut = tailStart(history, 1_600);
    expect(history[cut]).toMatchObject({ type: 'message.created', role: 'user', message_id: 'm160' });
    expect(history.slice(cut).filter((e) => e.type === 'message.created')).toHaveLength(TAIL_ROWS + 2);
  });

  const many = (make: (i: number) => Record<string, unknown>) => Array.from({ length: TAIL_ROWS + 1 }, (_, i) => make(i));
  const subThread = (i: number) => ({ subthread_id: `s${i}`, skill: 'Skill/research', title: '/research', task: `task ${i}` });
  it.each([
    ['standing requests', [], many((i) => ({ type: 'standing.requested', request_id: `r${i}`, text: `every day ${i}` }))],
    ['sub-thread links', [], many((i) => ({ type: 'subthread.linked', parent_id: `p${i}`, skill: 'Skill/research', title: '/research', task: `task ${i}` }))],
    [
      'violations under a card',
      [],
      [
        { type: 'capability.started', invocation_id: 'inv', capability: 'records.count', title: 'Count', args: {} },
        ...many((i) => ({ type: 'capability.quality_violation', invocation_id: 'inv', postcondition: 'rows', expected: '1', actual: '0', message: `No row ${i}.` })),
      ],
    ],
    [
      'the summaries of sub-threads opened before',
      many((i) => ({ type: 'subthread.opened', ...subThread(i) })),
      many((i) => ({ type: 'subthread.done', subthread_id: `s${i}`, outcome: 'done', summary: 'Found it.' })),
    ],
  ] as const)('starts the newest turns where the fold makes a screenful of rows, counting %s', (_what, above, below) => {
    const history: Record<string, unknown>[] = [];
    const emit = (e: Record<string, unknown>) => history.push({ ...e, seq: history.length + 1, ts: history.length + 1 });
    for (let i = 0; i < 200; i++) emit({ type: 'message.created', message_id: `m${i}`, role: i % 2 ? 'assistant' : 'user', text: `message ${i}` });
    for (const e of above) emit(e);
    emit({ type: 'message.created', message_id: 'ask', role: 'user', text: 'and now?' });
    const ask = history.length - 1;
    // Rows that only these events make, a screenful and more.
    for (const e of below) emit(e);
    expect(foldAll(initialThreadState, history.slice(ask)).rows.length).toBeGreaterThan(TAIL_ROWS + 1);
    expect(tailStart(history, 100)).toBe(ask);
  });

  /** Folds `history` as the surface does on mount; returns the preview (newest turns) and the whole state. */
  const replayed = (history: Record<string, unknown>[], tailEvents: number) => {
    const tasks: (() => void)[] = [];
    const store = createThreadStore(() => {}, { sliceEvents: 100, tailEvents, nextTask: (work) => tasks.push(work) });
    for (const e of history) store.receive(e);
    store.flush();
    tasks.shift()!();
    tasks.shift()!();
    const preview = store.getState();
    expect(preview.replaying).toBe(true);
    while (tasks.length) tasks.shift()!();
    return { preview: preview.thread, done: store.getState().thread };
  };
  const history = () => {
    const events: Record<string, unknown>[] = [];
    const emit = (e: Record<string, unknown>) => events.push({ ...e, seq: events.length + 1, ts: events.length + 1 });
    return { events, emit };
  };

  it('shows the newest turns of a history the host stamped with branches, and no version tried and left', () => {
    const { events, emit } = history();
    let reply = 'root';
    for (let i = 0; i < 150; i++) {
      emit({ type: 'message.created', message_id: `u${i}`, role: 'user', text: `question ${i}`, branch: reply });
      const before = reply;
      reply = `u${i}.reply`;
      emit({ type: 'message.created', message_id: `a${i}`, role: 'assistant', text: `answer ${i}`, branch: reply });
      emit({ type: 'message.done', message_id: `a${i}` });
      if (i % 10 === 9) {
        // An edit tried and switched back, and a regeneration tried and switched back.
        emit({ type: 'message.created', message_id: `e${i}`, role: 'user', text: `again ${i}`, version_of: `u${i}`, branch: before });
        emit({ type: 'message.created', message_id: `ea${i}`, role: 'assistant', text: `another ${i}`, branch: `e${i}.reply` });
        emit({ type: 'version.selected', part: 'message', message_id: `u${i}`, version: `u${i}` });
        emit({ type: 'reply.regenerated', message_id: `u${i}`, reply_id: `r${i}` });
        emit({ type: 'message.created', message_id: `ra${i}`, role: 'assistant', text: `regenerated ${i}`, branch: `r${i}` });
        emit({ type: 'version.selected', part: 'reply', message_id: `u${i}`, version: `u${i}.reply` });
      }
    }
    const { preview, done } = replayed(events, 200);
    const shown = Array.from({ length: 150 }, (_, i) => [`u${i}`, `a${i}`]).flat();
    // The newest turns at once (their rows follow replies above the cut), none of the versions left.
    // (A screenful: the cut counts the versions' rows too, which wait on the shelf.)
    expect(preview.rows.length).toBeGreaterThan(TAIL_ROWS / 2);
    expect(preview.rows.map((r) => r.id)).toEqual(shown.slice(-preview.rows.length));
    expect(done.rows.map((r) => r.id)).toEqual(shown);
    expect(Object.keys(done.versions!.shelf)).toHaveLength(45);
  });

  it('shows no empty reply for the end of a message that began before the newest turns, and none of its text', () => {
    const { events, emit } = history();
    for (let i = 0; i < 300; i++) emit({ type: 'message.created', message_id: `m${i}`, role: i % 2 ? 'assistant' : 'user', text: `message ${i}` });
    // A reply starts, the user writes while it streams, then it ends: its end falls after the cut.
    emit({ type: 'message.created', message_id: 'reply', role: 'assistant', text: 'Part one' });
    emit({ type: 'message.created', message_id: 'meanwhile', role: 'user', text: 'and also…' });
    emit({ type: 'message.delta', message_id: 'reply', delta: ', part two' });
    emit({ type: 'message.done', message_id: 'reply' });
    const { preview, done } = replayed(events, 4);
    expect(preview.rows.map((r) => r.id)).toEqual(['meanwhile']);
    expect(done.rows.find((r) => r.id === 'reply')).toMatchObject({ kind: 'assistant', text: 'Part one, part two', status: 'done' });
    expect(done.rows.map((r) => r.id).slice(-2)).toEqual(['reply', 'meanwhile']);
  });

  it('shows the cards of invocations run in the newest turns, and not those queued above them', () => {
    const { events, emit } = history();
    for (let i = 0; i < 300; i++) emit({ type: 'message.created', message_id: `m${i}`, role: i % 2 ? 'assistant' : 'user', text: `message ${i}` });
    emit({ type: 'capability.queued', invocation_id: 'job', capability: 'records.export', title: 'Export records', args: {} });
    emit({ type: 'message.created', message_id: 'ask', role: 'user', text: 'Count the records' });
    emit({ type: 'capability.started', invocation_id: 'count', capability: 'records.count', title: 'Count records', args: {} });
    emit({ type: 'capability.started', invocation_id: 'job', capability: 'records.export', title: 'Export records', args: {} });
    emit({ type: 'capability.done', invocation_id: 'count', result: textResult('42 records.') });
    emit({ type: 'capability.done', invocation_id: 'job', result: textResult('Exported.') });
    const { preview, done } = replayed(events, 5);
    expect(preview.rows.map((r) => r.id)).toEqual(['ask', 'count']);
    expect(preview.rows[1]).toMatchObject({ kind: 'invocation', title: 'Count records', state: 'done' });
    expect(done.rows.map((r) => r.id).slice(-3)).toEqual(['job', 'ask', 'count']);
    expect(done.rows.find((r) => r.id === 'job')).toMatchObject({ kind: 'invocation', title: 'Export records', state: 'done' });
  });

  it('shows the newest turns with the running turn (Stop offered) and the selections made before them', () => {
    const { events, emit } = history();
    emit({ type: 'composer.changed', composer: { modelName: 'model-b' } });
    for (let i = 0; i < 300; i++) emit({ type: 'message.created', message_id: `m${i}`, role: i % 2 ? 'assistant' : 'user', text: `message ${i}` });
    emit({ type: 'turn.started', turn_id: 'old' });
    emit({ type: 'turn.done', turn_id: 'old', outcome: 'answered' });
    emit({ type: 'turn.started', turn_id: 'running' });
    emit({ type: 'message.created', message_id: 'queued', role: 'user', text: 'one more thing' });
    emit({ type: 'message.created', message_id: 'r1', role: 'assistant', text: 'Working on it' });
    const { preview, done } = replayed(events, 4);
    expect(preview.rows.map((r) => r.id)).toEqual(['queued', 'r1']);
    expect(preview.activeTurn).toBe('running');
    expect(preview.composer).toEqual(done.composer);
    expect(preview.composer).toMatchObject({ modelName: 'model-b' });
    expect(preview.malformed).toBe(0);
    expect(done.activeTurn).toBe('running');
    // A turn that ended before the cut is not shown as running.
    emit({ type: 'turn.done', turn_id: 'running', outcome: 'answered' });
    const later = history();
    for (const e of events) later.emit(e);
    later.emit({ type: 'message.created', message_id: 'last', role: 'user', text: 'thanks' });
    later.emit({ type: 'message.created', message_id: 'bye', role: 'assistant', text: 'You are welcome' });
    expect(replayed(later.events, 2).preview.activeTurn).toBeNull();
  });

  it('folds a long history into a thread that already has rows without a preview of its tail', () => {
    const tasks: (() => void)[] = [];
    const store = createThreadStore(() => {}, { sliceEvents: 500, tailEvents: 100, nextTask: (work) => tasks.push(work) });
    store.receive({ type: 'message.created', seq: 1, ts: 1, message_id: 'first', role: 'user', text: 'first' });
    store.flush();
    const states: number[] = [];
    store.subscribe((s) => states.push(s.thread.rows.length));
    for (let i = 2; i <= 1_200; i++) store.receive({ type: 'message.created', seq: i, ts: i, message_id: `m${i}`, role: 'user', text: `m${i}` });
    store.flush();
    while (tasks.length) tasks.shift()!();
    // Loading, then the whole thread at once: never the tail alone, which would hide the rows already shown.
    expect(states).toEqual([1, 1_200]);
  });

  describe('the default scheduler (frameScheduler)', () => {
    afterEach(() => vi.unstubAllGlobals());
    /** A page with animation frames that the test runs by hand. */
    const page = () => {
      const frames: FrameRequestCallback[] = [];
      vi.stubGlobal('document', { hidden: false });
      vi.stubGlobal('requestAnimationFrame', (cb: FrameRequestCallback) => frames.push(cb));
      const runFrame = () => frames.splice(0).forEach((cb) => cb(0));
      return { frames, runFrame };
    };

    /** Tasks the scheduler posts, run by hand. */
    const taskQueue = () => {
      const tasks: (() => void)[] = [];
      return { post: (work: () => void) => void tasks.push(work), runTask: () => tasks.shift()?.(), tasks };
    };

    /** A store on the default scheduler, its frames and tasks run by hand, counting its updates. */
    const scheduled = () => {
      const { frames, runFrame } = page();
      const { post, runTask, tasks } = taskQueue();
      const store = createThreadStore(frameScheduler(post));
      let count = 0;
      store.subscribe(() => count++);
      return { store, frames, runFrame, runTask, tasks, updates: () => count };
    };

    it('shows an event after a quiet frame in the next task, with everything its task brought, before any frame', async () => {
      const { store, frames, runTask, tasks, updates } = scheduled();
      store.receive(created(1));
      // A burst: deltas across the microtasks of the same task join the first commit.
      for (let i = 2; i <= 50; i++) {
        store.receive(delta(i, 'x'));
        await Promise.resolve();
      }
      expect(updates()).toBe(0);
      expect(tasks).toHaveLength(1);
      runTask();
      expect(updates()).toBe(1);
      expect(frames).toHaveLength(1);
      const row = store.getState().thread.rows[0];
      expect(row?.kind === 'assistant' && row.text).toBe('x'.repeat(49));
    });

    it('folds events that keep coming once per animation frame, then is quiet again after an empty frame', () => {
      const { store, frames, runFrame, runTask, tasks, updates } = scheduled();
      store.receive(created(1));
      runTask();
      expect(updates()).toBe(1);
      // Deltas in later tasks of the same frame wait for the frame, and go in one update.
      for (let i = 2; i <= 50; i++) {
        store.receive(delta(i, 'x'));
        runTask();
      }
      expect(updates()).toBe(1);
      expect(tasks).toHaveLength(0);
      runFrame();
      expect(updates()).toBe(2);
      const row = store.getState().thread.rows[0];
      expect(row?.kind === 'assistant' && row.text).toBe('x'.repeat(49));
      store.receive(delta(51, 'y'));
      expect(updates()).toBe(2);
      runFrame();
      expect(updates()).toBe(3);
      // A frame with nothing to flush: quiet; the next event is shown in the next task again.
      runFrame();
      expect(frames).toHaveLength(0);
      store.receive(delta(52, 'z'));
      expect(tasks).toHaveLength(1);
      runTask();
      expect(updates()).toBe(4);
      const last = store.getState().thread.rows[0];
      expect(last?.kind === 'assistant' && last.text).toBe('x'.repeat(49) + 'yz');
    });

    it('counts a frame that comes before its posted commit as not quiet: the events after that commit wait for the next frame', () => {
      const { store, frames, runFrame, runTask, tasks, updates } = scheduled();
      // The user's message; the page's frame was already due, so it runs before the posted commit.
      store.receive(created(1));
      runFrame();
      expect(updates()).toBe(0);
      runTask();
      expect(updates()).toBe(1);
      // The reply's first text, a task later: not a commit of its own, but with the next frame.
      store.receive(delta(2, 'x'));
      expect(tasks).toHaveLength(0);
      store.receive(delta(3, 'y'));
      expect(updates()).toBe(1);
      runFrame();
      expect(updates()).toBe(2);
      const row = store.getState().thread.rows[0];
      expect(row?.kind === 'assistant' && row.text).toBe('xy');
      // Then a frame with nothing to flush is quiet, as before.
      runFrame();
      expect(frames).toHaveLength(0);
    });

    it('posts its first commit as a MessageChannel task by default (after the microtasks of the task that received it)', async () => {
      page();
      const store = createThreadStore(frameScheduler());
      store.receive(created(1));
      await Promise.resolve();
      expect(store.getState().thread.rows).toHaveLength(0);
      // Not in this task's microtasks: in a task of its own, soon after.
      await vi.waitFor(() => expect(store.getState().thread.rows).toHaveLength(1), { timeout: 1_000, interval: 1 });
    });

    it('flushes on a timer when the page is hidden (no animation frames)', async () => {
      vi.useFakeTimers();
      try {
        vi.stubGlobal('document', { hidden: true });
        vi.stubGlobal('requestAnimationFrame', () => {
          throw new Error('no frames in a hidden page');
        });
        const store = createThreadStore(frameScheduler());
        store.receive(created(1));
        expect(store.getState().thread.rows).toHaveLength(0);
        vi.runAllTimers();
        expect(store.getState().thread.rows).toHaveLength(1);
      } finally {
        vi.useRealTimers();
      }
    });
  });
});
