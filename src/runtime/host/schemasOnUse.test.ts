import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import * as zm from 'zod/mini';
import { defineCapability } from '../capability';
import type { ThreadEvent } from '../events';
import { textResult } from '../results';

// What a page's own workspace loads on first use (issue 41): zod's JSON Schema converter, the turn
// parts, the decisions, the host's extras (elicitations, MCP App access, ratings). Each test starts from fresh
// modules, as a page does, and notes which of those modules were imported.

const add = defineCapability({
  name: 'math.add',
  title: 'Add numbers',
  description: 'Adds a and b.',
  examples: ['add 2 and 3'],
  input: z.object({ a: z.number().describe('First'), b: z.number() }),
  output: z.object({ sum: z.number() }),
  handler: ({ a, b }) => textResult(`The sum is ${a + b}.`, { sum: a + b }),
});

const remove = defineCapability({
  name: 'records.remove',
  title: 'Remove record',
  description: 'Removes a record.',
  kind: 'mutate',
  actor: { id: 'clerk', name: 'Clerk', glyph: 'C' },
  requires_user_confirmation: true,
  input: zm.object({ id: zm.string() }),
  handler: () => textResult('removed'),
});

let imported: string[] = [];

beforeEach(() => {
  vi.resetModules();
  imported = [];
  for (const part of ['./turnParts', './decisions', './hostExtras']) {
    vi.doMock(part, async (original) => {
      // Two imports in flight at once may each run this: the module is still evaluated once.
      if (!imported.includes(part)) imported.push(part);
      return original();
    });
  }
});

afterEach(() => {
  vi.doUnmock('./turnParts');
  vi.doUnmock('./decisions');
  vi.doUnmock('./hostExtras');
});

