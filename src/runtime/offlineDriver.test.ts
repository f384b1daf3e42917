import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineCapability } from './capability';
import { errorResult, textResult } from './results';
import { ROUTE_OPTIONS, ROUTE_QUESTION } from './prompt/router';
import { CONTROL, DECLINED_META, type DriverChunk, type ModelMessage, type ModelRequest } from './model';
import { createOfflineDriver } from './offlineDriver';
import { createRegistry } from './registry';

const capabilities = createRegistry([
  defineCapability({
    name: 'math.add',
    title: 'Add',
    description: 'Adds two numbers.',
    input: z.object({ a: z.number(), b: z.number() }),
    handler: ({ a, b }) => textResult(String(a + b)),
  }),
  defineCapability({
    name: 'search',
    title: 'Search',
    description: 'Searches the web.',
    input: z.object({ query: z.string() }),
    handler: () => textResult('results'),
  }),
  defineCapability({
    name: 'notes.search',
    title: 'Search notes',
    description: 'Searches your notes.',
    input: z.object({ query: z.string() }),
    handler: () => textResult('notes'),
  }),
  defineCapability({
    name: 'records.list',
    title: 'List records',
    description: 'Lists records.',
    input: z.object({
      limit: z.number().int().optional(),
      archived: z.boolean().optional(),
      owner: z.string().optional(),
      min_score: z.number().nullable().optional(),
    }),
    handler: () => textResult('none'),
  }),
]).describe();

async function respond(messages: ModelMessage[], signal = new AbortController().signal): Promise<DriverChunk[]> {
  const chunks: DriverChunk[] = [];
  for await (const chunk of createOfflineDriver({ delayMs: 0 }).respond({ messages, capabilities, signal })) chunks.push(chunk);
  return chunks;
}

describe('offline driver: choosing a capability', () => {
  it('invokes a capability named by its machine name', async () => {
    expect(await respond([{ role: 'user', text: 'please run math.add a=1 b=2' }])).toEqual([
      { type: 'invoke', capability: 'math.add', args: { a: 1, b: 2 } },
    ]);
  });

  it('reads a number followed by punctuation, as people type it', async () => {
    expect(await respond([{ role: 'user', text: 'add a=2 b=40?' }])).toEqual([
      { type: 'invoke', capability: 'math.add', args: { a: 2, b: 40 } },
    ]);
  });

  it('invokes a capability named by its title, ignoring case', async () => {
    expect(await respond([{ role: 'user', text: 'could you ADD a=2 b=40' }])).toEqual([
      { type: 'invoke', capability: 'math.add', args: { a: 2, b: 40 } },
    ]);
  });

  it('picks the longest mention when one title contains another', async () => {
    expect(await respond([{ role: 'user', text: 'Search notes query="black cats"' }])).toEqual([
      { type: 'invoke', capability: 'notes.search', args: { query: 'black cats' } },
    ]);
    expect(await respond([{ role: 'user', text: 'Search query="black cats"' }])).toEqual([
      { type: 'invoke', capability: 'search', args: { query: 'black cats' } },
    ]);
  });

  it('picks a longer machine name over a shorter title inside it', async () => {
    // "records.list" also contains the word "list", but the whole name is the longer mention.
    const chunks = await respond([{ role: 'user', text: 'run records.list limit=5' }]);
    expect(chunks).toEqual([{ type: 'invoke', capability: 'records.list', args: { limit: 5 } }]);
  });

  it('matches whole words only', async () => {
    const chunks = await respond([{ role: 'user', text: 'What is my address, and is anything added?' }]);
    expect(chunks.every((c) => c.type === 'text')).toBe(true);
    expect(chunks.map((c) => (c.type === 'text' ? c.text : '')).join('')).toMatch(/^I'm not sure what you'd like me to do\./);
  });

  it('finds a title used later in the message after a partial-word false start', async () => {
    expect(await respond([{ role: 'user', text: 'Addition? No: add a=1 b=1' }])).toEqual([
      { type: 'invoke', capability: 'math.add', args: { a: 1, b: 1 } },
    ]);
  });
});

