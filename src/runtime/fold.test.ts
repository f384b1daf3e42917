import { describe, expect, it } from 'vitest';
import { errorResult, textResult } from './results';
import {
  OUTPUT_LIMIT,
  fold,
  foldAll,
  hasApplied,
  initialThreadState,
  malformedKey,
  type AssistantRow,
  type ErrorRow,
  type InvocationRow,
  type ThreadState,
  type UserRow,
} from './fold';

/** Freezes a value and everything it reaches, so any mutation by fold throws. */
function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key]);
  }
  return value;
}

const actor = { id: 'enricher', name: 'Enricher', glyph: 'E' };

describe('fold: messages', () => {
  it('adds a user row for message.created with role user', () => {
    const state = fold(initialThreadState, {
      type: 'message.created', seq: 1, ts: 10, message_id: 'm1', role: 'user', text: 'Hello there',
    });
    expect(state.rows).toEqual([{ kind: 'user', id: 'm1', text: 'Hello there' }]);
    expect(state.ids).toEqual(['m1']);
  });

  it('adds a streaming assistant row carrying the turn and the driver', () => {
    const state = fold(initialThreadState, {
      type: 'message.created', seq: 1, ts: 10, message_id: 'a1', role: 'assistant', text: '',
      turn_id: 't1', driver: { id: 'offline', label: 'Offline model' },
    });
    expect(state.rows).toEqual([
      { kind: 'assistant', id: 'a1', text: '', status: 'streaming', turn_id: 't1', driver: { id: 'offline', label: 'Offline model' }, seq: 1 },
    ]);
  });

  it('appends message.delta text to the assistant row, in order', () => {
    const state = foldAll(initialThreadState, [
      { type: 'message.created', seq: 1, ts: 1, message_id: 'a1', role: 'assistant', text: '' },
      { type: 'message.delta', seq: 2, ts: 2, message_id: 'a1', delta: 'Hel' },
      { type: 'message.delta', seq: 3, ts: 3, message_id: 'a1', delta: 'lo ' },
      { type: 'message.delta', seq: 4, ts: 4, message_id: 'a1', delta: 'world' },
    ]);
    const row = state.rows[0] as AssistantRow;
    expect(row.text).toBe('Hello world');
    expect(row.status).toBe('streaming');
    expect(state.rows).toHaveLength(1);
  });

  it('folds a batch of deltas into one new row object, leaving every earlier state its own text', () => {
    const delta = (seq: number, text: string) => ({ type: 'message.delta', seq, ts: seq, message_id: 'a1', delta: text });
    const started = foldAll(initialThreadState, [
      { type: 'message.created', seq: 1, ts: 1, message_id: 'a1', role: 'assistant', text: '' },
      delta(2, 'one '),
    ]);
    const before = started.rows[0];
    const burst = foldAll(started, [delta(3, 'two '), delta(4, 'three '), { type: 'message.done', seq: 5, ts: 5, message_id: 'a1' }, delta(6, 'four')]);
    expect((burst.rows[0] as AssistantRow).text).toBe('one two three four');
    expect((burst.rows[0] as AssistantRow).status).toBe('done');
    expect(started.rows[0]).toBe(before);
    expect((started.rows[0] as AssistantRow).text).toBe('one ');
    // A second lineage from the same state: its deltas land in a row of its own.
    const other = foldAll(started, [delta(3, 'TWO')]);
    expect((other.rows[0] as AssistantRow).text).toBe('one TWO');
    expect((burst.rows[0] as AssistantRow).text).toBe('one two three four');
    // The next batch appends to a new object: the state the store published keeps its text.
    const next = foldAll(burst, [delta(7, '!')]);
    expect((next.rows[0] as AssistantRow).text).toBe('one two three four!');
    expect((burst.rows[0] as AssistantRow).text).toBe('one two three four');
  });

  it('keeps the ids list unchanged while a message streams (rows only change in place)', () => {
    const created = fold(initialThreadState, {
      type: 'message.created', seq: 1, ts: 1, message_id: 'a1', role: 'assistant', text: '',
    });
    const streamed = fold(created, { type: 'message.delta', seq: 2, ts: 2, message_id: 'a1', delta: 'Hi' });
    expect(streamed.ids).toBe(created.ids);
    expect(streamed.rows).not.toBe(created.rows);
  });

  it('marks the assistant row done and records usage on message.done', () => {
    const usage = { input_tokens: 12, output_tokens: 34, cache_read_input_tokens: 5 };
    const state = foldAll(initialThreadState, [
      { type: 'message.created', seq: 1, ts: 1, message_id: 'a1', role: 'assistant', text: 'Hi' },
      { type: 'message.done', seq: 2, ts: 2, message_id: 'a1', usage },
    ]);
    expect(state.rows).toEqual([{ kind: 'assistant', id: 'a1', text: 'Hi', status: 'done', usage, seq: 1 }]);
  });

  it('marks the assistant row done without usage when none is given', () => {
    const state = foldAll(initialThreadState, [
      { type: 'message.created', seq: 1, ts: 1, message_id: 'a1', role: 'assistant', text: 'Hi' },
      { type: 'message.done', seq: 2, ts: 2, message_id: 'a1' },
    ]);
    const row = state.rows[0] as AssistantRow;
    expect(row.status).toBe('done');
    expect('usage' in row).toBe(false);
  });

  it('does not add a second user row for the same message id', () => {
    const state = foldAll(initialThreadState, [
      { type: 'message.created', seq: 1, ts: 1, message_id: 'm1', role: 'user', text: 'Hello' },
      { type: 'message.created', seq: 2, ts: 2, message_id: 'm1', role: 'user', text: 'Hello' },
    ]);
    expect(state.rows).toEqual([{ kind: 'user', id: 'm1', text: 'Hello' }]);
    expect(state.appliedUpTo).toBe(2);
  });
});

describe('fold: turn.error', () => {
  it('adds an error row with the code, message and recoverability', () => {
    const state = fold(initialThreadState, {
      type: 'turn.error', seq: 1, ts: 1, code: 'model_error', message: 'Offline model failed: boom', recoverable: true,
    });
    expect(state.rows).toEqual([
      { kind: 'error', id: 'turn-error-1', code: 'model_error', message: 'Offline model failed: boom', recoverable: true },
    ]);
  });

  it("marks the turn's streaming assistant message as error, and leaves other messages alone", () => {
    const state = foldAll(initialThreadState, [
      { type: 'message.created', seq: 1, ts: 1, message_id: 'old', role: 'assistant', text: 'Earlier', turn_id: 't0' },
      { type: 'message.created', seq: 2, ts: 2, message_id: 'done', role: 'assistant', text: 'Finished', turn_id: 't1' },
      { type: 'message.done', seq: 3, ts: 3, message_id: 'done' },
      { type: 'message.created', seq: 4, ts: 4, message_id: 'live', role: 'assistant', text: 'Half a sen', turn_id: 't1' },
      { type: 'turn.error', seq: 5, ts: 5, turn_id: 't1', code: 'model_error', message: 'Lost the model', recoverable: true },
    ]);
    const byId = (id: string) => state.rows.find((r) => r.id === id) as AssistantRow;
    expect(byId('live').status).toBe('error');
    expect(byId('live').text).toBe('Half a sen');
    expect(byId('done').status).toBe('done');
    // A streaming message of another turn is not this error's business.
    expect(byId('old').status).toBe('streaming');
    const last = state.rows[state.rows.length - 1] as ErrorRow;
    expect(last).toMatchObject({ kind: 'error', code: 'model_error', message: 'Lost the model' });
  });

  it('without a turn id, adds the error row and changes no message', () => {
    const state = foldAll(initialThreadState, [
      { type: 'message.created', seq: 1, ts: 1, message_id: 'a1', role: 'assistant', text: 'Hi', turn_id: 't1' },
      { type: 'turn.error', seq: 2, ts: 2, code: 'cancelled', message: 'Stopped.', recoverable: true },
    ]);
    expect((state.rows[0] as AssistantRow).status).toBe('streaming');
    expect(state.rows[1]).toMatchObject({ kind: 'error', code: 'cancelled' });
  });
});

