import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { CapabilityDefinitionError, defineCapability } from './capability';
import { errorResult, textResult } from './results';
import { createEventLog } from './eventLog';
import type { EventOf, ThreadEvent } from './events';
import { foldAll, initialThreadState, type InvocationRow } from './fold';
import { invoke, VIOLATIONS_META } from './invoke';
import type { Postcondition, PostconditionProbes } from './postconditions';
import { createRegistry } from './registry';

/** A tiny table the "handler" inserts into, and the host's counting probe over it. */
function table() {
  const rows: string[] = [];
  return { rows, probes: { countRows: (entity: string) => (entity === 'contacts' ? rows.length : Promise.reject(new Error(`no table ${entity}`))) } };
}

function importer(rows: string[], expected_effect: readonly Postcondition[], insert = (names: string[]) => rows.push(...names)) {
  return defineCapability({
    name: 'contacts.import',
    title: 'Import contacts',
    description: 'Imports contacts.',
    kind: 'mutate',
    input: z.object({ names: z.array(z.string()), expected: z.number().int().optional() }),
    expected_effect,
    handler: ({ names }) => {
      insert(names);
      return textResult(`Imported ${names.length} contacts.`);
    },
  });
}

async function run(descriptor: ReturnType<typeof defineCapability>, args: unknown, probes?: PostconditionProbes, clock?: () => number) {
  const log = createEventLog();
  const result = await invoke(descriptor.name, args, {
    registry: createRegistry([descriptor]),
    emit: log.emit,
    threadKey: 't1',
    ...(probes ? { probes } : {}),
    ...(clock ? { clock } : {}),
  });
  const events = log.since() as ThreadEvent[];
  return { result, events, violations: events.filter((e): e is EventOf<'capability.quality_violation'> => e.type === 'capability.quality_violation') };
}