describe('offline driver: reading arguments', () => {
  it('reads key=value and key: value pairs, coercing by schema type', async () => {
    const chunks = await respond([{ role: 'user', text: 'List records limit: 20, archived=true owner=ada min_score=0.5' }]);
    expect(chunks).toEqual([
      { type: 'invoke', capability: 'records.list', args: { limit: 20, archived: true, owner: 'ada', min_score: 0.5 } },
    ]);
  });

  it('reads key: "quoted value" and key=\'single quoted\' with spaces', async () => {
    const chunks = await respond([{ role: 'user', text: `List records owner: "Ada Lovelace"` }]);
    expect(chunks).toEqual([{ type: 'invoke', capability: 'records.list', args: { owner: 'Ada Lovelace' } }]);
    const single = await respond([{ role: 'user', text: `List records owner='Grace Hopper'` }]);
    expect(single).toEqual([{ type: 'invoke', capability: 'records.list', args: { owner: 'Grace Hopper' } }]);
  });

  it('keeps a string-typed value as written, even when it looks like a number', async () => {
    const chunks = await respond([{ role: 'user', text: 'List records owner=007' }]);
    expect(chunks).toEqual([{ type: 'invoke', capability: 'records.list', args: { owner: '007' } }]);
  });

  it('leaves a value that does not fit its type as text (for invoke to reject with a field error)', async () => {
    const chunks = await respond([{ role: 'user', text: 'List records limit=lots archived=maybe' }]);
    expect(chunks).toEqual([{ type: 'invoke', capability: 'records.list', args: { limit: 'lots', archived: 'maybe' } }]);
  });

  it('ignores keys the capability does not take', async () => {
    const chunks = await respond([{ role: 'user', text: 'math.add a=1 b=2 colour=blue' }]);
    expect(chunks).toEqual([{ type: 'invoke', capability: 'math.add', args: { a: 1, b: 2 } }]);
  });

  it('reads the pairs when the capability name is followed by a colon', async () => {
    expect(await respond([{ role: 'user', text: 'Add: a=1, b=2' }])).toEqual([
      { type: 'invoke', capability: 'math.add', args: { a: 1, b: 2 } },
    ]);
    expect(await respond([{ role: 'user', text: 'math.add: a=3 b=4' }])).toEqual([
      { type: 'invoke', capability: 'math.add', args: { a: 3, b: 4 } },
    ]);
  });

  it('reads a JSON object as the arguments', async () => {
    const chunks = await respond([{ role: 'user', text: 'math.add {"a": 1.5, "b": -2}' }]);
    expect(chunks).toEqual([{ type: 'invoke', capability: 'math.add', args: { a: 1.5, b: -2 } }]);
  });

  it('falls back to key=value pairs when the braces are not JSON', async () => {
    const chunks = await respond([{ role: 'user', text: 'math.add a=1 b=2 {not json}' }]);
    expect(chunks).toEqual([{ type: 'invoke', capability: 'math.add', args: { a: 1, b: 2 } }]);
  });

  it('uses the rest of the sentence for a capability taking one string', async () => {
    expect(await respond([{ role: 'user', text: 'Search notes: black cats in winter' }])).toEqual([
      { type: 'invoke', capability: 'notes.search', args: { query: 'black cats in winter' } },
    ]);
    expect(await respond([{ role: 'user', text: 'search — how tall is Everest?' }])).toEqual([
      { type: 'invoke', capability: 'search', args: { query: 'how tall is Everest?' } },
    ]);
  });

  it('fills the one required string when the other arguments are optional, without a leading "for"', async () => {
    const corpus = createRegistry([
      defineCapability({
        name: 'corpus.search',
        title: 'Search the notes',
        description: 'Searches the notes.',
        input: z.object({ query: z.string(), limit: z.number().int().default(3) }),
        handler: () => textResult('none'),
      }),
    ]).describe();
    const chunks: DriverChunk[] = [];
    const request = { messages: [{ role: 'user' as const, text: 'Search the notes for enrichment batches' }], capabilities: corpus, signal: new AbortController().signal };
    for await (const chunk of createOfflineDriver({ delayMs: 0 }).respond(request)) chunks.push(chunk);
    expect(chunks).toEqual([{ type: 'invoke', capability: 'corpus.search', args: { query: 'enrichment batches' } }]);
  });

  it('prefers an explicit pair over the rest of the sentence', async () => {
    expect(await respond([{ role: 'user', text: 'Search notes for me, query="tax"' }])).toEqual([
      { type: 'invoke', capability: 'notes.search', args: { query: 'tax' } },
    ]);
  });

  it('asks for a required argument in words when nothing follows the name, and runs nothing (issue 42)', async () => {
    const search = await respond([{ role: 'user', text: 'Search notes' }]);
    expect(search.every((c) => c.type === 'text')).toBe(true);
    expect(said(search)).toBe('What should I search notes for?');
    const add = await respond([{ role: 'user', text: 'add' }]);
    expect(add.every((c) => c.type === 'text')).toBe(true);
    expect(said(add)).toBe('What should A be?');
  });
});