describe('fold: capabilities', () => {
  it('capability.started adds a running card and puts it in the cast', () => {
    const state = fold(initialThreadState, {
      type: 'capability.started', seq: 1, ts: 100, invocation_id: 'inv1', capability: 'records.enrich',
      title: 'Enrich records', args: { limit: 5 }, actor,
    });
    expect(state.rows).toEqual([
      {
        kind: 'invocation', id: 'inv1', capability: 'records.enrich', title: 'Enrich records', args: { limit: 5 },
        actor, state: 'running', output: '', outputTruncated: false, startedAt: 100, seqs: { started: 1 },
      },
    ]);
    expect(state.open).toEqual({
      inv1: { invocation_id: 'inv1', capability: 'records.enrich', title: 'Enrich records', actor },
    });
    expect(state.lastCapability).toBeNull();
  });

  it('capability.progress shows determinate progress on the card and in the cast', () => {
    const state = foldAll(initialThreadState, [
      { type: 'capability.started', seq: 1, ts: 1, invocation_id: 'inv1', capability: 'report.build', title: 'Build report', args: {} },
      { type: 'capability.progress', seq: 2, ts: 2, invocation_id: 'inv1', progress: 3, total: 10, message: 'Page 3 of 10' },
    ]);
    const row = state.rows[0] as InvocationRow;
    expect(row.progress).toEqual({ progress: 3, total: 10, message: 'Page 3 of 10' });
    expect(state.open.inv1?.progress).toEqual({ progress: 3, total: 10, message: 'Page 3 of 10' });
  });

  it('capability.progress without a total is indeterminate (no total on the card)', () => {
    const state = foldAll(initialThreadState, [
      { type: 'capability.started', seq: 1, ts: 1, invocation_id: 'inv1', capability: 'report.build', title: 'Build report', args: {} },
      { type: 'capability.progress', seq: 2, ts: 2, invocation_id: 'inv1', progress: 42 },
    ]);
    const row = state.rows[0] as InvocationRow;
    expect(row.progress).toEqual({ progress: 42 });
    expect(state.open.inv1?.progress).toEqual({ progress: 42 });
  });

  it('later progress replaces earlier progress (a message is not carried over)', () => {
    const state = foldAll(initialThreadState, [
      { type: 'capability.started', seq: 1, ts: 1, invocation_id: 'inv1', capability: 'report.build', title: 'Build report', args: {} },
      { type: 'capability.progress', seq: 2, ts: 2, invocation_id: 'inv1', progress: 1, total: 4, message: 'Reading' },
      { type: 'capability.progress', seq: 3, ts: 3, invocation_id: 'inv1', progress: 2, total: 4 },
    ]);
    expect((state.rows[0] as InvocationRow).progress).toEqual({ progress: 2, total: 4 });
  });

  it('capability.output appends streamed text to the card', () => {
    const state = foldAll(initialThreadState, [
      { type: 'capability.started', seq: 1, ts: 1, invocation_id: 'inv1', capability: 'script.run', title: 'Run script', args: {} },
      { type: 'capability.output', seq: 2, ts: 2, invocation_id: 'inv1', stream: 'stdout', text: 'line 1\n' },
      { type: 'capability.output', seq: 3, ts: 3, invocation_id: 'inv1', stream: 'stderr', text: 'line 2\n' },
    ]);
    const row = state.rows[0] as InvocationRow;
    expect(row.output).toBe('line 1\nline 2\n');
    expect(row.outputTruncated).toBe(false);
  });

  it('capability.output keeps exactly OUTPUT_LIMIT characters without truncating', () => {
    const state = foldAll(initialThreadState, [
      { type: 'capability.started', seq: 1, ts: 1, invocation_id: 'inv1', capability: 'script.run', title: 'Run script', args: {} },
      { type: 'capability.output', seq: 2, ts: 2, invocation_id: 'inv1', stream: 'log', text: 'a'.repeat(OUTPUT_LIMIT) },
    ]);
    const row = state.rows[0] as InvocationRow;
    expect(row.output.length).toBe(OUTPUT_LIMIT);
    expect(row.outputTruncated).toBe(false);
  });

  it('capability.output keeps the last OUTPUT_LIMIT characters and says it dropped older text', () => {
    const state = foldAll(initialThreadState, [
      { type: 'capability.started', seq: 1, ts: 1, invocation_id: 'inv1', capability: 'script.run', title: 'Run script', args: {} },
      { type: 'capability.output', seq: 2, ts: 2, invocation_id: 'inv1', stream: 'log', text: 'OLD' + 'x'.repeat(OUTPUT_LIMIT - 3) },
      { type: 'capability.output', seq: 3, ts: 3, invocation_id: 'inv1', stream: 'log', text: 'NEW' },
    ]);
    const row = state.rows[0] as InvocationRow;
    expect(row.output.length).toBe(OUTPUT_LIMIT);
    expect(row.output.startsWith('OLD')).toBe(false);
    expect(row.output.endsWith('xNEW')).toBe(true);
    expect(row.outputTruncated).toBe(true);
  });

  it('stays marked truncated after more small output arrives', () => {
    const state = foldAll(initialThreadState, [
      { type: 'capability.started', seq: 1, ts: 1, invocation_id: 'inv1', capability: 'script.run', title: 'Run script', args: {} },
      { type: 'capability.output', seq: 2, ts: 2, invocation_id: 'inv1', stream: 'log', text: 'y'.repeat(OUTPUT_LIMIT + 1) },
      { type: 'capability.output', seq: 3, ts: 3, invocation_id: 'inv1', stream: 'log', text: 'z' },
    ]);
    const row = state.rows[0] as InvocationRow;
    expect(row.outputTruncated).toBe(true);
    expect(row.output.endsWith('yz')).toBe(true);
    expect(row.output.length).toBe(OUTPUT_LIMIT);
  });

  it('capability.done marks the card done, keeps the result, leaves the cast and sets lastCapability', () => {
    const result = textResult('3 records enriched', { count: 3 });
    const state = foldAll(initialThreadState, [
      { type: 'capability.started', seq: 1, ts: 100, invocation_id: 'inv1', capability: 'records.enrich', title: 'Enrich records', args: {} },
      { type: 'capability.progress', seq: 2, ts: 150, invocation_id: 'inv1', progress: 1, total: 3 },
      { type: 'capability.done', seq: 3, ts: 200, invocation_id: 'inv1', result },
    ]);
    const row = state.rows[0] as InvocationRow;
    expect(row.state).toBe('done');
    expect(row.result).toEqual(result);
    expect(row.startedAt).toBe(100);
    expect(row.endedAt).toBe(200);
    expect(state.open).toEqual({});
    expect(state.lastCapability).toBe('records.enrich');
  });

  it('capability.done with an isError result marks the card error and does not set lastCapability', () => {
    const result = errorResult('The file has no header row.');
    const state = foldAll(initialThreadState, [
      { type: 'capability.started', seq: 1, ts: 1, invocation_id: 'inv1', capability: 'records.import_csv', title: 'Import CSV', args: {} },
      { type: 'capability.done', seq: 2, ts: 2, invocation_id: 'inv1', result },
    ]);
    const row = state.rows[0] as InvocationRow;
    expect(row.state).toBe('failed');
    expect(row.result).toEqual(result);
    expect(state.open).toEqual({});
    expect(state.lastCapability).toBeNull();
  });

  it('capability.error marks the card error with the issues, leaves the cast and keeps lastCapability', () => {
    const state = foldAll(initialThreadState, [
      { type: 'capability.started', seq: 1, ts: 1, invocation_id: 'inv0', capability: 'math.add', title: 'Add', args: { a: 1, b: 2 } },
      { type: 'capability.done', seq: 2, ts: 2, invocation_id: 'inv0', result: textResult('3') },
      { type: 'capability.started', seq: 3, ts: 3, invocation_id: 'inv1', capability: 'payments.refund', title: 'Refund', args: {} },
      {
        type: 'capability.error', seq: 4, ts: 4, invocation_id: 'inv1', capability: 'payments.refund', title: 'Refund',
        error: { code: 'invalid_arguments', message: 'Refund was not run: amount: expected number', issues: [{ path: 'amount', message: 'expected number' }] },
        recoverable: true,
      },
    ]);
    const row = state.rows[1] as InvocationRow;
    expect(row.state).toBe('failed');
    expect(row.error).toEqual({
      code: 'invalid_arguments',
      message: 'Refund was not run: amount: expected number',
      issues: [{ path: 'amount', message: 'expected number' }],
    });
    expect(row.recoverable).toBe(true);
    expect(row.endedAt).toBe(4);
    expect(row.title).toBe('Refund');
    expect(state.open).toEqual({});
    expect(state.lastCapability).toBe('math.add');
  });

  it('capability.error keeps the tool result it carries', () => {
    const result = errorResult('Card declined');
    const state = foldAll(initialThreadState, [
      { type: 'capability.started', seq: 1, ts: 1, invocation_id: 'inv1', capability: 'payments.charge', title: 'Charge', args: {} },
      {
        type: 'capability.error', seq: 2, ts: 2, invocation_id: 'inv1', capability: 'payments.charge', title: 'Charge',
        error: { code: 'tool_error', message: 'Card declined' }, recoverable: true, result,
      },
    ]);
    expect((state.rows[0] as InvocationRow).result).toEqual(result);
  });

  it('capability.error with no started event (e.g. bad arguments) adds an error card titled from the event', () => {
    const state = fold(initialThreadState, {
      type: 'capability.error', seq: 1, ts: 1, invocation_id: 'inv1', capability: 'payments.refund', title: 'Refund',
      error: { code: 'invalid_arguments', message: 'bad', issues: [{ path: 'amount', message: 'Required' }] },
      recoverable: true,
    });
    expect(state.rows).toHaveLength(1);
    expect(state.rows[0]).toMatchObject({ kind: 'invocation', capability: 'payments.refund', title: 'Refund', state: 'failed' });
    expect(state.open).toEqual({});
  });

  it('capability.error without a title falls back to the capability name', () => {
    const state = fold(initialThreadState, {
      type: 'capability.error', seq: 1, ts: 1, invocation_id: 'inv1', capability: 'no.such',
      error: { code: 'unknown_capability', message: 'No capability is named "no.such".' }, recoverable: false,
    });
    expect(state.rows[0]).toMatchObject({ title: 'no.such', state: 'failed', recoverable: false });
  });

  it('the cast lists every open invocation and drops each one as it ends', () => {
    let state = foldAll(initialThreadState, [
      { type: 'capability.started', seq: 1, ts: 1, invocation_id: 'a', capability: 'one', title: 'One', args: {} },
      { type: 'capability.started', seq: 2, ts: 2, invocation_id: 'b', capability: 'two', title: 'Two', args: {} },
      { type: 'capability.started', seq: 3, ts: 3, invocation_id: 'c', capability: 'three', title: 'Three', args: {} },
    ]);
    expect(Object.keys(state.open).sort()).toEqual(['a', 'b', 'c']);
    state = fold(state, { type: 'capability.done', seq: 4, ts: 4, invocation_id: 'b', result: textResult('ok') });
    expect(Object.keys(state.open).sort()).toEqual(['a', 'c']);
    state = fold(state, {
      type: 'capability.error', seq: 5, ts: 5, invocation_id: 'a', capability: 'one',
      error: { code: 'cancelled', message: 'One was cancelled.' }, recoverable: true,
    });
    expect(Object.keys(state.open)).toEqual(['c']);
    expect(state.lastCapability).toBe('two');
  });

  it('progress after a card is done changes neither the card nor the cast', () => {
    const done = foldAll(initialThreadState, [
      { type: 'capability.started', seq: 1, ts: 1, invocation_id: 'inv1', capability: 'one', title: 'One', args: {} },
      { type: 'capability.done', seq: 2, ts: 2, invocation_id: 'inv1', result: textResult('ok') },
    ]);
    const after = fold(done, { type: 'capability.progress', seq: 3, ts: 3, invocation_id: 'inv1', progress: 9, total: 10 });
    expect(after.rows).toEqual(done.rows);
    expect(after.open).toEqual({});
    expect((after.rows[0] as InvocationRow).state).toBe('done');
  });
});

