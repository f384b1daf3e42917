import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { errorResult, textResult } from './results';
import { fold, foldAll, initialThreadState, type Row, type ThreadState } from './fold';

/**
 * Order independence of the fold: a valid log of one or more turns, folded in
 * any order and with any events repeated, reaches the state folding it in seq
 * order reaches (rows compared by kind and id: they are in arrival order by design).
 *
 * The deltas of one message, and the output chunks of one invocation, are one
 * stream each and concatenate as they arrive; the arrival orders generated here
 * keep each stream's first occurrences in seq order (everything else is free).
 */

// ---------------------------------------------------------------- scripts

type End = 'done' | 'isError' | 'error' | 'cancelled' | 'notRun' | 'queuedCancel';
interface InvokeScript {
  kind: 'invoke';
  capability: string;
  queued: boolean;
  actor: boolean;
  progress: number;
  outputs: string[];
  end: End;
  violations: number;
  slow: boolean;
}
type CallScript =
  | InvokeScript
  | { kind: 'proposal'; resolve: 'accepted' | 'dismissed' | null }
  | { kind: 'approval'; resolve: 'approved' | 'denied' | null }
  | { kind: 'question'; answer: boolean; purpose: boolean }
  | { kind: 'standing' };
interface StepScript {
  created: string;
  /** null: the step has no reply text. */
  deltas: string[] | null;
  calls: CallScript[];
}
/** `crash`: the process died mid-reply and nothing closed the turn (no done, no error). */
type Ending = 'normal' | 'stopped' | 'modelError' | 'interrupted' | 'tooManySteps' | 'crash';
interface TurnScript {
  skill: string | null;
  retrievalError: boolean;
  steps: StepScript[];
  ending: Ending;
  done: boolean;
}
type Item =
  | { kind: 'turn'; turn: TurnScript }
  | { kind: 'chip'; call: InvokeScript }
  | { kind: 'view'; view: string }
  | { kind: 'composer'; agentName: string | null; modelName: string | null }
  | { kind: 'offer'; then: 'saved' | 'dismissed' | 'both' | null };
type Malformed = 'withSeq' | 'null' | 'garbage' | 'object';
interface Script {
  weirdIds: boolean;
  items: Item[];
  malformed: Malformed[];
}

