import type { EventOf } from '../events';
import { runEnded } from '../runStatus';
import { SHELVED, type Draft } from './draft';
import { own } from './records';
import type { InvocationRow, ProgressInfo, Violation } from './rows';
import type { CastEntry } from './state';

/** Streamed output kept per card; older text is dropped and the card says so. */
export const OUTPUT_LIMIT = 8_000;

type InvocationEvent = EventOf<
  | 'capability.queued'
  | 'capability.started'
  | 'capability.progress'
  | 'capability.output'
  | 'capability.done'
  | 'capability.error'
  | 'capability.quality_violation'
  | 'capability.checked'
  | 'quality.slow'
>;

/**
 * One run of a capability, its card: queued, started, progress and output, its end, and what
 * its postconditions found (a violation is a row of its own as well). Any of its events may
 * arrive first: the card is made by whichever does (see `placeholder`).
 */
export function foldInvocation(d: Draft, event: InvocationEvent): void {
  const at = d.find(event.invocation_id, 'invocation');
  const prior = d.row(at, 'invocation');
  switch (event.type) {
    case 'capability.queued':
      return putInvocation(d, at, prior, queued(prior, event));
    case 'capability.started':
      return putInvocation(d, at, prior, started(prior, event));
    case 'capability.progress':
      return progressed(d, at, prior, event);
    case 'capability.output': {
      const base = prior ?? { ...placeholder(event.invocation_id), startedAt: event.ts };
      let output = base.output + event.text;
      let outputTruncated = base.outputTruncated;
      if (output.length > OUTPUT_LIMIT) {
        output = output.slice(output.length - OUTPUT_LIMIT);
        outputTruncated = true;
      }
      const row: InvocationRow = { ...base, output, outputTruncated };
      // Output changes neither the state nor what the cast shows.
      return prior ? d.replace(at, row) : putInvocation(d, at, prior, row);
    }
    case 'capability.done': {
      const base = prior ?? placeholder(event.invocation_id);
      if ((base.seqs?.ended ?? 0) > event.seq) return; // a later end arrived first
      const row: InvocationRow = {
        ...(base.error === undefined && base.recoverable === undefined ? base : withoutError(base)),
        state: event.result.isError ? 'failed' : 'done',
        result: event.result,
        endedAt: event.ts,
        seqs: { ...base.seqs, ended: event.seq },
      };
      return putInvocation(d, at, prior, row);
    }
    case 'capability.error':
      return failed(d, at, prior, event);
    case 'capability.quality_violation':
      return violated(d, at, prior, event);
    case 'capability.checked': {
      const base = prior ?? placeholder(event.invocation_id);
      return putInvocation(d, at, prior, { ...base, checks: event.checks.map((c) => ({ postcondition: c.postcondition, text: c.text })) });
    }
    case 'quality.slow': {
      const base = prior ?? placeholder(event.invocation_id);
      return putInvocation(d, at, prior, { ...base, slow: { max_ms: event.max_ms, actual_ms: event.actual_ms } });
    }
    default:
      return event satisfies never;
  }
}

function queued(prior: InvocationRow | null, event: EventOf<'capability.queued'>): InvocationRow {
  let row: InvocationRow;
  if (!prior) {
    row = {
      kind: 'invocation',
      id: event.invocation_id,
      capability: event.capability,
      title: event.title,
      args: event.args,
      state: 'queued',
      output: '',
      outputTruncated: false,
      seqs: { queued: event.seq },
    };
    if (event.actor) row.actor = event.actor;
    if (event.turn_id) row.turn_id = event.turn_id;
  } else if (prior.seqs?.started === undefined) {
    // Events after it arrived first: it names the card until started does; the state stays theirs.
    row = { ...prior, capability: event.capability, title: event.title, args: event.args, seqs: { ...prior.seqs, queued: event.seq } };
    if (event.actor) row.actor = event.actor;
    if (event.turn_id) row.turn_id = event.turn_id;
  } else {
    // Started arrived first and names the card; queued fills only what started left out.
    row = { ...prior, seqs: { ...prior.seqs, queued: event.seq } };
    if (event.actor && !row.actor) row.actor = event.actor;
    if (event.turn_id && !row.turn_id) row.turn_id = event.turn_id;
  }
  if (event.job_id) row.job_id = event.job_id;
  return row;
}

function started(prior: InvocationRow | null, event: EventOf<'capability.started'>): InvocationRow {
  const row: InvocationRow = prior
    ? { ...prior, capability: event.capability, title: event.title, args: event.args, startedAt: event.ts, seqs: { ...prior.seqs, started: event.seq } }
    : {
        kind: 'invocation',
        id: event.invocation_id,
        capability: event.capability,
        title: event.title,
        args: event.args,
        state: 'running',
        output: '',
        outputTruncated: false,
        startedAt: event.ts,
        seqs: { started: event.seq },
      };
  if (event.actor) row.actor = event.actor;
  if (event.turn_id) row.turn_id = event.turn_id;
  if (event.call_id) row.call_id = event.call_id;
  // A card that ended already (its done arrived first) stays ended.
  if (row.state === 'queued') row.state = 'running';
  return row;
}