describe('fold: replays', () => {
  it('returns the identical state object when the same seq arrives twice', () => {
    const event = { type: 'message.created', seq: 1, ts: 1, message_id: 'm1', role: 'user', text: 'Hi' };
    const once = fold(initialThreadState, event);
    const twice = fold(once, event);
    expect(twice).toBe(once);
    expect(twice.rows).toHaveLength(1);
  });

  it('ignores an event whose seq is lower than one already applied', () => {
    const state = foldAll(initialThreadState, [
      { type: 'message.created', seq: 1, ts: 1, message_id: 'a1', role: 'assistant', text: '' },
      { type: 'message.delta', seq: 2, ts: 2, message_id: 'a1', delta: 'Hello' },
    ]);
    const replayed = fold(state, { type: 'message.delta', seq: 2, ts: 2, message_id: 'a1', delta: 'Hello' });
    const older = fold(state, { type: 'message.delta', seq: 1, ts: 1, message_id: 'a1', delta: ' again' });
    expect(replayed).toBe(state);
    expect(older).toBe(state);
    expect((state.rows[0] as AssistantRow).text).toBe('Hello');
  });

  it('folding a whole stream twice gives the same rows as folding it once', () => {
    const events = [
      { type: 'message.created', seq: 1, ts: 1, message_id: 'm1', role: 'user', text: 'Add 1 and 2' },
      { type: 'capability.started', seq: 2, ts: 2, invocation_id: 'inv1', capability: 'math.add', title: 'Add', args: { a: 1, b: 2 } },
      { type: 'capability.output', seq: 3, ts: 3, invocation_id: 'inv1', stream: 'log', text: 'adding' },
      { type: 'capability.done', seq: 4, ts: 4, invocation_id: 'inv1', result: textResult('3') },
      { type: 'message.created', seq: 5, ts: 5, message_id: 'a1', role: 'assistant', text: '' },
      { type: 'message.delta', seq: 6, ts: 6, message_id: 'a1', delta: 'It is 3.' },
      { type: 'message.done', seq: 7, ts: 7, message_id: 'a1' },
    ];
    const once = foldAll(initialThreadState, events);
    const twice = foldAll(once, events);
    expect(twice).toBe(once);
    expect(once.rows.map((r) => r.kind)).toEqual(['user', 'invocation', 'assistant']);
    expect((once.rows[1] as InvocationRow).output).toBe('adding');
  });
});

describe('fold: events out of order', () => {
  it('progress before started creates a running card; started then fills in its title', () => {
    const early = fold(initialThreadState, {
      type: 'capability.progress', seq: 2, ts: 20, invocation_id: 'inv1', progress: 1, total: 4,
    });
    expect(early.rows).toHaveLength(1);
    expect(early.rows[0]).toMatchObject({ kind: 'invocation', id: 'inv1', capability: '', state: 'running', progress: { progress: 1, total: 4 } });
    expect(early.open.inv1).toMatchObject({ invocation_id: 'inv1', progress: { progress: 1, total: 4 } });

    const filled = fold(early, {
      type: 'capability.started', seq: 1, ts: 10, invocation_id: 'inv1', capability: 'report.build', title: 'Build report',
      args: { pages: 4 }, actor,
    });
    expect(filled.rows).toHaveLength(1);
    expect(filled.rows[0]).toMatchObject({
      kind: 'invocation', capability: 'report.build', title: 'Build report', args: { pages: 4 }, actor,
      state: 'running', progress: { progress: 1, total: 4 }, startedAt: 10,
    });
    expect(filled.open.inv1).toEqual({
      invocation_id: 'inv1', capability: 'report.build', title: 'Build report', actor, progress: { progress: 1, total: 4 },
    });
    expect(filled.appliedUpTo).toBe(2);
  });

  it('output before started is kept on the card', () => {
    const state = foldAll(initialThreadState, [
      { type: 'capability.output', seq: 2, ts: 2, invocation_id: 'inv1', stream: 'stdout', text: 'early line' },
      { type: 'capability.started', seq: 1, ts: 1, invocation_id: 'inv1', capability: 'script.run', title: 'Run script', args: {} },
    ]);
    expect(state.rows).toHaveLength(1);
    expect(state.rows[0]).toMatchObject({ title: 'Run script', output: 'early line', state: 'running' });
  });

  it('done before started: the card is done, out of the cast, and started only fills in the title', () => {
    const early = fold(initialThreadState, {
      type: 'capability.done', seq: 2, ts: 20, invocation_id: 'inv1', result: textResult('Report ready'),
    });
    expect(early.rows[0]).toMatchObject({ kind: 'invocation', state: 'done', endedAt: 20 });
    expect(early.open).toEqual({});

    const filled = fold(early, {
      type: 'capability.started', seq: 1, ts: 10, invocation_id: 'inv1', capability: 'report.build', title: 'Build report', args: {},
    });
    expect(filled.rows).toHaveLength(1);
    expect(filled.rows[0]).toMatchObject({
      capability: 'report.build', title: 'Build report', state: 'done', result: textResult('Report ready'), startedAt: 10, endedAt: 20,
    });
    // A late start must not bring a finished card back into the cast.
    expect(filled.open).toEqual({});
  });

  it('error before started keeps the card in error and out of the cast', () => {
    const state = foldAll(initialThreadState, [
      {
        type: 'capability.error', seq: 2, ts: 2, invocation_id: 'inv1', capability: 'report.build', title: 'Build report',
        error: { code: 'handler_error', message: 'Build report failed: disk full' }, recoverable: true,
      },
      { type: 'capability.started', seq: 1, ts: 1, invocation_id: 'inv1', capability: 'report.build', title: 'Build report', args: {} },
    ]);
    expect(state.rows).toHaveLength(1);
    expect(state.rows[0]).toMatchObject({ state: 'failed', error: { code: 'handler_error' } });
    expect(state.open).toEqual({});
  });

  it('delta before message.created: the text is kept and created adds its turn without losing it', () => {
    const early = fold(initialThreadState, { type: 'message.delta', seq: 2, ts: 2, message_id: 'a1', delta: 'world' });
    expect(early.rows).toEqual([{ kind: 'assistant', id: 'a1', text: 'world', status: 'streaming' }]);
    const created = fold(early, {
      type: 'message.created', seq: 1, ts: 1, message_id: 'a1', role: 'assistant', text: 'Hello ', turn_id: 't1',
    });
    expect(created.rows).toEqual([{ kind: 'assistant', id: 'a1', text: 'Hello world', status: 'streaming', turn_id: 't1', seq: 1 }]);
  });

  it('done before message.created: the message stays done', () => {
    const state = foldAll(initialThreadState, [
      { type: 'message.done', seq: 3, ts: 3, message_id: 'a1' },
      { type: 'message.delta', seq: 2, ts: 2, message_id: 'a1', delta: 'late text' },
      { type: 'message.created', seq: 1, ts: 1, message_id: 'a1', role: 'assistant', text: '' },
    ]);
    expect(state.rows).toEqual([{ kind: 'assistant', id: 'a1', text: 'late text', status: 'done', seq: 1 }]);
  });

  it('seq 3 then 1 then 2 are each applied exactly once, tracking what arrived early', () => {
    const s3 = fold(initialThreadState, { type: 'message.delta', seq: 3, ts: 3, message_id: 'a1', delta: 'C' });
    expect(s3.appliedUpTo).toBe(0);
    expect(s3.appliedAbove).toEqual([3]);
    expect(hasApplied(s3, 3)).toBe(true);
    expect(hasApplied(s3, 1)).toBe(false);

    const s1 = fold(s3, { type: 'message.delta', seq: 1, ts: 1, message_id: 'a1', delta: 'A' });
    expect(s1.appliedUpTo).toBe(1);
    expect(s1.appliedAbove).toEqual([3]);

    const s2 = fold(s1, { type: 'message.delta', seq: 2, ts: 2, message_id: 'a1', delta: 'B' });
    expect(s2.appliedUpTo).toBe(3);
    expect(s2.appliedAbove).toEqual([]);

    // Each text applied once, in arrival order.
    expect(s2.rows).toEqual([{ kind: 'assistant', id: 'a1', text: 'CAB', status: 'streaming' }]);

    // Replays of any of them change nothing.
    expect(fold(s2, { type: 'message.delta', seq: 3, ts: 3, message_id: 'a1', delta: 'C' })).toBe(s2);
    expect(fold(s2, { type: 'message.delta', seq: 1, ts: 1, message_id: 'a1', delta: 'A' })).toBe(s2);
    expect(fold(s2, { type: 'message.delta', seq: 2, ts: 2, message_id: 'a1', delta: 'B' })).toBe(s2);
  });

  it('keeps several early seqs sorted and drains them as the gap fills', () => {
    const state = foldAll(initialThreadState, [
      { type: 'message.created', seq: 5, ts: 5, message_id: 'm5', role: 'user', text: 'five' },
      { type: 'message.created', seq: 3, ts: 3, message_id: 'm3', role: 'user', text: 'three' },
      { type: 'message.created', seq: 1, ts: 1, message_id: 'm1', role: 'user', text: 'one' },
    ]);
    expect(state.appliedUpTo).toBe(1);
    expect(state.appliedAbove).toEqual([3, 5]);
    const filled = fold(state, { type: 'message.created', seq: 2, ts: 2, message_id: 'm2', role: 'user', text: 'two' });
    expect(filled.appliedUpTo).toBe(3);
    expect(filled.appliedAbove).toEqual([5]);
    const all = fold(filled, { type: 'message.created', seq: 4, ts: 4, message_id: 'm4', role: 'user', text: 'four' });
    expect(all.appliedUpTo).toBe(5);
    expect(all.appliedAbove).toEqual([]);
    expect(all.rows.map((r) => (r as UserRow).text)).toEqual(['five', 'three', 'one', 'two', 'four']);
  });
});