const word = fc.constantFrom('a', 'bc', 'Hé', ' ', '\n', '', 'xyz');
const invokeArb: fc.Arbitrary<InvokeScript> = fc.record({
  kind: fc.constant('invoke' as const),
  capability: fc.constantFrom('csv.import', 'records.enrich', 'report.build'),
  queued: fc.boolean(),
  actor: fc.boolean(),
  progress: fc.nat(3),
  outputs: fc.array(word, { maxLength: 3 }),
  end: fc.constantFrom<End>('done', 'done', 'isError', 'error', 'cancelled', 'notRun', 'queuedCancel'),
  violations: fc.nat(2),
  slow: fc.boolean(),
});
const callArb: fc.Arbitrary<CallScript> = fc.oneof(
  { arbitrary: invokeArb, weight: 4 },
  fc.record({ kind: fc.constant('proposal' as const), resolve: fc.constantFrom('accepted' as const, 'dismissed' as const, null) }),
  fc.record({ kind: fc.constant('approval' as const), resolve: fc.constantFrom('approved' as const, 'denied' as const, null) }),
  fc.record({ kind: fc.constant('question' as const), answer: fc.boolean(), purpose: fc.boolean() }),
  fc.record({ kind: fc.constant('standing' as const) }),
);
const stepArb: fc.Arbitrary<StepScript> = fc.record({
  created: fc.constantFrom('', 'So '),
  deltas: fc.option(fc.array(word, { maxLength: 4 }), { freq: 4 }),
  calls: fc.array(callArb, { maxLength: 2 }),
});
const turnArb: fc.Arbitrary<TurnScript> = fc.record({
  skill: fc.option(fc.constantFrom('Skill/a', 'Skill/b')),
  retrievalError: fc.oneof({ arbitrary: fc.constant(false), weight: 4 }, { arbitrary: fc.constant(true), weight: 1 }),
  steps: fc.array(stepArb, { minLength: 1, maxLength: 3 }),
  ending: fc.constantFrom<Ending>('normal', 'normal', 'stopped', 'modelError', 'interrupted', 'tooManySteps', 'crash'),
  done: fc.oneof({ arbitrary: fc.constant(true), weight: 5 }, { arbitrary: fc.constant(false), weight: 1 }),
});
const itemArb: fc.Arbitrary<Item> = fc.oneof(
  { arbitrary: turnArb.map((turn) => ({ kind: 'turn' as const, turn })), weight: 4 },
  { arbitrary: invokeArb.map((call) => ({ kind: 'chip' as const, call })), weight: 1 },
  { arbitrary: fc.constantFrom('list', 'detail', 'board').map((view) => ({ kind: 'view' as const, view })), weight: 1 },
  {
    arbitrary: fc.record({ kind: fc.constant('composer' as const), agentName: fc.option(fc.constantFrom('ada', 'bob')), modelName: fc.option(fc.constantFrom('m1', 'm2')) }),
    weight: 1,
  },
  { arbitrary: fc.record({ kind: fc.constant('offer' as const), then: fc.constantFrom('saved' as const, 'dismissed' as const, 'both' as const, null) }), weight: 1 },
);
const scriptArb: fc.Arbitrary<Script> = fc.record({
  weirdIds: fc.boolean(),
  items: fc.array(itemArb, { minLength: 1, maxLength: 4 }),
  malformed: fc.array(fc.constantFrom<Malformed>('withSeq', 'null', 'garbage', 'object'), { maxLength: 2 }),
});

// ---------------------------------------------------------------- logs

/** First ids of each kind, when the script asks for them: names Object.prototype has. */
const WEIRD: Record<string, string> = {
  turn: 'constructor',
  msg: '__proto__',
  inv: '__proto__',
  call: 'toString',
  proposal: 'hasOwnProperty',
  approval: 'valueOf',
  question: 'toString',
  offer: '__proto__',
  standing: 'constructor',
  job: '__proto__',
};
const driver = { id: 'offline', label: 'Offline model' };
const actor = { id: 'enricher', name: 'Enricher', glyph: 'E' };
const route = { kind: 'ambiguous' as const, cues: ['watch'] };

class Log {
  readonly events: Record<string, unknown>[] = [];
  private seq = 0;
  private readonly counters = new Map<string, number>();
  /** Keys of streams whose order is kept: `delta:<message id>`, `output:<invocation id>`. */
  readonly streams = new Map<number, string>();

  constructor(private readonly weird: boolean) {}

  id(prefix: string): string {
    const n = (this.counters.get(prefix) ?? 0) + 1;
    this.counters.set(prefix, n);
    return this.weird && n === 1 ? WEIRD[prefix]! : `${prefix}_${n}`;
  }

  emit(type: string, fields: Record<string, unknown>, stream?: string): void {
    const seq = ++this.seq;
    if (stream) this.streams.set(seq, stream);
    this.events.push({ type, seq, ts: seq * 10, ...fields });
  }
}