describe('row_count_change', () => {
  it('+= holds when the count grows by exactly the value, bound from an argument', async () => {
    const t = table();
    const cap = importer(t.rows, [{ type: 'row_count_change', entity: 'contacts', op: '+=', value: '{{expected}}' }]);
    expect((await run(cap, { names: ['Ada', 'Grace'], expected: 2 }, t.probes)).violations).toEqual([]);
    const short = await run(cap, { names: ['Linus'], expected: 2 }, t.probes);
    expect(short.violations).toEqual([
      expect.objectContaining({
        postcondition: 'row_count_change',
        expected: 'contacts +2',
        actual: 'contacts +1',
        message: 'Import contacts should have added 2 rows to contacts, but the count went from 2 to 3.',
      }),
    ]);
  });

  it('{ count } expects as many new rows as another count taken before the run (a file’s rows, say)', async () => {
    const rows: string[] = [];
    const probes = {
      countRows: (entity: string) => (entity === 'contacts' ? rows.length : entity === 'file:big.csv' ? 3 : entity === 'file:small.csv' ? 1 : Promise.reject(new Error(`no ${entity}`))),
    };
    const cap = defineCapability({
      name: 'contacts.load',
      title: 'Load contacts',
      description: 'Loads a contacts file.',
      kind: 'mutate',
      input: z.object({ file: z.string() }),
      expected_effect: [{ type: 'row_count_change', entity: 'contacts', op: '+=', value: { count: 'file:{{file}}' } }],
      handler: ({ file }) => {
        if (file === 'big.csv') rows.push('a', 'b', 'c');
        return textResult('Loaded.');
      },
    });
    expect((await run(cap, { file: 'big.csv' }, probes)).violations).toEqual([]);
    const none = await run(cap, { file: 'small.csv' }, probes);
    expect(none.violations).toEqual([
      expect.objectContaining({ expected: 'contacts +1', actual: 'contacts +0', message: 'Load contacts should have added 1 row to contacts, but the count went from 3 to 3.' }),
    ]);
    const unknown = await run(cap, { file: 'missing.csv' }, probes);
    expect(unknown.violations[0]).toMatchObject({ actual: 'not checked', expected: 'contacts += count of file:{{file}}' });
    expect(unknown.violations[0]!.message).toContain('counting file:missing.csv failed: no file:missing.csv');
  });

  it('>= holds for any growth of at least the value; == compares the count afterwards', async () => {
    const t = table();
    const atLeast = importer(t.rows, [{ type: 'row_count_change', entity: 'contacts', op: '>=', value: 1 }]);
    expect((await run(atLeast, { names: ['A', 'B', 'C'] }, t.probes)).violations).toEqual([]);
    expect((await run(atLeast, { names: [] }, t.probes)).violations[0]).toMatchObject({ expected: 'contacts +1 or more', actual: 'contacts +0' });
    const exactly = importer(t.rows, [{ type: 'row_count_change', entity: 'contacts', op: '==', value: 4 }]);
    expect((await run(exactly, { names: ['D'] }, t.probes)).violations).toEqual([]);
    expect((await run(exactly, { names: ['E'] }, t.probes)).violations[0]).toMatchObject({
      expected: 'contacts = 4',
      actual: 'contacts = 5',
      message: 'Import contacts should have left contacts with 4 rows, but it has 5.',
    });
  });

  it('a handler that claims success but writes nothing is caught: the card stays done, with the violation on it', async () => {
    const t = table();
    const liar = importer(t.rows, [{ type: 'row_count_change', entity: 'contacts', op: '+=', value: '{{expected}}' }], () => 0);
    const { result, events } = await run(liar, { names: ['Ada'], expected: 1 }, t.probes);
    expect(result.content[0]).toMatchObject({ text: 'Imported 1 contacts.' });
    expect(result._meta?.[VIOLATIONS_META]).toEqual([expect.objectContaining({ postcondition: 'row_count_change', actual: 'contacts +0' })]);
    expect(events.map((e) => e.type)).toEqual(['capability.started', 'capability.done', 'capability.quality_violation']);
    const state = foldAll(initialThreadState, events);
    expect((state.rows[0] as InvocationRow).state).toBe('done');
    expect(state.rows[1]).toMatchObject({ kind: 'violation', title: 'Import contacts', postcondition: 'row_count_change' });
  });

  it('says it could not check when there is no counter, the counter fails, or the value has no argument', async () => {
    const t = table();
    const cap = importer(t.rows, [{ type: 'row_count_change', entity: 'contacts', op: '+=', value: '{{expected}}' }]);
    expect((await run(cap, { names: ['A'], expected: 1 })).violations[0]).toMatchObject({
      actual: 'not checked',
      message: 'Import contacts: could not check that contacts +1: no row counter was given (pass probes.countRows).',
    });
    expect((await run(cap, { names: ['A'] }, t.probes)).violations[0]).toMatchObject({
      actual: 'not checked',
      message: 'Import contacts: could not check that contacts += {{expected}}: {{expected}} has no value.',
    });
    const elsewhere = importer(t.rows, [{ type: 'row_count_change', entity: 'people', op: '>=', value: 1 }]);
    expect((await run(elsewhere, { names: ['A'] }, t.probes)).violations[0]).toMatchObject({
      actual: 'not checked',
      message: 'Import contacts: could not check that people +1 or more: counting people failed: no table people.',
    });
  });

  it('is not evaluated when the capability fails', async () => {
    const t = table();
    const failing = defineCapability({
      name: 'contacts.fail', title: 'Fail', description: 'Fails.', kind: 'mutate', input: z.object({}),
      expected_effect: [{ type: 'row_count_change', entity: 'contacts', op: '>=', value: 1 }],
      handler: () => errorResult('nope'),
    });
    const { events } = await run(failing, {}, t.probes);
    expect(events.map((e) => e.type)).toEqual(['capability.started', 'capability.error']);
  });
});