describe('offline driver: answering in words', () => {
  it('summarises a tool result', async () => {
    const chunks = await respond([
      { role: 'user', text: 'add a=1 b=2' },
      { role: 'tool', capability: 'math.add', title: 'Add', args: { a: 1, b: 2 }, result: textResult('3') },
    ]);
    expect(chunks.every((c) => c.type === 'text')).toBe(true);
    expect(chunks.length).toBeGreaterThan(1);
    expect(chunks.map((c) => (c.type === 'text' ? c.text : '')).join('')).toBe('Add: 3.');
  });

  it('summarises a result with no text', async () => {
    const chunks = await respond([
      { role: 'tool', capability: 'math.add', title: 'Add', args: {}, result: { content: [] } },
    ]);
    expect(chunks.map((c) => (c.type === 'text' ? c.text : '')).join('')).toBe('Add finished.');
  });

  it('says when a capability failed, with its message', async () => {
    const chunks = await respond([
      { role: 'tool', capability: 'math.add', title: 'Add', args: {}, result: errorResult('a: expected number') },
    ]);
    expect(chunks.map((c) => (c.type === 'text' ? c.text : '')).join('')).toBe('Add did not finish: a: expected number.');
  });

  it('says what it can do as one line of titles, never the descriptions', async () => {
    const chunks = await respond([{ role: 'user', text: 'what can you do?' }]);
    const text = chunks.map((c) => (c.type === 'text' ? c.text : '')).join('');
    expect(text).toBe('What I can do here: Add, Search notes, List records, and Search. Ask in your own words.');
  });

  it('meets what it cannot place with one short sentence, and never names itself in a reply', async () => {
    for (const text of ['hello there', 'asdf qwerty', '🙂', 'What is the capital of Peru?']) {
      const said = (await respond([{ role: 'user', text }])).map((c) => (c.type === 'text' ? c.text : '')).join('');
      expect(said.length).toBeLessThan(120);
      expect(said).not.toMatch(/offline model|Adds two numbers/);
    }
  });

  it('says when there is nothing it can do', async () => {
    const chunks: DriverChunk[] = [];
    const request = { messages: [{ role: 'user' as const, text: 'hi' }], capabilities: [], signal: new AbortController().signal };
    for await (const chunk of createOfflineDriver({ delayMs: 0 }).respond(request)) chunks.push(chunk);
    expect(chunks.map((c) => (c.type === 'text' ? c.text : '')).join('')).toBe('Hello! Ask “what can you do?” to see what I can run.');
  });

  it('says nothing when the last message is its own or there are none', async () => {
    expect(await respond([{ role: 'assistant', text: 'Hello' }])).toEqual([]);
    expect(await respond([])).toEqual([]);
  });

  it('stops streaming words once the signal is aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    expect(await respond([{ role: 'user', text: 'hello there' }], controller.signal)).toEqual([]);
  });

  it('names itself as the offline model', () => {
    expect(createOfflineDriver().info).toEqual({ id: 'offline', label: 'Offline model' });
  });
});