function invocation(log: Log, call: InvokeScript, turnId: string | null, interrupted: boolean): void {
  const id = log.id('inv');
  const callId = turnId ? log.id('call') : null;
  const turn = turnId ? { turn_id: turnId } : {};
  const named = { capability: call.capability, title: `Run ${call.capability}`, args: { file: 'a.csv' } };
  if (call.queued || call.end === 'queuedCancel') {
    log.emit('capability.queued', { invocation_id: id, ...named, title: 'Import CSV (queued)', args: { file: 'a.csv', queued: true }, ...turn, job_id: log.id('job'), ...(call.actor ? { actor } : {}) });
  }
  if (call.end === 'notRun' || call.end === 'queuedCancel') {
    const code = call.end === 'notRun' ? 'invalid_arguments' : 'cancelled';
    log.emit('capability.error', { invocation_id: id, capability: call.capability, ...(call.queued ? {} : { title: named.title }), error: { code, message: 'Not run.' }, recoverable: true });
    return;
  }
  log.emit('capability.started', { invocation_id: id, ...named, ...turn, ...(callId ? { call_id: callId } : {}), ...(call.actor && call.queued ? {} : call.actor ? { actor } : {}) });
  for (let k = 1; k <= call.progress; k++) log.emit('capability.progress', { invocation_id: id, progress: k, total: call.progress, ...(k === 1 ? { message: 'first' } : {}) });
  for (const text of call.outputs) log.emit('capability.output', { invocation_id: id, stream: 'stdout', text }, `output:${id}`);
  if (interrupted) {
    log.emit('capability.error', { invocation_id: id, capability: call.capability, title: named.title, error: { code: 'interrupted', message: 'The server restarted.' }, recoverable: true });
  } else if (call.end === 'done' || call.end === 'isError') {
    log.emit('capability.done', { invocation_id: id, result: call.end === 'done' ? textResult('Imported.', { rows: 3 }) : errorResult('No file.') });
    if (call.end === 'done') {
      for (let k = 0; k < call.violations; k++) {
        log.emit('capability.quality_violation', { invocation_id: id, postcondition: `p${k}`, expected: '+3', actual: '+0', message: 'No rows.' });
      }
      if (call.slow) log.emit('quality.slow', { invocation_id: id, max_ms: 10, actual_ms: 50 });
    }
  } else {
    const code = call.end === 'cancelled' ? 'cancelled' : 'handler_error';
    log.emit('capability.error', { invocation_id: id, capability: call.capability, error: { code, message: 'Failed.' }, recoverable: true, ...(code === 'handler_error' ? { result: errorResult('Failed.') } : {}) });
  }
  if (turnId) {
    log.emit('model.message', { turn_id: turnId, message: { role: 'tool', call_id: callId, capability: 'csv.import', title: 'Import CSV', args: {}, result: textResult('ok') } });
  }
}

function reply(log: Log, turnId: string, created: string, deltas: readonly string[]): string {
  const id = log.id('msg');
  log.emit('message.created', { message_id: id, role: 'assistant', text: created, turn_id: turnId, driver });
  for (const delta of deltas) log.emit('message.delta', { message_id: id, delta }, `delta:${id}`);
  return id;
}