function progressed(d: Draft, at: number, prior: InvocationRow | null, event: EventOf<'capability.progress'>): void {
  const base = prior ?? { ...placeholder(event.invocation_id), startedAt: event.ts };
  const seqs = base.seqs ?? {};
  // Progress after the card ended (by seq) changes nothing.
  if (isEnded(base) && (seqs.ended === undefined || event.seq > seqs.ended)) return;
  const state = base.state === 'queued' ? 'running' : base.state;
  let row: InvocationRow;
  if ((seqs.progress ?? 0) < event.seq) {
    const progress: ProgressInfo = { progress: event.progress };
    if (event.total !== undefined) progress.total = event.total;
    if (event.message !== undefined) progress.message = event.message;
    row = { ...base, state, progress, seqs: { ...seqs, progress: event.seq } };
  } else {
    // An older progress than the one shown: it only says the card runs.
    if (prior && state === prior.state) return;
    row = { ...base, state };
  }
  putInvocation(d, at, prior, row);
}

function failed(d: Draft, at: number, prior: InvocationRow | null, event: EventOf<'capability.error'>): void {
  const base = prior ?? placeholder(event.invocation_id);
  const seqs = base.seqs;
  if ((seqs?.ended ?? 0) > event.seq) return;
  // Named by queued or started when either arrived; by the error itself otherwise (e.g. bad arguments).
  const named = seqs ? seqs.queued !== undefined || seqs.started !== undefined : base.capability !== '';
  const row: InvocationRow = {
    ...(base.result === undefined ? base : withoutResult(base)),
    capability: named ? base.capability : event.capability,
    title: named ? base.title : (event.title ?? event.capability),
    state: event.error.code === 'cancelled' ? 'cancelled' : 'failed',
    error: event.error,
    recoverable: event.recoverable,
    endedAt: event.ts,
    seqs: { ...seqs, ended: event.seq },
  };
  if (event.result) row.result = event.result;
  putInvocation(d, at, prior, row);
}

/** A postcondition that did not hold: listed on the card (in seq order) and a row of its own after it. */
function violated(d: Draft, at: number, prior: InvocationRow | null, event: EventOf<'capability.quality_violation'>): void {
  const base = prior ?? placeholder(event.invocation_id);
  const violation: Violation = {
    postcondition: event.postcondition,
    expected: event.expected,
    actual: event.actual,
    message: event.message,
    seq: event.seq,
  };
  const violations = [...(base.violations ?? [])];
  let i = violations.length;
  while (i > 0 && (violations[i - 1]!.seq ?? 0) > event.seq) i--;
  violations.splice(i, 0, violation);
  const row: InvocationRow = { ...base, violations };
  putInvocation(d, at, prior, row);
  d.add({
    kind: 'violation',
    id: `violation-${event.seq}`,
    invocation_id: event.invocation_id,
    title: row.title,
    ...violation,
    seq: event.seq,
  });
}

/** The row for an invocation a later event reached first: running, named by its queued or started event once that arrives. */
function placeholder(id: string): InvocationRow {
  return { kind: 'invocation', id, capability: '', title: 'Working…', args: undefined, state: 'running', output: '', outputTruncated: false, seqs: {} };
}

/** The card of a call the model has finished writing: its arguments are the event's now. */
function written(row: InvocationRow): InvocationRow {
  if (row.argsText === undefined) return row;
  const { argsText: _argsText, ...rest } = row;
  return rest;
}

function withoutError(row: InvocationRow): InvocationRow {
  const { error: _error, recoverable: _recoverable, ...rest } = row;
  return rest;
}

function withoutResult(row: InvocationRow): InvocationRow {
  const { result: _result, ...rest } = row;
  return rest;
}

function isEnded(row: InvocationRow): boolean {
  return runEnded(row.state);
}

/**
 * Puts an invocation's new row in place (the shared upsert) and keeps what derives from it in
 * step: the cast (open exactly while it runs), the titles of its violation rows, and `lastCapability`.
 */
function putInvocation(d: Draft, at: number, prior: InvocationRow | null, next: InvocationRow): void {
  // Any event of the run itself (queued, started, ended, even interrupted) means the call is written.
  const row = written(next);
  d.put(at, row);
  // A run of a version not shown is not in the cast (a switch back shows it there again).
  if (at === SHELVED) return;

  const cast = own(d.next.open, row.id);
  if (row.state === 'running') {
    if (!cast || cast.capability !== row.capability || cast.title !== row.title || cast.actor !== row.actor || cast.progress !== row.progress) {
      const entry: CastEntry = { invocation_id: row.id, capability: row.capability, title: row.title };
      if (row.actor) entry.actor = row.actor;
      if (row.progress) entry.progress = row.progress;
      d.setCast(row.id, entry);
    }
  } else if (cast) {
    d.setCast(row.id, null);
  }

  if (prior && prior.title !== row.title && row.violations) {
    for (const v of row.violations) {
      const i = v.seq === undefined ? -1 : d.find(`violation-${v.seq}`, 'violation');
      const violation = d.row(i, 'violation');
      if (violation) d.replace(i, { ...violation, title: row.title });
    }
  }

  const ended = row.seqs?.ended ?? 0;
  if (row.state === 'done' && row.capability !== '' && ended >= d.next.seqs.lastCapability) {
    if (d.next.lastCapability !== row.capability || d.next.seqs.lastCapability !== ended) {
      d.next.lastCapability = row.capability;
      d.seqs().lastCapability = ended;
    }
  }
}