async function respondTo(request: Partial<ModelRequest> & { messages: ModelMessage[] }): Promise<DriverChunk[]> {
  const chunks: DriverChunk[] = [];
  const full: ModelRequest = { capabilities, signal: new AbortController().signal, ...request };
  for await (const chunk of createOfflineDriver({ delayMs: 0 }).respond(full)) chunks.push(chunk);
  return chunks;
}
const said = (chunks: DriverChunk[]) => chunks.map((c) => (c.type === 'text' ? c.text : '')).join('');

describe('offline driver: one intent per turn', () => {
  it('answer: one sentence saying what it cannot do and the two closest things it can (issue 42)', async () => {
    const chunks = await respondTo({
      messages: [{ role: 'user', text: 'tell me a story' }],
      suggestions: [{ capability: 'records.list', hint: 'Show the archived records' }],
    });
    expect(chunks.every((c) => c.type === 'text')).toBe(true);
    expect(said(chunks)).toBe("I can't tell you a story here; I can show the archived records or add.");
  });

  it('invoke: runs what the user named, in both alignment modes, and writes nothing before it', async () => {
    for (const alignment of ['strict', 'loose'] as const) {
      expect(await respondTo({ messages: [{ role: 'user', text: 'List records limit=2' }], alignment })).toEqual([
        { type: 'invoke', capability: 'records.list', args: { limit: 2 } },
      ]);
    }
  });

  it('propose under strict: a single clear match the user only described', async () => {
    const chunks = await respondTo({ messages: [{ role: 'user', text: 'I need the records listed, limit=5' }], alignment: 'strict' });
    expect(chunks).toEqual([
      { type: 'propose', capability: 'records.list', args: { limit: 5 }, reason: 'List records matches what you asked for.' },
    ]);
  });

  it('invoke under loose: the same single clear match runs', async () => {
    const chunks = await respondTo({ messages: [{ role: 'user', text: 'I need the records listed, limit=5' }], alignment: 'loose' });
    expect(chunks).toEqual([{ type: 'invoke', capability: 'records.list', args: { limit: 5 } }]);
  });

  it('propose under loose too when the match is not clear, naming the other candidate', async () => {
    const exports = createRegistry([
      defineCapability({ name: 'crm.export', title: 'Export to CRM', description: 'Exports records to the CRM.', kind: 'mutate', input: z.object({}), handler: () => textResult('ok') }),
      defineCapability({ name: 'sheet.export', title: 'Export to sheet', description: 'Exports records to a sheet.', kind: 'mutate', input: z.object({}), handler: () => textResult('ok') }),
    ]).describe();
    const chunks = await respondTo({ messages: [{ role: 'user', text: 'export the records' }], alignment: 'loose', capabilities: exports });
    expect(chunks).toHaveLength(1);
    expect(chunks[0]).toMatchObject({ type: 'propose', reason: expect.stringMatching(/^Export to (CRM|sheet) fits best; Export to (CRM|sheet) could also fit\.$/) });
  });

  it('follows a suggestion the user repeats, with its prefill', async () => {
    const chunks = await respondTo({
      messages: [{ role: 'user', text: 'yes, show the archived records' }],
      alignment: 'loose',
      suggestions: [{ capability: 'records.list', hint: 'Show the archived records', prefill: { archived: true } }],
    });
    expect(chunks).toEqual([{ type: 'invoke', capability: 'records.list', args: { archived: true } }]);
  });
});