describe('stdout_matches, exit_code and duration on an in-process capability', () => {
  const say = (text: string, expected_effect: readonly Postcondition[]) =>
    defineCapability({ name: 'say', title: 'Say', description: 'Says.', input: z.object({}), expected_effect, handler: () => textResult(text) });

  it('matches the result text when nothing was streamed on stdout', async () => {
    expect((await run(say('Imported 3 rows', [{ type: 'stdout_matches', pattern: 'Imported \\d+ rows' }]), {})).violations).toEqual([]);
    expect((await run(say('Imported none', [{ type: 'stdout_matches', pattern: 'Imported \\d+ rows', mode: 'must' }]), {})).violations[0]).toMatchObject({
      postcondition: 'stdout_matches',
      expected: 'output matching /Imported \\d+ rows/',
      actual: 'no match',
    });
    expect((await run(say('ok\nERROR: disk full\nok', [{ type: 'stdout_matches', pattern: '^ERROR', mode: 'must_not' }]), {})).violations[0]).toMatchObject({
      expected: 'no output matching /^ERROR/',
      actual: 'ERROR: disk full',
      message: "Say's output matched /^ERROR/: ERROR: disk full",
    });
  });

  it('matches streamed stdout when the capability streams it', async () => {
    const streamer = defineCapability({
      name: 'stream', title: 'Stream', description: 'Streams.', input: z.object({}),
      expected_effect: [{ type: 'stdout_matches', pattern: '^done$' }],
      handler: (_args, ctx) => {
        ctx.output('working\n', 'stdout');
        ctx.output('done\n', 'stdout');
        ctx.output('done (log)\n', 'log');
        return textResult('finished');
      },
    });
    expect((await run(streamer, {})).violations).toEqual([]);
  });

  it('exit_code cannot be checked on a capability that reports no exit code', async () => {
    expect((await run(say('hi', [{ type: 'exit_code', equals: 0 }]), {})).violations[0]).toMatchObject({
      actual: 'not checked',
      message: 'Say: could not check that exit code 0: it reports no exit code.',
    });
  });

  it('duration is soft: past max_ms it emits quality.slow and no violation', async () => {
    let now = 0;
    const slow = defineCapability({
      name: 'slow', title: 'Slow', description: 'Slow.', input: z.object({}),
      expected_effect: [{ type: 'duration', max_ms: 100 }],
      handler: () => {
        now += 250;
        return textResult('late');
      },
    });
    const { events, violations } = await run(slow, {}, undefined, () => now);
    expect(violations).toEqual([]);
    expect(events.map((e) => e.type)).toEqual(['capability.started', 'capability.done', 'quality.slow']);
    expect(events[2]).toMatchObject({ max_ms: 100, actual_ms: 250 });
    expect(foldAll(initialThreadState, events).rows[0]).toMatchObject({ state: 'done', slow: { max_ms: 100, actual_ms: 250 } });
  });
});

describe('expected_effect is checked when the capability is defined', () => {
  const define = (expected_effect: unknown) => () =>
    defineCapability({
      name: 'x', title: 'X', description: 'X.', input: z.object({ n: z.number() }), expected_effect: expected_effect as Postcondition[],
      handler: () => textResult(''),
    });

  it.each([
    [[{ type: 'rows_added', entity: 'a' }], /expected_effect\[0\]\.type: Invalid discriminator value. Expected 'row_count_change' \| 'file_created'/],
    [[{ type: 'row_count_change', entity: 'a', op: '<', value: 1 }], /expected_effect\[0\]\.op: Invalid option/],
    [[{ type: 'row_count_change', entity: 'a', op: '+=', value: 'three' }], /expected_effect\[0\]\.value: must be a number or one \{\{argument\}\}/],
    [[{ type: 'file_created', glob: '/etc/*' }], /glob must stay inside the app root/],
    [[{ type: 'stdout_matches', pattern: '[' }], /pattern is not a valid regular expression/],
    [[{ type: 'duration', max_ms: 0 }], /expected_effect\[0\]\.max_ms/],
    [[{ type: 'exit_code', equals: 0, extra: true }], /expected_effect\[0\]: Unrecognized key: "extra"/],
    [[{ type: 'row_count_change', entity: '{{table}}', op: '>=', value: 1 }], /uses \{\{table\}\}, which is not an input field/],
    [{ type: 'exit_code', equals: 0 }, /expected_effect must be a list of postconditions/],
  ])('refuses %j', (effect, message) => {
    expect(define(effect)).toThrow(CapabilityDefinitionError);
    expect(define(effect)).toThrow(message);
  });

  it('accepts placeholders that name input fields', () => {
    expect(define([{ type: 'row_count_change', entity: 'contacts', op: '+=', value: '{{n}}' }])).not.toThrow();
  });
});