describe('fold: malformed events', () => {
  const before = foldAll(initialThreadState, [
    { type: 'message.created', seq: 1, ts: 1, message_id: 'm1', role: 'user', text: 'Hello' },
    { type: 'capability.started', seq: 2, ts: 2, invocation_id: 'inv1', capability: 'one', title: 'One', args: {} },
  ]);

  it('null is recorded as a malformed error row and never throws', () => {
    const state = fold(before, null);
    expect(state.malformed).toBe(1);
    expect(state.rows.slice(0, 2)).toEqual(before.rows);
    expect(state.rows).toHaveLength(3);
    const row = state.rows[2] as ErrorRow;
    expect(row).toMatchObject({ kind: 'error', code: 'malformed_event', recoverable: false });
    expect(row.message).toContain('expected object');
    expect(state.open).toEqual(before.open);
    expect(state.appliedUpTo).toBe(2);
  });

  it('a string is recorded as malformed', () => {
    const state = fold(before, 'message.created');
    expect(state.malformed).toBe(1);
    const row = state.rows[2] as ErrorRow;
    expect(row.code).toBe('malformed_event');
    expect(row.message).toContain('expected object, received string');
    expect(state.rows.slice(0, 2)).toEqual(before.rows);
  });

  it('an unknown type is recorded as malformed, naming the type field', () => {
    const state = fold(before, { type: 'message.exploded', seq: 3, ts: 3 });
    expect(state.malformed).toBe(1);
    const row = state.rows[2] as ErrorRow;
    expect(row.code).toBe('malformed_event');
    expect(row.message).toMatch(/\btype: /);
    // A malformed event with a usable seq consumes it: a replay of it adds nothing.
    expect(row.id).toBe('malformed-3');
    expect(state.appliedUpTo).toBe(3);
    expect(hasApplied(state, 3)).toBe(true);
    expect(fold(state, { type: 'message.exploded', seq: 3, ts: 3 })).toBe(state);
  });

  it('a known type missing a field is recorded as malformed, naming that field', () => {
    const state = fold(before, { type: 'message.delta', seq: 3, ts: 3, message_id: 'm1' });
    expect(state.malformed).toBe(1);
    const row = state.rows[2] as ErrorRow;
    expect(row.code).toBe('malformed_event');
    expect(row.message).toMatch(/\bdelta: /);
    expect(state.rows.slice(0, 2)).toEqual(before.rows);
  });

  it('a missing field inside a nested value is named by its path', () => {
    const state = fold(before, {
      type: 'capability.error', seq: 3, ts: 3, invocation_id: 'inv1', capability: 'one',
      error: { code: 'boom' }, recoverable: false,
    });
    expect(state.malformed).toBe(1);
    expect((state.rows[2] as ErrorRow).message).toMatch(/\berror\.message: /);
    // The card it would have ended is still running.
    expect((state.rows[1] as InvocationRow).state).toBe('running');
    expect(state.open).toEqual(before.open);
  });

  it('a negative seq is recorded as malformed, naming seq', () => {
    const state = fold(before, { type: 'message.delta', seq: -1, ts: 3, message_id: 'm1', delta: 'x' });
    expect(state.malformed).toBe(1);
    const row = state.rows[2] as ErrorRow;
    expect(row.code).toBe('malformed_event');
    expect(row.message).toMatch(/\bseq: /);
    expect(state.appliedUpTo).toBe(2);
    expect(state.appliedAbove).toEqual([]);
  });

  it('seq 0 is malformed: seqs start at 1', () => {
    const state = fold(before, { type: 'message.delta', seq: 0, ts: 3, message_id: 'm1', delta: 'x' });
    expect(state.malformed).toBe(1);
    expect((state.rows[2] as ErrorRow).message).toMatch(/\bseq: /);
  });

  it('counts every malformed event and gives each its own row id', () => {
    const state = foldAll(before, [null, 42, { type: 'turn.error', seq: 3, ts: 3 }]);
    expect(state.malformed).toBe(3);
    const errors = state.rows.filter((r) => r.kind === 'error') as ErrorRow[];
    expect(errors.map((r) => r.code)).toEqual(['malformed_event', 'malformed_event', 'malformed_event']);
    expect(new Set(errors.map((r) => r.id)).size).toBe(3);
    expect(state.ids).toEqual(state.rows.map((r) => r.id));
  });

  it('good events after a malformed one still apply', () => {
    const state = foldAll(before, [
      { type: 'capability.done', seq: 'three' },
      { type: 'capability.done', seq: 3, ts: 3, invocation_id: 'inv1', result: textResult('ok') },
    ]);
    expect(state.malformed).toBe(1);
    expect((state.rows[1] as InvocationRow).state).toBe('done');
    expect(state.lastCapability).toBe('one');
  });
});

describe('fold: row storage', () => {
  const user = (seq: number, id: string) => ({ type: 'message.created', seq, ts: seq, message_id: id, role: 'user', text: id });
  const reply = (seq: number, id: string) => ({ type: 'message.created', seq, ts: seq, message_id: id, role: 'assistant', text: '' });
  const piece = (seq: number, id: string, text: string) => ({ type: 'message.delta', seq, ts: seq, message_id: id, delta: text });

  it('every earlier state still shows its own rows after later events were folded from it', () => {
    const states = [foldAll(initialThreadState, [user(1, 'u1'), reply(2, 'a1')])];
    const events = [piece(3, 'a1', 'Hel'), piece(4, 'a1', 'lo'), user(5, 'u2'), { type: 'turn.started', seq: 6, ts: 6, turn_id: 't1' }, reply(7, 'a2'), piece(8, 'a2', 'Yes')];
    for (const e of events) states.push(fold(states[states.length - 1]!, e));
    // Read from the oldest, so every view is rebuilt along the chain.
    expect(states.map((s) => s.rows.map((r) => (r.kind === 'assistant' ? `${r.id}:${r.text}` : r.id)))).toEqual([
      ['u1', 'a1:'],
      ['u1', 'a1:Hel'],
      ['u1', 'a1:Hello'],
      ['u1', 'a1:Hello', 'u2'],
      ['u1', 'a1:Hello', 'u2'],
      ['u1', 'a1:Hello', 'u2', 'a2:'],
      ['u1', 'a1:Hello', 'u2', 'a2:Yes'],
    ]);
    expect(states.map((s) => s.ids.length)).toEqual([2, 2, 2, 3, 3, 4, 4]);
  });

  it('folding again from an earlier state (a fork) leaves the other branch as it was', () => {
    const base = foldAll(initialThreadState, [user(1, 'u1'), reply(2, 'a1')]);
    const left = fold(fold(base, piece(3, 'a1', 'left')), user(4, 'ul'));
    const right = fold(base, piece(3, 'a1', 'right'));
    const rightMore = fold(right, piece(4, 'a1', '!'));
    expect(left.rows.map((r) => ('text' in r ? r.text : ''))).toEqual(['u1', 'left', 'ul']);
    expect(right.rows.map((r) => ('text' in r ? r.text : ''))).toEqual(['u1', 'right']);
    expect(rightMore.rows.map((r) => ('text' in r ? r.text : ''))).toEqual(['u1', 'right!']);
    expect(base.rows.map((r) => ('text' in r ? r.text : ''))).toEqual(['u1', '']);
  });

  it('forks that add rows keep their own positions: no lost row, no duplicate, on either branch', () => {
    const base = foldAll(initialThreadState, [user(1, 'u1'), reply(2, 'a1')]);
    // The first branch adds u2 then a2; the second, from the same base, adds a2 then u2 then u3.
    const first = foldAll(base, [user(3, 'u2'), reply(4, 'a2'), piece(5, 'a2', 'one')]);
    const second = foldAll(base, [reply(3, 'a2'), user(4, 'u2'), piece(5, 'a2', 'two')]);
    const secondMore = foldAll(second, [user(6, 'u3'), piece(7, 'a2', '!'), user(8, 'u2')]);
    const firstMore = foldAll(first, [piece(6, 'a2', '?'), user(7, 'u3')]);
    const shape = (s: typeof base) => s.rows.map((r) => (r.kind === 'assistant' ? `${r.id}:${r.text}` : r.id));
    expect(shape(firstMore)).toEqual(['u1', 'a1:', 'u2', 'a2:one?', 'u3']);
    expect(shape(secondMore)).toEqual(['u1', 'a1:', 'a2:two!', 'u2', 'u3']);
    expect(shape(first)).toEqual(['u1', 'a1:', 'u2', 'a2:one']);
    expect(shape(second)).toEqual(['u1', 'a1:', 'a2:two', 'u2']);
    expect(secondMore.ids).toEqual(['u1', 'a1', 'a2', 'u2', 'u3']);
    expect(firstMore.ids).toEqual(['u1', 'a1', 'u2', 'a2', 'u3']);
  });

  it('an earlier state serialises, spreads and compares with its own rows', () => {
    const before = foldAll(initialThreadState, [user(1, 'u1'), reply(2, 'a1')]);
    const json = JSON.stringify(before);
    const after = fold(before, piece(3, 'a1', 'more'));
    expect(JSON.stringify(before)).toBe(json);
    expect({ ...before }.rows).toHaveLength(2);
    expect((after.rows[1] as AssistantRow).text).toBe('more');
    expect(before).toEqual(JSON.parse(json));
  });

  it('reading a long chain of earlier states from the oldest does not overflow the stack', () => {
    let s = foldAll(initialThreadState, [user(1, 'u1'), reply(2, 'a1')]);
    const first = s;
    for (let seq = 3; seq < 20_003; seq++) s = fold(s, piece(seq, 'a1', 'x'));
    expect((first.rows[1] as AssistantRow).text).toBe('');
    expect((s.rows[1] as AssistantRow).text).toHaveLength(20_000);
  });
});

describe('fold: purity', () => {
  it('never mutates the state it is given, for any event type', () => {
    const frozen: ThreadState = deepFreeze(
      foldAll(initialThreadState, [
        { type: 'message.created', seq: 1, ts: 1, message_id: 'm1', role: 'user', text: 'Go' },
        { type: 'message.created', seq: 2, ts: 2, message_id: 'a1', role: 'assistant', text: 'On it', turn_id: 't1' },
        { type: 'capability.started', seq: 3, ts: 3, invocation_id: 'inv1', capability: 'one', title: 'One', args: { n: 1 } },
        { type: 'capability.progress', seq: 4, ts: 4, invocation_id: 'inv1', progress: 1, total: 2 },
        { type: 'capability.output', seq: 5, ts: 5, invocation_id: 'inv1', stream: 'log', text: 'hi' },
        { type: 'message.created', seq: 7, ts: 7, message_id: 'early', role: 'user', text: 'early' },
      ]),
    );
    const snapshot = JSON.stringify(frozen);
    const events: unknown[] = [
      { type: 'message.created', seq: 6, ts: 6, message_id: 'm2', role: 'user', text: 'More' },
      { type: 'message.created', seq: 8, ts: 8, message_id: 'a2', role: 'assistant', text: '' },
      { type: 'message.delta', seq: 8, ts: 8, message_id: 'a1', delta: '!' },
      { type: 'message.done', seq: 8, ts: 8, message_id: 'a1', usage: { input_tokens: 1, output_tokens: 2 } },
      { type: 'turn.error', seq: 8, ts: 8, turn_id: 't1', code: 'model_error', message: 'x', recoverable: true },
      { type: 'capability.started', seq: 8, ts: 8, invocation_id: 'inv1', capability: 'one', title: 'One', args: {} },
      { type: 'capability.started', seq: 8, ts: 8, invocation_id: 'inv2', capability: 'two', title: 'Two', args: {} },
      { type: 'capability.progress', seq: 8, ts: 8, invocation_id: 'inv1', progress: 2, total: 2 },
      { type: 'capability.progress', seq: 8, ts: 8, invocation_id: 'inv9', progress: 1 },
      { type: 'capability.output', seq: 8, ts: 8, invocation_id: 'inv1', stream: 'stdout', text: 'x'.repeat(OUTPUT_LIMIT) },
      { type: 'capability.done', seq: 8, ts: 8, invocation_id: 'inv1', result: textResult('ok') },
      { type: 'capability.done', seq: 8, ts: 8, invocation_id: 'inv1', result: errorResult('no') },
      {
        type: 'capability.error', seq: 8, ts: 8, invocation_id: 'inv1', capability: 'one',
        error: { code: 'cancelled', message: 'One was cancelled.' }, recoverable: true,
      },
      { type: 'skill.offered', seq: 8, ts: 8, offer_id: 'o1', sequence: ['one', 'two'], titles: ['One', 'Two'], name: 'one-then-two', description: 'd' },
      { type: 'skill.saved', seq: 8, ts: 8, offer_id: 'o1', path: 'me/Skill/x', name: '/x' },
      { type: 'skill.offer_dismissed', seq: 8, ts: 8, offer_id: 'o1' },
      null,
      { type: 'nope' },
    ];
    for (const event of events) {
      const next = fold(frozen, event);
      expect(next).not.toBe(frozen);
    }
    expect(JSON.stringify(frozen)).toBe(snapshot);
  });

  it('never mutates the event it is given', () => {
    const event = deepFreeze({
      type: 'capability.started', seq: 1, ts: 1, invocation_id: 'inv1', capability: 'one', title: 'One',
      args: { nested: { list: [1, 2] } }, actor,
    });
    const state = fold(initialThreadState, event);
    expect((state.rows[0] as InvocationRow).args).toEqual({ nested: { list: [1, 2] } });
  });

  it('leaves initialThreadState empty after use', () => {
    fold(initialThreadState, { type: 'message.created', seq: 1, ts: 1, message_id: 'm1', role: 'user', text: 'Hi' });
    fold(initialThreadState, null);
    expect(initialThreadState).toEqual({
      rows: [], ids: [], open: {}, lastCapability: null, appliedUpTo: 0, appliedAbove: [], malformed: 0,
      activeTurn: null, lastTurnStartedSeq: 0, activeView: null, composer: {}, activeSkills: [],
      seqs: { view: 0, composer: {}, lastCapability: 0, skills: [], doneTurns: {}, turnErrors: {}, malformed: [] },
      versions: { tip: 'root', groups: {}, shelf: {}, shelfNodes: {}, provisional: {} },
    });
  });
});