describe('offline driver: the intent router', () => {
  it('standing: hands the request to the host with its cadence', async () => {
    const text = 'List records every week';
    expect(await respondTo({ messages: [{ role: 'user', text }] })).toEqual([{ type: 'standing', text, cadence: 'every week' }]);
  });

  it('ambiguous: asks the one question, once', async () => {
    const messages: ModelMessage[] = [{ role: 'user', text: 'find my records and track them' }];
    expect(await respondTo({ messages })).toEqual([{ type: 'ask', question: ROUTE_QUESTION, options: ROUTE_OPTIONS, purpose: 'route' }]);
    const again = await respondTo({ messages, asked: true, alignment: 'loose' });
    expect(again[0]?.type).not.toBe('ask');
  });

  it('one-shot: acts on the request', async () => {
    expect(await respondTo({ messages: [{ role: 'user', text: 'compare: List records archived=true' }] })).toEqual([
      { type: 'invoke', capability: 'records.list', args: { archived: true } },
    ]);
  });

  it('acts on the answer to its question: keep watching hands off, once acts now', async () => {
    const asked: ModelMessage[] = [
      { role: 'user', text: 'List records and track them' },
      { role: 'assistant', text: '', calls: [{ id: 'q1', capability: CONTROL.ask, args: {} }] },
    ];
    const answer = (value: string): ModelMessage => ({ role: 'tool', call_id: 'q1', capability: CONTROL.ask, title: 'Question', args: {}, result: textResult(value) });
    expect(await respondTo({ messages: [...asked, answer('keep watching')], route: { kind: 'standing', cues: [] }, asked: true })).toEqual([
      { type: 'standing', text: 'List records and track them' },
    ]);
    expect(await respondTo({ messages: [...asked, answer('once')], route: { kind: 'one_shot', cues: [] }, asked: true })).toEqual([
      { type: 'invoke', capability: 'records.list', args: {} },
    ]);
  });

  it('confirms a hand-off in words', async () => {
    const chunks = await respondTo({
      messages: [{ role: 'tool', call_id: 's1', capability: CONTROL.standing, title: 'Standing request', args: { request: 'x', cadence: 'daily' }, result: textResult('ok') }],
    });
    expect(said(chunks)).toBe('I have handed this to the workspace to keep watching (daily); it will follow up there.');
  });
});

describe('offline driver: quality violations', () => {
  const violation = {
    invocation_id: 'inv_1', capability: 'records.import_csv', title: 'Import CSV', postcondition: 'row_count_change',
    expected: 'records +3', actual: 'records +0', message: 'Import CSV should have added 3 rows to records, but the count went from 5 to 5.',
  };

  it('acknowledges last turn\'s violation before anything else, then goes on', async () => {
    const chunks = await respondTo({ messages: [{ role: 'user', text: 'List records' }], violations: [violation] });
    expect(said(chunks)).toBe(
      'Before we go on: the last run finished but a check did not hold. Import CSV: Import CSV should have added 3 rows to records, but the count went from 5 to 5. (expected records +3, got records +0.) I can run it again with corrected arguments if you like.',
    );
    expect(chunks.at(-1)).toEqual({ type: 'invoke', capability: 'records.list', args: {} });
  });

  it('reports a violation that came with a result', async () => {
    const chunks = await respondTo({
      messages: [{ role: 'tool', capability: 'records.import_csv', title: 'Import CSV', args: {}, result: textResult('Imported.'), violations: [violation] }],
    });
    expect(said(chunks)).toBe(
      'Import CSV: Imported. But a check did not hold: row count change (expected records +3, got records +0).',
    );
  });

  it('says plainly when the user declined', async () => {
    const declined = { ...errorResult('The user denied Add; it was not run.'), _meta: { [DECLINED_META]: 'denied' } };
    const chunks = await respondTo({ messages: [{ role: 'tool', call_id: 'c', capability: 'math.add', title: 'Add', args: {}, result: declined }] });
    expect(said(chunks)).toBe('Understood: I did not run Add.');
  });
});
