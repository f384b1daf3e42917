import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineCapability } from './capability';
import { errorResult, textResult } from './envelope';
import type { DriverChunk, ModelMessage } from './model';
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
    expect(chunks.map((c) => (c.type === 'text' ? c.text : '')).join('')).toContain('I can do:');
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

  it('prefers an explicit pair over the rest of the sentence', async () => {
    expect(await respond([{ role: 'user', text: 'Search notes for me, query="tax"' }])).toEqual([
      { type: 'invoke', capability: 'notes.search', args: { query: 'tax' } },
    ]);
  });

  it('sends no arguments when nothing follows the name', async () => {
    expect(await respond([{ role: 'user', text: 'Search notes' }])).toEqual([
      { type: 'invoke', capability: 'notes.search', args: {} },
    ]);
    expect(await respond([{ role: 'user', text: 'add' }])).toEqual([{ type: 'invoke', capability: 'math.add', args: {} }]);
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
    expect(chunks.map((c) => (c.type === 'text' ? c.text : '')).join('')).toBe('Add is done. 3');
  });

  it('summarises a result with no text', async () => {
    const chunks = await respond([
      { role: 'tool', capability: 'math.add', title: 'Add', args: {}, result: { content: [] } },
    ]);
    expect(chunks.map((c) => (c.type === 'text' ? c.text : '')).join('')).toBe('Add is done.');
  });

  it('says when a capability failed, with its message', async () => {
    const chunks = await respond([
      { role: 'tool', capability: 'math.add', title: 'Add', args: {}, result: errorResult('a: expected number') },
    ]);
    expect(chunks.map((c) => (c.type === 'text' ? c.text : '')).join('')).toBe("I couldn't finish Add. a: expected number");
  });

  it('lists what it can do when nothing is named', async () => {
    const chunks = await respond([{ role: 'user', text: 'hello there' }]);
    const text = chunks.map((c) => (c.type === 'text' ? c.text : '')).join('');
    expect(text).toBe(
      'I am the offline model: name what you want run and I will run it. I can do: ' +
        'Add (Adds two numbers); Search notes (Searches your notes); List records (Lists records); Search (Searches the web).',
    );
  });

  it('says when there is nothing it can do', async () => {
    const chunks: DriverChunk[] = [];
    const request = { messages: [{ role: 'user' as const, text: 'hi' }], capabilities: [], signal: new AbortController().signal };
    for await (const chunk of createOfflineDriver({ delayMs: 0 }).respond(request)) chunks.push(chunk);
    expect(chunks.map((c) => (c.type === 'text' ? c.text : '')).join('')).toBe(
      'I am the offline model, and this workspace has no capabilities yet.',
    );
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