function turn(log: Log, script: TurnScript): void {
  const turnId = log.id('turn');
  const waitingFields = { call_id: log.id('call'), user_text: 'import it', route };
  log.emit('message.created', { message_id: log.id('msg'), role: 'user', text: 'import it', turn_id: turnId });
  log.emit('turn.started', { turn_id: turnId, driver });
  log.emit('model.message', { turn_id: turnId, message: { role: 'user', text: 'import it' } });
  if (script.skill) log.emit('skill.activated', { skill: script.skill, title: 'A skill' });
  if (script.retrievalError) log.emit('turn.error', { turn_id: turnId, code: 'retrieval_failed', message: 'No search.', recoverable: true });
  let outcome = 'answered';
  let resolution: (() => void) | null = null;
  steps: for (const [i, step] of script.steps.entries()) {
    const ending: Ending = i === script.steps.length - 1 ? script.ending : 'normal';
    if (step.deltas !== null || ending === 'modelError' || ending === 'interrupted' || ending === 'crash') {
      const id = reply(log, turnId, step.created, step.deltas ?? ['…']);
      if (ending === 'crash') return;
      if (ending === 'modelError') {
        log.emit('turn.error', { turn_id: turnId, code: 'model_error', message: 'The model failed.', recoverable: true });
        outcome = 'failed';
        break;
      }
      log.emit('message.done', { message_id: id, ...(ending === 'interrupted' ? { interrupted: true } : { usage: { input_tokens: 3, output_tokens: 4 } }) });
      log.emit('model.message', { turn_id: turnId, message: { role: 'assistant', text: step.created } });
    }
    if (ending === 'stopped') {
      log.emit('turn.error', { turn_id: turnId, code: 'cancelled', message: 'Stopped.', recoverable: true });
      outcome = 'cancelled';
      break;
    }
    if (ending === 'interrupted') {
      const running = step.calls.find((c): c is InvokeScript => c.kind === 'invoke');
      if (running) invocation(log, { ...running, end: 'done' }, turnId, true);
      log.emit('turn.error', { turn_id: turnId, code: 'interrupted', message: 'The server restarted; this reply was cut off.', recoverable: true });
      outcome = 'interrupted';
      break;
    }
    for (const call of step.calls) {
      if (call.kind === 'invoke') {
        invocation(log, call, turnId, false);
        outcome = 'invoked';
      } else if (call.kind === 'standing') {
        log.emit('standing.requested', { request_id: log.id('standing'), turn_id: turnId, text: 'watch it', cadence: 'weekly' });
      } else if (call.kind === 'proposal') {
        const id = log.id('proposal');
        log.emit('proposal.created', { proposal_id: id, turn_id: turnId, capability: 'csv.import', title: 'Import CSV', args: {}, reason: 'New file.', ...waitingFields });
        const decision = call.resolve;
        if (decision) resolution = () => log.emit('proposal.resolved', { proposal_id: id, decision });
        outcome = 'proposed';
        break steps;
      } else if (call.kind === 'approval') {
        const id = log.id('approval');
        log.emit('approval.requested', { approval_id: id, turn_id: turnId, capability: 'csv.import', title: 'Import CSV', args: {}, reason: 'It writes.', ...waitingFields });
        const decision = call.resolve;
        if (decision) resolution = () => log.emit('approval.resolved', { approval_id: id, decision });
        outcome = 'waiting';
        break steps;
      } else {
        const id = log.id('question');
        log.emit('clarify.requested', {
          question_id: id, turn_id: turnId, question: 'Once, or keep watching?', options: [{ label: 'Once', value: 'once' }], ...waitingFields,
          ...(call.purpose ? { purpose: 'route' } : {}),
        });
        if (call.answer) resolution = () => log.emit('clarify.answered', { question_id: id, answer: 'once' });
        outcome = 'waiting';
        break steps;
      }
    }
    if (ending === 'tooManySteps') {
      log.emit('turn.error', { turn_id: turnId, code: 'too_many_steps', message: 'Too many steps.', recoverable: true });
      outcome = 'failed';
    }
  }
  if (script.done) log.emit('turn.done', { turn_id: turnId, outcome });
  if (resolution) {
    resolution();
    // The decision resumes in a turn of its own.
    const resumed = log.id('turn');
    log.emit('turn.started', { turn_id: resumed, driver });
    const id = reply(log, resumed, 'Done', ['.']);
    log.emit('message.done', { message_id: id });
    log.emit('turn.done', { turn_id: resumed, outcome: 'answered' });
  }
}