describe('fold: batches', () => {
  const stream = [
    { type: 'message.created', seq: 1, ts: 1, message_id: 'u1', role: 'user', text: 'go' },
    { type: 'capability.started', seq: 2, ts: 2, invocation_id: 'i1', capability: 'a.b', title: 'A', args: {} },
    { type: 'capability.progress', seq: 3, ts: 3, invocation_id: 'i1', progress: 1, total: 2 },
    { type: 'message.delta', seq: 5, ts: 5, message_id: 'a1', delta: 'lo' },
    { type: 'capability.done', seq: 4, ts: 4, invocation_id: 'i1', result: { content: [{ type: 'text', text: 'ok' }] } },
    { type: 'message.created', seq: 6, ts: 6, message_id: 'a1', role: 'assistant', text: 'hel' },
    { type: 'message.delta', seq: 5, ts: 5, message_id: 'a1', delta: 'lo' },
    'garbage',
    { type: 'message.done', seq: 7, ts: 7, message_id: 'a1' },
  ];

  it('foldAll gives exactly what folding one event at a time gives', () => {
    let one = initialThreadState;
    for (const event of stream) one = fold(one, event);
    expect(foldAll(initialThreadState, stream)).toEqual(one);
    expect((one.rows[2] as AssistantRow).text).toBe('hello');
  });

  it('keeps the identity of what a batch did not touch, so selectors over it do not fire', () => {
    const before = foldAll(initialThreadState, stream);
    const userRow = before.rows[0];
    const after = foldAll(before, [{ type: 'message.delta', seq: 8, ts: 8, message_id: 'a1', delta: '!' }]);
    expect(after.ids).toBe(before.ids);
    expect(after.open).toBe(before.open);
    expect(after.rows[0]).toBe(userRow);
    expect(after.rows).not.toBe(before.rows);
    expect(foldAll(after, stream.slice(0, 3))).toBe(after);
  });
});

describe('fold: turns, jobs, quality, decisions and context', () => {
  const started = { type: 'capability.started', seq: 2, ts: 20, invocation_id: 'i1', capability: 'csv.import', title: 'Import CSV', args: { file: 'a.csv' } };

  it('turn.started sets the active turn and turn.done clears it, only for the same turn', () => {
    let state = fold(initialThreadState, { type: 'turn.started', seq: 1, ts: 1, turn_id: 't1' });
    expect(state.activeTurn).toBe('t1');
    state = fold(state, { type: 'turn.done', seq: 2, ts: 2, turn_id: 'other', outcome: 'answered' });
    expect(state.activeTurn).toBe('t1');
    state = fold(state, { type: 'turn.done', seq: 3, ts: 3, turn_id: 't1', outcome: 'cancelled' });
    expect(state.activeTurn).toBeNull();
  });

  it('capability.queued shows a queued card outside the cast; started moves it to running', () => {
    let state = fold(initialThreadState, { type: 'capability.queued', seq: 1, ts: 10, invocation_id: 'i1', capability: 'csv.import', title: 'Import CSV', args: {}, job_id: 'job_1' });
    expect(state.rows[0]).toMatchObject({ kind: 'invocation', state: 'queued', job_id: 'job_1' });
    expect(state.open).toEqual({});
    state = fold(state, started);
    expect(state.rows[0]).toMatchObject({ state: 'running', startedAt: 20 });
    expect(Object.keys(state.open)).toEqual(['i1']);
  });

  it('a cancelled error gives the card state cancelled', () => {
    const state = foldAll(initialThreadState, [
      started,
      { type: 'capability.error', seq: 3, ts: 30, invocation_id: 'i1', capability: 'csv.import', error: { code: 'cancelled', message: 'Import CSV was cancelled.' }, recoverable: true },
    ]);
    expect(state.rows[0]).toMatchObject({ state: 'cancelled' });
    expect(state.open).toEqual({});
  });

  it('a quality violation stays on a done card and adds a violation row with expected and actual', () => {
    const state = foldAll(initialThreadState, [
      started,
      { type: 'capability.done', seq: 3, ts: 30, invocation_id: 'i1', result: { content: [{ type: 'text', text: 'Imported.' }] } },
      { type: 'capability.quality_violation', seq: 4, ts: 31, invocation_id: 'i1', postcondition: 'row_count_change', expected: 'records += 3', actual: 'records += 0', message: 'No rows were inserted.' },
    ]);
    expect(state.rows[0]).toMatchObject({ state: 'done', violations: [{ postcondition: 'row_count_change', expected: 'records += 3', actual: 'records += 0' }] });
    expect(state.rows[1]).toMatchObject({ kind: 'violation', invocation_id: 'i1', title: 'Import CSV', message: 'No rows were inserted.' });
    expect(state.lastCapability).toBe('csv.import');
  });

  it('quality.slow marks the card without failing it', () => {
    const state = foldAll(initialThreadState, [
      started,
      { type: 'capability.done', seq: 3, ts: 30, invocation_id: 'i1', result: { content: [] } },
      { type: 'quality.slow', seq: 4, ts: 31, invocation_id: 'i1', max_ms: 100, actual_ms: 2500 },
    ]);
    expect(state.rows[0]).toMatchObject({ state: 'done', slow: { max_ms: 100, actual_ms: 2500 } });
    expect(state.rows).toHaveLength(1);
  });

  it('a proposal is pending until resolved, and a resolution that arrives first is kept', () => {
    const created = { type: 'proposal.created', seq: 1, ts: 1, proposal_id: 'p1', capability: 'enrich.batch', title: 'Enrich records', args: { limit: 5 }, reason: 'New records lack company data.' };
    let state = fold(initialThreadState, created);
    expect(state.rows[0]).toMatchObject({ kind: 'proposal', status: 'pending', reason: 'New records lack company data.' });
    state = fold(state, { type: 'proposal.resolved', seq: 2, ts: 2, proposal_id: 'p1', decision: 'accepted' });
    expect(state.rows[0]).toMatchObject({ status: 'accepted', title: 'Enrich records' });

    const early = foldAll(initialThreadState, [{ type: 'proposal.resolved', seq: 2, ts: 2, proposal_id: 'p1', decision: 'dismissed' }, created]);
    expect(early.rows).toHaveLength(1);
    expect(early.rows[0]).toMatchObject({ status: 'dismissed', title: 'Enrich records', args: { limit: 5 } });
  });

  it('an approval waits, then records the decision', () => {
    const state = foldAll(initialThreadState, [
      { type: 'approval.requested', seq: 1, ts: 1, approval_id: 'a1', capability: 'crm.export', title: 'Export to CRM', args: {}, reason: 'It writes a file.' },
      { type: 'approval.resolved', seq: 2, ts: 2, approval_id: 'a1', decision: 'denied' },
    ]);
    expect(state.rows[0]).toMatchObject({ kind: 'approval', status: 'denied', reason: 'It writes a file.' });
  });

  it('a clarifying question records its answer', () => {
    const state = foldAll(initialThreadState, [
      { type: 'clarify.requested', seq: 1, ts: 1, question_id: 'q1', question: 'Just this once, or should I keep watching it for you?', options: [{ label: 'Just once', value: 'once' }, { label: 'Keep watching', value: 'standing' }] },
      { type: 'clarify.answered', seq: 2, ts: 2, question_id: 'q1', answer: 'once' },
    ]);
    expect(state.rows[0]).toMatchObject({ kind: 'question', status: 'answered', answer: 'once' });
    expect((state.rows[0] as { options: unknown[] }).options).toHaveLength(2);
  });

  it('a standing request becomes one row, even when replayed under another seq', () => {
    const event = { type: 'standing.requested', seq: 1, ts: 1, request_id: 's1', text: 'watch new records', cadence: 'weekly' };
    const state = foldAll(initialThreadState, [event, { ...event, seq: 2 }]);
    expect(state.rows).toEqual([{ kind: 'standing', id: 's1', text: 'watch new records', cadence: 'weekly' }]);
  });

  it('skill.activated lists each skill once, in order', () => {
    const state = foldAll(initialThreadState, [
      { type: 'skill.activated', seq: 1, ts: 1, skill: 'crawl-plan', title: 'Crawl plan' },
      { type: 'skill.activated', seq: 2, ts: 2, skill: 'csv-guide', title: 'CSV guide' },
      { type: 'skill.activated', seq: 3, ts: 3, skill: 'crawl-plan', title: 'Crawl plan' },
    ]);
    expect(state.activeSkills).toEqual(['crawl-plan', 'csv-guide']);
  });

  it('view.changed and composer.changed set the context; composer changes merge', () => {
    const state = foldAll(initialThreadState, [
      { type: 'view.changed', seq: 1, ts: 1, view: { kind: 'record_list' } },
      { type: 'composer.changed', seq: 2, ts: 2, composer: { agentName: 'agents/researcher' } },
      { type: 'composer.changed', seq: 3, ts: 3, composer: { modelName: 'models/claude-sonnet-5' } },
      { type: 'view.changed', seq: 4, ts: 4, view: { kind: 'record_detail', id: 'r7' } },
    ]);
    expect(state.activeView).toEqual({ kind: 'record_detail', id: 'r7' });
    expect(state.composer).toEqual({ agentName: 'agents/researcher', modelName: 'models/claude-sonnet-5' });
    expect(state.rows).toEqual([]);
  });
});