async function fresh() {
  const { createLocalWorkspace } = await import('../../workspace/localWorkspace');
  const schemas = await import('./schemasOnUse');
  const { createOfflineDriver } = await import('../offlineDriver');
  return { createLocalWorkspace, schemas, driver: () => createOfflineDriver({ delayMs: 0 }) };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

describe("a page's own workspace, on first use", () => {
  it('shows an empty thread without the JSON Schema converter, the turn parts, the decisions or the extras; a schema read before them says what to wait for', async () => {
    const { createLocalWorkspace, schemas, driver } = await fresh();
    const ws = createLocalWorkspace({ capabilities: [add, remove], driver: driver() });
    const events: ThreadEvent[] = [];
    ws.subscribe('t1', (e) => events.push(e));
    await settle();
    // Names, titles and kinds read at once (the slash list, a suggestion's title, an approval's colour).
    expect(ws.manifest.capabilities.map((c) => [c.name, c.title, c.kind])).toEqual([['math.add', 'Add numbers', 'read'], ['records.remove', 'Remove record', 'mutate']]);
    expect(events).toEqual([]);
    expect(imported).toEqual([]);
    expect(schemas.jsonSchemasLoaded()).toBe(false);
    expect(() => ws.manifest.capabilities[0]!.inputSchema).toThrow(schemas.SCHEMAS_NOT_LOADED);
    // Whatever walks the manifest's keys meanwhile (a clone, JSON, Storybook's args) passes the schemas by.
    expect(Object.keys(ws.manifest.capabilities[0]!)).not.toContain('inputSchema');
    expect(() => structuredClone(ws.manifest)).not.toThrow();
    expect(JSON.parse(JSON.stringify(ws.manifest.capabilities[0]))).toMatchObject({ name: 'math.add', title: 'Add numbers' });
    // Once the converter is in, every description made before has its schemas, as plain keys.
    await ws.loadSchemas();
    expect(Object.keys(ws.manifest.capabilities[1]!)).toContain('inputSchema');
    expect(JSON.parse(JSON.stringify(ws.manifest.capabilities[0]))).toMatchObject({ inputSchema: { type: 'object', required: ['a', 'b'] } });
  });

  it('loads the converter with the first turn: the model and the cards read the schemas from then on', async () => {
    const { createLocalWorkspace, schemas, driver } = await fresh();
    const ws = createLocalWorkspace({ capabilities: [add], driver: driver() });
    const events: ThreadEvent[] = [];
    ws.subscribe('t1', (e) => events.push(e));
    await ws.send({ threadId: 't1', text: 'add numbers a=2 b=3' });
    expect(schemas.jsonSchemasLoaded()).toBe(true);
    expect(imported).toEqual(['./turnParts']);
    expect(events.find((e) => e.type === 'capability.done')).toMatchObject({ result: { structuredContent: { sum: 5 } } });
    expect(ws.manifest.capabilities[0]!.inputSchema).toMatchObject({ type: 'object', required: ['a', 'b'], properties: { a: { description: 'First' } } });
  });

  it('describes each capability as createRegistry does, key for key, once the converter is in', async () => {
    const { schemas } = await fresh();
    const { createRegistry } = await import('../registry');
    const lazy = schemas.createRegistryOnUse([remove, add]);
    const before = lazy.describe();
    await schemas.loadJsonSchemas();
    expect(JSON.stringify(lazy.describe())).toBe(JSON.stringify(createRegistry([add, remove]).describe()));
    // Converted once, then kept as a plain value.
    expect(before[0]!.inputSchema).toBe(lazy.describe()[0]!.inputSchema);
    expect(Object.getOwnPropertyDescriptor(before[0], 'inputSchema')).toMatchObject({ writable: true, enumerable: true });
  });

  it('hands on a stored history with calls only once the converter is in, each event once, in order', async () => {
    const { createLocalWorkspace, schemas, driver } = await fresh();
    const { createMemoryEventStore } = await import('../stores/eventStore');
    const { createThreadHost } = await import('./threadHost');
    const store = createMemoryEventStore();
    // Written earlier (a server with the same store, say): a call and its reply.
    const writer = createThreadHost({ capabilities: [add], events: store, driver: driver() });
    await writer.send({ user: 'me', space: 'default' }, { threadId: 't1', text: 'add numbers a=2 b=3' });
    expect(schemas.jsonSchemasLoaded()).toBe(false);

    const ws = createLocalWorkspace({ capabilities: [add], events: store, driver: driver() });
    const seen: { type: string; schema: unknown }[] = [];
    ws.subscribe('t1', (e) => seen.push({ type: e.type, schema: e.type === 'capability.started' ? ws.manifest.capabilities[0]!.inputSchema : undefined }));
    expect(seen).toEqual([]);
    await vi.waitFor(() => expect(seen.length).toBeGreaterThan(0), { timeout: 10_000 });
    const stored = await store.read({ user: 'me', space: 'default', id: 't1' });
    expect(seen.map((e) => e.type)).toEqual(stored.map((e) => e.type));
    expect(seen.find((e) => e.type === 'capability.started')?.schema).toMatchObject({ type: 'object' });
  });

  it('loads the decisions with the first chip call', async () => {
    const { createLocalWorkspace, schemas, driver } = await fresh();
    const ws = createLocalWorkspace({ capabilities: [add], driver: driver() });
    const result = await ws.invoke({ threadId: 't1', capability: 'math.add', args: { a: 1, b: 2 } });
    expect(result.structuredContent).toEqual({ sum: 3 });
    expect(imported.sort()).toEqual(['./decisions', './turnParts']);
    expect(schemas.jsonSchemasLoaded()).toBe(true);
  });

  it('loads the extras on first use: a rating, an MCP App view', async () => {
    const { createLocalWorkspace, driver } = await fresh();
    const ws = createLocalWorkspace({ capabilities: [add], driver: driver() });
    const events: ThreadEvent[] = [];
    ws.subscribe('t1', (e) => events.push(e));
    await ws.send({ threadId: 't1', text: 'hello' });
    expect(imported).toEqual(['./turnParts']);
    const reply = events.find((e) => e.type === 'message.created' && e.role === 'assistant') as Extract<ThreadEvent, { type: 'message.created' }>;
    await ws.feedback!({ threadId: 't1', messageId: reply.message_id, rating: 'good' });
    expect(imported).toEqual(['./turnParts', './hostExtras']);
    expect(events.at(-1)).toMatchObject({ type: 'message.feedback', rating: 'good' });
    await expect(ws.readApp!({ threadId: 't1', invocationId: 'inv_none' })).rejects.toThrow('This thread has no invocation "inv_none".');
  });
});