/** The script's log, in seq order, and the stream each seq belongs to (if any). */
function build(script: Script): { events: unknown[]; streams: Map<number, string> } {
  const log = new Log(script.weirdIds);
  for (const item of script.items) {
    switch (item.kind) {
      case 'turn':
        turn(log, item.turn);
        break;
      case 'chip':
        invocation(log, item.call, null, false);
        break;
      case 'view':
        log.emit('view.changed', { view: { kind: item.view } });
        break;
      case 'composer':
        log.emit('composer.changed', { composer: { ...(item.agentName ? { agentName: item.agentName } : {}), ...(item.modelName ? { modelName: item.modelName } : {}) } });
        break;
      case 'offer': {
        const id = log.id('offer');
        log.emit('skill.offered', { offer_id: id, sequence: ['csv.import', 'records.enrich'], titles: ['Import', 'Enrich'], name: 'import-and-enrich', description: 'd', instructions: 'i' });
        if (item.then === 'dismissed' || item.then === 'both') log.emit('skill.offer_dismissed', { offer_id: id });
        if (item.then === 'saved' || item.then === 'both') log.emit('skill.saved', { offer_id: id, path: 'me/Skill/x', name: '/x' });
        break;
      }
    }
  }
  const events: unknown[] = [...log.events];
  for (const kind of script.malformed) {
    if (kind === 'withSeq') {
      log.emit('message.exploded', {});
      events.push(log.events.at(-1));
    } else {
      events.push(kind === 'null' ? null : kind === 'garbage' ? 'garbage' : { type: 'turn.error', seq: 'late' });
    }
  }
  return { events, streams: log.streams };
}

// ---------------------------------------------------------------- arrival orders

const seqOf = (event: unknown): number | undefined =>
  typeof event === 'object' && event !== null && typeof (event as { seq?: unknown }).seq === 'number' ? (event as { seq: number }).seq : undefined;

/**
 * `events` in the order `order` gives, with `dups` copies inserted, then with
 * each stream's events put back in seq order on the places the stream holds.
 */
function arrange(events: readonly unknown[], streams: ReadonlyMap<number, string>, order: readonly number[], dups: readonly [number, number][]): unknown[] {
  const out = order.map((i) => events[i]);
  for (const [from, at] of dups) out.splice(at % (out.length + 1), 0, events[from % events.length]);
  const places = new Map<string, number[]>();
  out.forEach((event, i) => {
    const stream = streams.get(seqOf(event) ?? -1);
    if (stream) places.set(stream, [...(places.get(stream) ?? []), i]);
  });
  for (const at of places.values()) {
    const sorted = at.map((i) => out[i]).sort((a, b) => seqOf(a)! - seqOf(b)!);
    at.forEach((i, k) => (out[i] = sorted[k]));
  }
  return out;
}

/** What holds of any state, whatever the order: the cast is the running cards, ids follow rows, one row per malformed event. */
function checkInvariants(state: ThreadState): void {
  const running = state.rows.filter((r) => r.kind === 'invocation' && r.state === 'running');
  expect(Object.keys(state.open).sort()).toEqual(running.map((r) => r.id).sort());
  for (const row of running) {
    if (row.kind !== 'invocation') continue;
    expect(state.open[row.id]).toEqual({ invocation_id: row.id, capability: row.capability, title: row.title, ...(row.actor ? { actor: row.actor } : {}), ...(row.progress ? { progress: row.progress } : {}) });
  }
  expect(state.ids).toEqual(state.rows.map((r) => r.id));
  expect(new Set(state.rows.map((r) => `${r.kind}:${r.id}`)).size).toBe(state.rows.length);
  expect(state.rows.filter((r) => r.kind === 'error' && r.code === 'malformed_event')).toHaveLength(state.malformed);
  for (const row of state.rows) {
    if (row.kind !== 'violation') continue;
    const card = state.rows.find((r) => r.kind === 'invocation' && r.id === row.invocation_id);
    expect(card && card.kind === 'invocation' ? card.title : null).toBe(row.title);
  }
}

/** The state up to row order: rows by kind and id, the cast by id. */
function normalized(state: ThreadState) {
  const key = (row: Row) => `${row.kind}:${row.id}`;
  return {
    rows: [...state.rows].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0)),
    ids: [...state.ids].sort(),
    open: Object.entries(state.open).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
    activeTurn: state.activeTurn,
    lastTurnStartedSeq: state.lastTurnStartedSeq,
    lastCapability: state.lastCapability,
    activeView: state.activeView,
    composer: state.composer,
    activeSkills: state.activeSkills,
    appliedUpTo: state.appliedUpTo,
    appliedAbove: state.appliedAbove,
    malformed: state.malformed,
  };
}