describe('fold: skill offers', () => {
  const offered = {
    type: 'skill.offered', seq: 1, ts: 1, offer_id: 'o1', turn_id: 't2',
    sequence: ['records.import_csv', 'enrich.batch'], titles: ['Import CSV', 'Enrich records'],
    name: 'import-csv-then-enrich-records', description: 'Runs Import CSV, then Enrich records.', instructions: 'Run these steps.',
  };

  it('skill.offered adds a pending offer row with the sequence, titles, name and description', () => {
    const state = fold(initialThreadState, offered);
    expect(state.rows).toEqual([{
      kind: 'skill_offer', id: 'o1', turn_id: 't2', sequence: ['records.import_csv', 'enrich.batch'], titles: ['Import CSV', 'Enrich records'],
      name: 'import-csv-then-enrich-records', description: 'Runs Import CSV, then Enrich records.', instructions: 'Run these steps.', status: 'pending',
    }]);
  });

  it('skill.saved turns the offer saved, with the path and the name the user chose', () => {
    const state = foldAll(initialThreadState, [offered, { type: 'skill.saved', seq: 2, ts: 2, offer_id: 'o1', path: 'acme/Skill/weekly-import', name: '/weekly-import' }]);
    expect(state.rows).toHaveLength(1);
    expect(state.rows[0]).toMatchObject({ kind: 'skill_offer', status: 'saved', path: 'acme/Skill/weekly-import', name: 'weekly-import', titles: ['Import CSV', 'Enrich records'] });
  });

  it('skill.offer_dismissed dismisses a pending offer but never unsaves a saved one', () => {
    const dismissed = foldAll(initialThreadState, [offered, { type: 'skill.offer_dismissed', seq: 2, ts: 2, offer_id: 'o1' }]);
    expect(dismissed.rows[0]).toMatchObject({ status: 'dismissed', name: 'import-csv-then-enrich-records' });
    const saved = foldAll(initialThreadState, [
      offered,
      { type: 'skill.saved', seq: 2, ts: 2, offer_id: 'o1', path: 'me/Skill/x', name: '/x' },
      { type: 'skill.offer_dismissed', seq: 3, ts: 3, offer_id: 'o1' },
    ]);
    expect(saved.rows[0]).toMatchObject({ status: 'saved', path: 'me/Skill/x' });
  });

  it('a save that arrives before its offer is kept, and the offer fills in the rest', () => {
    const state = foldAll(initialThreadState, [{ type: 'skill.saved', seq: 2, ts: 2, offer_id: 'o1', path: 'me/Skill/mine', name: '/mine' }, offered]);
    expect(state.rows).toHaveLength(1);
    expect(state.rows[0]).toMatchObject({ status: 'saved', path: 'me/Skill/mine', name: 'mine', sequence: ['records.import_csv', 'enrich.batch'] });
    const dismissedFirst = foldAll(initialThreadState, [{ type: 'skill.offer_dismissed', seq: 2, ts: 2, offer_id: 'o1' }, offered]);
    expect(dismissedFirst.rows[0]).toMatchObject({ status: 'dismissed', titles: ['Import CSV', 'Enrich records'] });
  });

  it('a skill saved directly (no offer) adds no row; a replayed offer adds no second row', () => {
    const state = foldAll(initialThreadState, [
      { type: 'skill.saved', seq: 1, ts: 1, path: 'me/Skill/direct', name: '/direct' },
      { ...offered, seq: 2 },
      { ...offered, seq: 3 },
    ]);
    expect(state.rows.map((r) => r.id)).toEqual(['o1']);
    expect(state.appliedUpTo).toBe(3);
  });

  it('an offer of fewer than two steps is malformed: recorded, never thrown', () => {
    const state = fold(initialThreadState, { ...offered, sequence: ['records.import_csv'] });
    expect(state.rows[0]).toMatchObject({ kind: 'error', code: 'malformed_event', message: expect.stringContaining('sequence') });
  });
});

describe('fold: the row index', () => {
  const created = (seq: number, id: string) => ({ type: 'message.created', seq, ts: seq, message_id: id, role: 'assistant', text: '' });
  const delta = (seq: number, id: string, text: string) => ({ type: 'message.delta', seq, ts: seq, message_id: id, delta: text });

  it('keeps two states folded apart from one base independent', () => {
    const base = foldAll(initialThreadState, [created(1, 'a')]);
    const left = foldAll(base, [created(2, 'x'), delta(3, 'x', 'left')]);
    const right = foldAll(base, [created(2, 'y'), created(3, 'x'), delta(4, 'x', 'right')]);
    expect(left.rows.map((r) => [r.id, r.kind === 'assistant' ? r.text : ''])).toEqual([['a', ''], ['x', 'left']]);
    expect(right.rows.map((r) => [r.id, r.kind === 'assistant' ? r.text : ''])).toEqual([['a', ''], ['y', ''], ['x', 'right']]);
    expect(foldAll(left, [delta(4, 'x', '!')]).rows[1]).toMatchObject({ text: 'left!' });
  });

  it('finds rows of a state restored from JSON, and keeps threads apart', () => {
    const restored = JSON.parse(JSON.stringify(foldAll(initialThreadState, [created(1, 'a'), created(2, 'b')]))) as typeof initialThreadState;
    expect(foldAll(restored, [delta(3, 'a', 'hi')]).rows[0]).toMatchObject({ text: 'hi' });
    const other = foldAll(initialThreadState, [delta(1, 'b', 'mine')]);
    expect(other.rows).toEqual([{ kind: 'assistant', id: 'b', text: 'mine', status: 'streaming' }]);
  });
});

describe('fold: events for the thread host', () => {
  it('model.message adds no row and changes nothing but the applied seqs', () => {
    const before = fold(initialThreadState, { type: 'message.created', seq: 1, ts: 1, message_id: 'm1', role: 'user', text: 'Hi' });
    const after = fold(before, { type: 'model.message', seq: 2, ts: 2, turn_id: 't1', message: { role: 'user', text: 'Hi' } });
    expect(after.rows).toEqual(before.rows);
    expect(after.rows[0]).toBe(before.rows[0]);
    expect(after.ids).toBe(before.ids);
    expect(after.appliedUpTo).toBe(2);
    expect({ ...after, appliedUpTo: 1 }).toEqual(before);
    expect(fold(after, { type: 'model.message', seq: 2, ts: 2, message: { role: 'user', text: 'Hi' } })).toBe(after);
  });

  it('an interrupted message.done keeps the text and marks the reply interrupted; turn.done may be interrupted', () => {
    const state = foldAll(initialThreadState, [
      { type: 'turn.started', seq: 1, ts: 1, turn_id: 't1' },
      { type: 'message.created', seq: 2, ts: 2, message_id: 'a1', role: 'assistant', text: '', turn_id: 't1' },
      { type: 'message.delta', seq: 3, ts: 3, message_id: 'a1', delta: 'Half a sen' },
      { type: 'message.done', seq: 4, ts: 4, message_id: 'a1', interrupted: true },
      { type: 'turn.error', seq: 5, ts: 5, turn_id: 't1', code: 'interrupted', message: 'The server restarted; this reply was cut off.', recoverable: true },
      { type: 'turn.done', seq: 6, ts: 6, turn_id: 't1', outcome: 'interrupted' },
    ]);
    expect(state.malformed).toBe(0);
    expect(state.rows[0]).toMatchObject({ kind: 'assistant', status: 'interrupted', text: 'Half a sen' });
    expect(state.activeTurn).toBeNull();
    // The same events in another order end the same.
    const reversed = foldAll(initialThreadState, [
      { type: 'turn.done', seq: 6, ts: 6, turn_id: 't1', outcome: 'interrupted' },
      { type: 'turn.error', seq: 5, ts: 5, turn_id: 't1', code: 'interrupted', message: 'x', recoverable: true },
      { type: 'message.done', seq: 4, ts: 4, message_id: 'a1', interrupted: true },
      { type: 'message.created', seq: 2, ts: 2, message_id: 'a1', role: 'assistant', text: '', turn_id: 't1' },
      { type: 'message.delta', seq: 3, ts: 3, message_id: 'a1', delta: 'Half a sen' },
      { type: 'turn.started', seq: 1, ts: 1, turn_id: 't1' },
    ]);
    expect(reversed.rows.find((r) => r.kind === 'assistant')).toMatchObject({ status: 'interrupted', text: 'Half a sen' });
    expect(reversed.activeTurn).toBeNull();
  });

  it('keeps call_id, user_text, route and purpose on waiting rows, and call_id on the card', () => {
    const route = { kind: 'ambiguous' as const, cues: ['watch'] };
    const waiting = { turn_id: 't1', call_id: 'call_1', user_text: 'watch the price', route };
    const state = foldAll(initialThreadState, [
      { type: 'proposal.created', seq: 1, ts: 1, proposal_id: 'p1', capability: 'a.b', title: 'A', args: {}, ...waiting },
      { type: 'approval.requested', seq: 2, ts: 2, approval_id: 'ap1', capability: 'a.b', title: 'A', args: {}, reason: 'r', ...waiting },
      { type: 'clarify.requested', seq: 3, ts: 3, question_id: 'q1', question: 'Once?', options: [], ...waiting, purpose: 'route' },
      { type: 'capability.started', seq: 4, ts: 4, invocation_id: 'i1', capability: 'a.b', title: 'A', args: {}, turn_id: 't1', call_id: 'call_2' },
      { type: 'capability.done', seq: 6, ts: 6, invocation_id: 'i2', result: textResult('ok') },
      { type: 'capability.started', seq: 5, ts: 5, invocation_id: 'i2', capability: 'a.b', title: 'A', args: {}, turn_id: 't1', call_id: 'call_3' },
    ]);
    expect(state.rows[0]).toMatchObject({ kind: 'proposal', call_id: 'call_1', user_text: 'watch the price', route, turn_id: 't1' });
    expect(state.rows[1]).toMatchObject({ kind: 'approval', call_id: 'call_1', user_text: 'watch the price', route });
    expect(state.rows[2]).toMatchObject({ kind: 'question', call_id: 'call_1', user_text: 'watch the price', route, purpose: 'route' });
    expect(state.rows[3]).toMatchObject({ kind: 'invocation', call_id: 'call_2', turn_id: 't1' });
    // Started after done still names the card, its turn and its call.
    expect(state.rows[4]).toMatchObject({ kind: 'invocation', call_id: 'call_3', turn_id: 't1', state: 'done', title: 'A' });
    // Absent fields stay absent.
    const bare = fold(initialThreadState, { type: 'proposal.created', seq: 1, ts: 1, proposal_id: 'p1', capability: 'a.b', title: 'A', args: {} });
    expect(bare.rows[0]).not.toHaveProperty('call_id');
    expect(bare.rows[0]).not.toHaveProperty('route');
  });

  it('a violation row carries its seq; lastTurnStartedSeq is the highest turn.started seq, whatever the order', () => {
    const state = foldAll(initialThreadState, [
      { type: 'turn.started', seq: 5, ts: 5, turn_id: 't2' },
      { type: 'capability.quality_violation', seq: 3, ts: 3, invocation_id: 'i1', postcondition: 'p', expected: 'e', actual: 'a', message: 'm' },
      { type: 'turn.started', seq: 1, ts: 1, turn_id: 't1' },
    ]);
    expect(state.rows.find((r) => r.kind === 'violation')).toMatchObject({ id: 'violation-3', seq: 3 });
    expect(state.lastTurnStartedSeq).toBe(5);
    expect(state.activeTurn).toBe('t2');
    expect(initialThreadState.lastTurnStartedSeq).toBe(0);
  });
});