const caseArb = scriptArb.chain((script) => {
  const { events, streams } = build(script);
  const n = events.length;
  return fc.record({
    script: fc.constant(script),
    events: fc.constant(events),
    streams: fc.constant(streams),
    order: fc.shuffledSubarray(
      events.map((_, i) => i),
      { minLength: n, maxLength: n },
    ),
    dups: fc.array(fc.tuple(fc.nat(), fc.nat()), { maxLength: 6 }),
    cuts: fc.array(fc.nat(), { maxLength: 4 }),
  });
});

describe('fold: order independence (property)', () => {
  it('any arrival order, with repeats, reaches the state the seq order reaches', () => {
    fc.assert(
      fc.property(caseArb, ({ events, streams, order, dups, cuts }) => {
        const reference = foldAll(initialThreadState, events);
        const arrival = arrange(events, streams, order, dups);
        const shuffled = foldAll(initialThreadState, arrival);
        checkInvariants(reference);
        checkInvariants(shuffled);
        expect(Object.getPrototypeOf(shuffled.open)).toBeNull();
        expect(normalized(shuffled)).toEqual(normalized(reference));

        // Folded in batches (or one by one) it is the same again.
        const at = [...new Set(cuts.map((c) => c % (arrival.length + 1)))].sort((a, b) => a - b);
        let batched = initialThreadState;
        let from = 0;
        for (const [k, to] of [...at, arrival.length].entries()) {
          batched = foldAll(batched, arrival.slice(from, to));
          // Between the first two batches the state goes through JSON (stored, sent, restored).
          if (k === 0) batched = JSON.parse(JSON.stringify(batched)) as ThreadState;
          from = to;
        }
        checkInvariants(batched);
        expect(normalized(batched)).toEqual(normalized(reference));

        // Replaying the whole log (a reconnect) changes nothing.
        expect(foldAll(shuffled, events)).toBe(shuffled);
        expect(foldAll(shuffled, arrival)).toBe(shuffled);
      }),
      { numRuns: 300 },
    );
  });

  it('one event at a time gives what one batch gives', () => {
    fc.assert(
      fc.property(caseArb, ({ events, streams, order, dups }) => {
        const arrival = arrange(events, streams, order, dups);
        let one = initialThreadState;
        for (const event of arrival) one = fold(one, event);
        expect(one).toEqual(foldAll(initialThreadState, arrival));
      }),
      { numRuns: 100 },
    );
  });

  it('the generated logs are valid and cover the shapes they should', () => {
    const seen = new Set<string>();
    fc.assert(
      fc.property(scriptArb, (script) => {
        const { events } = build(script);
        const state = foldAll(initialThreadState, events);
        // Each malformed event with a seq counts; those without count once per distinct value.
        const distinct = new Set(script.malformed.filter((m) => m !== 'withSeq')).size;
        expect(state.malformed).toBe(script.malformed.filter((m) => m === 'withSeq').length + distinct);
        const wellFormed = events.filter((e) => seqOf(e) !== undefined && (e as { type: string }).type !== 'message.exploded');
        expect(foldAll(initialThreadState, wellFormed).malformed).toBe(0);
        for (const row of state.rows) seen.add(`${row.kind}:${'status' in row ? row.status : 'state' in row ? row.state : ''}`);
        if (state.activeTurn) seen.add('activeTurn');
      }),
      { numRuns: 200 },
    );
    for (const shape of ['assistant:interrupted', 'assistant:error', 'assistant:done', 'invocation:done', 'invocation:cancelled', 'invocation:failed', 'proposal:accepted', 'question:answered', 'approval:pending', 'skill_offer:saved', 'violation:', 'assistant:streaming', 'activeTurn']) {
      expect(seen).toContain(shape);
    }
  });
});