describe('fold: order independence', () => {
  const start = (seq: number, turn: string) => ({ type: 'turn.started', seq, ts: seq, turn_id: turn });
  const done = (seq: number, turn: string) => ({ type: 'turn.done', seq, ts: seq, turn_id: turn, outcome: 'answered' });
  const cap = { capability: 'csv.import', title: 'Import CSV', args: { file: 'a.csv' } };

  it('a turn.done that arrives before its turn.started leaves the turn done', () => {
    expect(foldAll(initialThreadState, [done(2, 't1'), start(1, 't1')]).activeTurn).toBeNull();
    expect(foldAll(initialThreadState, [start(1, 't1'), done(2, 't1')]).activeTurn).toBeNull();
  });

  it('with several turns the active one is the last started (by seq), unless it is done', () => {
    const events = [start(1, 't1'), done(2, 't1'), start(3, 't2'), done(4, 't2'), start(5, 't3')];
    for (const order of [events, [...events].reverse(), [events[4]!, events[0]!, events[3]!, events[1]!, events[2]!]]) {
      expect(foldAll(initialThreadState, order).activeTurn).toBe('t3');
    }
    expect(foldAll(initialThreadState, [start(3, 't2'), start(1, 't1')]).activeTurn).toBe('t2');
    expect(foldAll(initialThreadState, [done(4, 't2'), start(3, 't2'), start(1, 't1')]).activeTurn).toBeNull();
    // A turn id used again: only a done after the latest start ends it.
    const again = [start(1, 't'), done(2, 't'), start(3, 't')];
    expect(foldAll(initialThreadState, again).activeTurn).toBe('t');
    expect(foldAll(initialThreadState, [again[1]!, again[2]!, again[0]!]).activeTurn).toBe('t');
    expect(foldAll(initialThreadState, [again[2]!, again[1]!, again[0]!]).activeTurn).toBe('t');
    expect(foldAll(initialThreadState, [start(1, 't'), done(4, 't'), start(3, 't')]).activeTurn).toBeNull();
  });

  it('keeps no bookkeeping for turns whose events arrived in order', () => {
    const state = foldAll(initialThreadState, [
      start(1, 't1'),
      { type: 'turn.error', seq: 2, ts: 2, turn_id: 't1', code: 'x', message: 'x', recoverable: true },
      done(3, 't1'),
    ]);
    expect(state.seqs.doneTurns).toEqual({});
    expect(state.seqs.turnErrors).toEqual({});
  });

  it('the view.changed with the highest seq wins; per composer field, the highest seq wins', () => {
    const events = [
      { type: 'view.changed', seq: 1, ts: 1, view: { kind: 'a' } },
      { type: 'composer.changed', seq: 2, ts: 2, composer: { agentName: 'old', modelName: 'm1' } },
      { type: 'view.changed', seq: 3, ts: 3, view: { kind: 'b' } },
      { type: 'composer.changed', seq: 4, ts: 4, composer: { agentName: 'new' } },
    ];
    for (const order of [events, [...events].reverse()]) {
      const state = foldAll(initialThreadState, order);
      expect(state.activeView).toEqual({ kind: 'b' });
      expect(state.composer).toEqual({ agentName: 'new', modelName: 'm1' });
    }
  });

  it('a late capability.started after done neither reopens the card nor puts it in the cast', () => {
    const state = foldAll(initialThreadState, [
      { type: 'capability.progress', seq: 2, ts: 2, invocation_id: 'i1', progress: 1, total: 2 },
      { type: 'capability.done', seq: 4, ts: 4, invocation_id: 'i1', result: textResult('ok') },
      { type: 'capability.started', seq: 1, ts: 1, invocation_id: 'i1', ...cap },
      { type: 'capability.progress', seq: 3, ts: 3, invocation_id: 'i1', progress: 2, total: 2 },
    ]);
    expect(state.rows).toHaveLength(1);
    expect(state.rows[0]).toMatchObject({ state: 'done', title: 'Import CSV', capability: 'csv.import', progress: { progress: 2, total: 2 }, startedAt: 1, endedAt: 4 });
    expect(state.open).toEqual({});
    expect(state.lastCapability).toBe('csv.import');
  });

  it('an older progress arriving late does not replace a newer one', () => {
    const state = foldAll(initialThreadState, [
      { type: 'capability.started', seq: 1, ts: 1, invocation_id: 'i1', ...cap },
      { type: 'capability.progress', seq: 3, ts: 3, invocation_id: 'i1', progress: 2, total: 4 },
      { type: 'capability.progress', seq: 2, ts: 2, invocation_id: 'i1', progress: 1, total: 4 },
    ]);
    expect(state.rows[0]).toMatchObject({ progress: { progress: 2, total: 4 } });
    expect(state.open.i1).toMatchObject({ progress: { progress: 2, total: 4 } });
  });

  it("the 'Working…' placeholder and its violation rows take the title when queued or started arrives", () => {
    const state = foldAll(initialThreadState, [
      { type: 'capability.quality_violation', seq: 4, ts: 4, invocation_id: 'i1', postcondition: 'p', expected: 'e', actual: 'a', message: 'm' },
      { type: 'capability.quality_violation', seq: 3, ts: 3, invocation_id: 'i1', postcondition: 'q', expected: 'e', actual: 'a', message: 'm' },
      { type: 'capability.done', seq: 2, ts: 2, invocation_id: 'i1', result: textResult('ok') },
      { type: 'capability.queued', seq: 1, ts: 1, invocation_id: 'i1', ...cap, job_id: 'job1' },
    ]);
    const card = state.rows[0] as InvocationRow;
    expect(card).toMatchObject({ title: 'Import CSV', state: 'done', job_id: 'job1' });
    expect(card.violations?.map((v) => v.postcondition)).toEqual(['q', 'p']);
    expect(state.rows.filter((r) => r.kind === 'violation').map((r) => (r as { title: string }).title)).toEqual(['Import CSV', 'Import CSV']);
    expect(state.lastCapability).toBe('csv.import');
  });

  it('a queued event after started keeps the started naming and adds the job id', () => {
    const state = foldAll(initialThreadState, [
      { type: 'capability.started', seq: 2, ts: 2, invocation_id: 'i1', ...cap, title: 'Import CSV now', actor },
      { type: 'capability.queued', seq: 1, ts: 1, invocation_id: 'i1', ...cap, turn_id: 't1', job_id: 'job1' },
    ]);
    expect(state.rows[0]).toMatchObject({ state: 'running', title: 'Import CSV now', actor, turn_id: 't1', job_id: 'job1' });
    expect(state.open.i1).toMatchObject({ title: 'Import CSV now' });
  });

  it('an error card named by its event is renamed by a late queued event, not by a later error', () => {
    const cancelled = { type: 'capability.error', seq: 2, ts: 2, invocation_id: 'i1', capability: 'csv.import', error: { code: 'cancelled', message: 'Cancelled.' }, recoverable: true };
    const queued = { type: 'capability.queued', seq: 1, ts: 1, invocation_id: 'i1', ...cap };
    for (const order of [[queued, cancelled], [cancelled, queued]]) {
      const state = foldAll(initialThreadState, order);
      expect(state.rows[0]).toMatchObject({ state: 'cancelled', title: 'Import CSV', args: { file: 'a.csv' } });
      expect(state.open).toEqual({});
    }
  });

  it('lastCapability is the capability of the successful done with the highest seq', () => {
    const events = [
      { type: 'capability.started', seq: 1, ts: 1, invocation_id: 'i1', capability: 'first', title: 'First', args: {} },
      { type: 'capability.done', seq: 2, ts: 2, invocation_id: 'i1', result: textResult('ok') },
      { type: 'capability.done', seq: 4, ts: 4, invocation_id: 'i2', result: textResult('ok') },
      { type: 'capability.started', seq: 3, ts: 3, invocation_id: 'i2', capability: 'second', title: 'Second', args: {} },
      { type: 'capability.done', seq: 6, ts: 6, invocation_id: 'i3', result: errorResult('no') },
      { type: 'capability.started', seq: 5, ts: 5, invocation_id: 'i3', capability: 'third', title: 'Third', args: {} },
    ];
    for (const order of [events, [...events].reverse()]) expect(foldAll(initialThreadState, order).lastCapability).toBe('second');
  });

  it('proposal.created after proposal.resolved keeps the decision; clarify.requested after answered keeps the answer', () => {
    const state = foldAll(initialThreadState, [
      { type: 'proposal.resolved', seq: 2, ts: 2, proposal_id: 'p1', decision: 'accepted' },
      { type: 'proposal.created', seq: 1, ts: 1, proposal_id: 'p1', ...cap },
      { type: 'approval.resolved', seq: 4, ts: 4, approval_id: 'a1', decision: 'approved' },
      { type: 'approval.requested', seq: 3, ts: 3, approval_id: 'a1', ...cap, reason: 'r' },
      { type: 'clarify.answered', seq: 6, ts: 6, question_id: 'q1', answer: 'once' },
      { type: 'clarify.requested', seq: 5, ts: 5, question_id: 'q1', question: 'Once?', options: [{ label: 'Once', value: 'once' }] },
    ]);
    expect(state.rows[0]).toMatchObject({ kind: 'proposal', status: 'accepted', title: 'Import CSV' });
    expect(state.rows[1]).toMatchObject({ kind: 'approval', status: 'approved', reason: 'r' });
    expect(state.rows[2]).toMatchObject({ kind: 'question', status: 'answered', answer: 'once', question: 'Once?' });
  });

  it('a turn.error fails the messages of its turn created before it, whichever arrives first', () => {
    const created = { type: 'message.created', seq: 2, ts: 2, message_id: 'a1', role: 'assistant', text: 'Half', turn_id: 't1' };
    const error = { type: 'turn.error', seq: 3, ts: 3, turn_id: 't1', code: 'model_error', message: 'x', recoverable: true };
    for (const order of [[created, error], [error, created]]) {
      expect(foldAll(initialThreadState, order).rows.find((r) => r.kind === 'assistant')).toMatchObject({ status: 'error', text: 'Half' });
    }
    // An error early in the turn (say, retrieval failed) does not fail a reply created after it.
    const early = { ...error, seq: 1 };
    for (const order of [[early, created], [created, early]]) {
      expect(foldAll(initialThreadState, order).rows.find((r) => r.kind === 'assistant')).toMatchObject({ status: 'streaming' });
    }
    // A finished message stays finished.
    const finished = { type: 'message.done', seq: 4, ts: 4, message_id: 'a1' };
    for (const order of [[created, error, finished], [finished, error, created], [error, finished, created]]) {
      expect(foldAll(initialThreadState, order).rows.find((r) => r.kind === 'assistant')).toMatchObject({ status: 'done' });
    }
  });

  it('lists skills in the order of their first activation by seq', () => {
    const events = [
      { type: 'skill.activated', seq: 1, ts: 1, skill: 'a', title: 'A' },
      { type: 'skill.activated', seq: 2, ts: 2, skill: 'b', title: 'B' },
      { type: 'skill.activated', seq: 3, ts: 3, skill: 'a', title: 'A' },
      { type: 'skill.activated', seq: 4, ts: 4, skill: 'c', title: 'C' },
    ];
    for (const order of [events, [...events].reverse(), [events[2]!, events[3]!, events[1]!, events[0]!]]) {
      expect(foldAll(initialThreadState, order).activeSkills).toEqual(['a', 'b', 'c']);
    }
  });

  it('of two ends of one invocation, the later (by seq) wins whichever arrives first', () => {
    const started = { type: 'capability.started', seq: 1, ts: 1, invocation_id: 'i1', ...cap };
    const done = { type: 'capability.done', seq: 2, ts: 2, invocation_id: 'i1', result: textResult('ok') };
    const error = { type: 'capability.error', seq: 3, ts: 3, invocation_id: 'i1', capability: 'other', title: 'Other', error: { code: 'interrupted', message: 'x' }, recoverable: true };
    for (const order of [[started, done, error], [error, done, started], [done, error, started]]) {
      const row = foldAll(initialThreadState, order).rows[0] as InvocationRow;
      expect(row).toMatchObject({ state: 'failed', error: { code: 'interrupted' }, endedAt: 3, title: 'Import CSV', capability: 'csv.import' });
      expect(row.result).toBeUndefined();
    }
  });

  it('a second message.created for one assistant message (another seq) adds no text', () => {
    const created = { type: 'message.created', seq: 1, ts: 1, message_id: 'a1', role: 'assistant', text: 'Hi' };
    const state = foldAll(initialThreadState, [created, { ...created, seq: 2 }]);
    expect((state.rows[0] as AssistantRow).text).toBe('Hi');
  });
});

describe('fold: malformed events replayed', () => {
  it('a malformed event with a seq, folded twice, adds one error row', () => {
    const bad = { type: 'capability.done', seq: 3, ts: 3, invocation_id: 'i1' };
    const once = fold(initialThreadState, bad);
    const twice = foldAll(once, [bad, { ...bad }]);
    expect(twice).toBe(once);
    expect(twice.malformed).toBe(1);
    expect(twice.rows.filter((r) => r.kind === 'error')).toHaveLength(1);
    // The whole log replayed (after a reconnect, say) adds nothing either.
    const log = [{ type: 'message.created', seq: 1, ts: 1, message_id: 'm1', role: 'user', text: 'Hi' }, bad, { type: 'message.created', seq: 2, ts: 2, message_id: 'm2', role: 'user', text: 'Ho' }];
    const first = foldAll(initialThreadState, log);
    expect(foldAll(first, log)).toBe(first);
    expect(first.appliedUpTo).toBe(3);
  });

  it('a malformed event without a usable seq is known by its JSON: a replay adds no row, another one does', () => {
    const bad = { type: 'message.delta', seq: 'x', message_id: 'm1' };
    const once = foldAll(initialThreadState, [bad, null]);
    expect(once.malformed).toBe(2);
    const again = foldAll(once, [{ ...bad }, null, 'garbage']);
    expect(again.malformed).toBe(3);
    expect(again.rows.filter((r) => r.kind === 'error')).toHaveLength(3);
    expect(new Set(again.ids).size).toBe(3);
    // Values JSON cannot hold are known by their type and text.
    const odd = foldAll(initialThreadState, [undefined, undefined, 10n, 10n, Symbol('s')]);
    expect(odd.malformed).toBe(3);
  });

  it('the key of a malformed event survives a JSON round trip of the state', () => {
    const once = fold(initialThreadState, { nope: true });
    const restored = JSON.parse(JSON.stringify(once)) as ThreadState;
    expect(fold(restored, { nope: true }).malformed).toBe(1);
    expect(malformedKey({ a: 1 })).toBe(malformedKey({ a: 1 }));
    expect(malformedKey({ a: 1 })).not.toBe(malformedKey({ a: 2 }));
  });
});

describe('fold: ids that are Object.prototype names', () => {
  const names = ['__proto__', 'constructor', 'hasOwnProperty', 'toString', 'valueOf'];

  it('invocation ids are ordinary keys of the cast and of the rows', () => {
    for (const id of names) {
      let state = fold(initialThreadState, { type: 'capability.started', seq: 1, ts: 1, invocation_id: id, capability: 'a.b', title: 'A', args: {} });
      expect(Object.keys(state.open)).toEqual([id]);
      expect(Object.getPrototypeOf(state.open)).toBeNull();
      expect(state.open[id]).toMatchObject({ invocation_id: id, title: 'A' });
      expect(Object.values(state.open)).toHaveLength(1);
      state = fold(state, { type: 'capability.done', seq: 2, ts: 2, invocation_id: id, result: textResult('ok') });
      expect(Object.keys(state.open)).toEqual([]);
      expect(state.rows).toHaveLength(1);
      expect(state.rows[0]).toMatchObject({ id, state: 'done' });
    }
  });

  it('an invocation never started or done is not taken for open because Object.prototype has its name', () => {
    for (const id of names) {
      const state = fold(initialThreadState, { type: 'capability.error', seq: 1, ts: 1, invocation_id: id, capability: 'a.b', error: { code: 'invalid_arguments', message: 'x' }, recoverable: true });
      expect(state.open).toEqual({});
      expect(state.rows[0]).toMatchObject({ id, state: 'failed' });
    }
  });

  it('message, turn, proposal and question ids behave as any other', () => {
    for (const id of names) {
      const state = foldAll(initialThreadState, [
        { type: 'turn.done', seq: 9, ts: 9, turn_id: id, outcome: 'answered' },
        { type: 'turn.error', seq: 8, ts: 8, turn_id: id, code: 'x', message: 'x', recoverable: true },
        { type: 'message.created', seq: 2, ts: 2, message_id: id, role: 'assistant', text: 'A', turn_id: id },
        { type: 'message.created', seq: 1, ts: 1, message_id: id, role: 'user', text: 'U' },
        { type: 'turn.started', seq: 3, ts: 3, turn_id: id },
        { type: 'proposal.resolved', seq: 5, ts: 5, proposal_id: id, decision: 'accepted' },
        { type: 'proposal.created', seq: 4, ts: 4, proposal_id: id, capability: 'a.b', title: 'A', args: {} },
        { type: 'clarify.requested', seq: 6, ts: 6, question_id: id, question: 'Q?', options: [] },
        { type: 'skill.activated', seq: 7, ts: 7, skill: id, title: 'S' },
      ]);
      expect(state.activeTurn).toBeNull();
      expect(state.rows.map((r) => `${r.kind}:${r.id}`)).toEqual([`error:turn-error-8`, `assistant:${id}`, `user:${id}`, `proposal:${id}`, `question:${id}`]);
      expect(state.rows[1]).toMatchObject({ status: 'error', text: 'A' });
      expect(state.rows[3]).toMatchObject({ status: 'accepted', title: 'A' });
      expect(state.activeSkills).toEqual([id]);
      expect(Object.getPrototypeOf(state.seqs.doneTurns)).toBeNull();
      expect(state.seqs.doneTurns[id]).toBe(9);
      const started = foldAll(initialThreadState, [{ type: 'turn.started', seq: 1, ts: 1, turn_id: id }]);
      expect(started.activeTurn).toBe(id);
    }
  });

  it('a state restored from JSON keeps such ids as keys', () => {
    const state = fold(initialThreadState, { type: 'capability.started', seq: 1, ts: 1, invocation_id: '__proto__', capability: 'a.b', title: 'A', args: {} });
    const restored = JSON.parse(JSON.stringify(state)) as ThreadState;
    expect(Object.hasOwn(restored.open, '__proto__')).toBe(true);
    const next = fold(restored, { type: 'capability.progress', seq: 2, ts: 2, invocation_id: '__proto__', progress: 1 });
    expect(Object.getPrototypeOf(next.open)).toBeNull();
    expect(Object.keys(next.open)).toEqual(['__proto__']);
    expect(next.open['__proto__']).toMatchObject({ progress: { progress: 1 } });
    const ended = fold(next, { type: 'capability.done', seq: 3, ts: 3, invocation_id: '__proto__', result: textResult('ok') });
    expect(Object.keys(ended.open)).toEqual([]);
    const constructor = fold(restored, { type: 'capability.done', seq: 2, ts: 2, invocation_id: 'constructor', result: textResult('ok') });
    expect(Object.keys(constructor.open)).toEqual(['__proto__']);
  });
});
