import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { CapabilityDefinitionError, defineCapability, type CapabilityDescriptor } from './capability';
import { textResult } from './results';
import { createRegistry } from './registry';

const add = defineCapability({
  name: 'math.add',
  title: 'Add',
  description: 'Adds two numbers.',
  input: z.object({ a: z.number(), b: z.number() }),
  output: z.object({ sum: z.number() }),
  handler: ({ a, b }) => textResult(String(a + b), { sum: a + b }),
});

const importCsv = defineCapability({
  name: 'records.import_csv',
  title: 'Import CSV',
  description: 'Imports rows from a CSV file.',
  kind: 'mutate',
  input: z.object({ file: z.string() }),
  actor: { id: 'importer', name: 'Importer', glyph: 'I' },
  requires_user_confirmation: true,
  handler: () => textResult('imported'),
});

const list = defineCapability({
  name: 'records.list',
  title: 'List records',
  description: 'Lists records.',
  input: z.object({ limit: z.number().int().optional() }),
  handler: () => textResult('none'),
});

describe('createRegistry', () => {
  it('lists capabilities sorted by name whatever the registration order', () => {
    const one = createRegistry([list, add, importCsv]);
    const two = createRegistry([importCsv, list, add]);
    const three = createRegistry();
    three.register(add);
    three.register(list);
    three.register(importCsv);
    const names = ['math.add', 'records.import_csv', 'records.list'];
    expect(one.list().map((d) => d.name)).toEqual(names);
    expect(two.list().map((d) => d.name)).toEqual(names);
    expect(three.list().map((d) => d.name)).toEqual(names);
    expect(one.describe()).toEqual(two.describe());
  });

  it('sorts by code point, so upper case comes before lower case', () => {
    const upper = defineCapability({ name: 'Zed', title: 'Zed', description: 'Z.', input: z.object({}), handler: () => textResult('') });
    const lower = defineCapability({ name: 'alpha', title: 'Alpha', description: 'A.', input: z.object({}), handler: () => textResult('') });
    expect(createRegistry([lower, upper]).list().map((d) => d.name)).toEqual(['Zed', 'alpha']);
  });

  it('includes a capability registered after the list was first read', () => {
    const registry = createRegistry([list]);
    expect(registry.list().map((d) => d.name)).toEqual(['records.list']);
    expect(registry.describe().map((d) => d.name)).toEqual(['records.list']);
    registry.register(add);
    expect(registry.list().map((d) => d.name)).toEqual(['math.add', 'records.list']);
    expect(registry.describe().map((d) => d.name)).toEqual(['math.add', 'records.list']);
  });

  it('finds a capability by name and returns undefined for an unknown one', () => {
    const registry = createRegistry([add]);
    expect(registry.get('math.add')).toBe(add);
    expect(registry.get('math.subtract')).toBeUndefined();
  });

  it('refuses a second capability with the same name, naming it', () => {
    const registry = createRegistry([add]);
    const again = defineCapability({
      name: 'math.add', title: 'Add again', description: 'Adds again.', input: z.object({}), handler: () => textResult(''),
    });
    expect(() => registry.register(again)).toThrow(CapabilityDefinitionError);
    expect(() => registry.register(again)).toThrow('Capability "math.add" is already registered');
    // The first one stays.
    expect(registry.get('math.add')).toBe(add);
    expect(registry.list()).toHaveLength(1);
  });

  it('refuses duplicates passed to createRegistry', () => {
    expect(() => createRegistry([add, add])).toThrow(/"math\.add" is already registered/);
  });

  it.each([
    ['an empty name', ''],
    ['a space', 'math add'],
    ['a slash', 'math/add'],
    ['a non-ASCII letter', 'maths.addé'],
    ['129 characters', 'a'.repeat(129)],
  ])('refuses a name with %s', (_label, name) => {
    const registry = createRegistry();
    const bad: CapabilityDescriptor = { ...add, name };
    expect(() => registry.register(bad)).toThrow(CapabilityDefinitionError);
    expect(() => registry.register(bad)).toThrow(`Capability name ${JSON.stringify(name)} is invalid`);
    expect(registry.list()).toEqual([]);
  });

  it('accepts a name of exactly 128 allowed characters', () => {
    const registry = createRegistry();
    const name = 'a'.repeat(126) + '_-';
    registry.register({ ...add, name });
    expect(registry.get(name)?.title).toBe('Add');
  });

  it('refuses a descriptor with no title or description', () => {
    const registry = createRegistry();
    expect(() => registry.register({ ...add, title: '  ' })).toThrow('Capability "math.add" needs a title.');
    expect(() => registry.register({ ...add, description: '' })).toThrow('Capability "math.add" needs a description');
  });

  it('refuses a descriptor whose input is not a zod schema', () => {
    const registry = createRegistry();
    const bad = { ...add, input: { type: 'object' } } as unknown as CapabilityDescriptor;
    expect(() => registry.register(bad)).toThrow('input must be a zod schema');
  });

  it('describes each capability with JSON Schema for input and output', () => {
    const registry = createRegistry([importCsv, add, list]);
    const [addInfo, importInfo, listInfo] = registry.describe();
    expect(addInfo).toMatchObject({
      name: 'math.add',
      title: 'Add',
      description: 'Adds two numbers.',
      kind: 'read',
      annotations: { readOnlyHint: true },
      inputSchema: {
        type: 'object',
        properties: { a: { type: 'number' }, b: { type: 'number' } },
        required: ['a', 'b'],
      },
      outputSchema: { type: 'object', properties: { sum: { type: 'number' } }, required: ['sum'] },
    });
    expect(importInfo).toMatchObject({
      name: 'records.import_csv',
      kind: 'mutate',
      annotations: { readOnlyHint: false },
      actor: { id: 'importer', name: 'Importer', glyph: 'I' },
      requires_user_confirmation: true,
      inputSchema: { type: 'object', properties: { file: { type: 'string' } }, required: ['file'] },
    });
    expect(importInfo).not.toHaveProperty('outputSchema');
    expect(listInfo).toMatchObject({ inputSchema: { type: 'object', properties: { limit: { type: 'integer' } } } });
    expect(listInfo?.inputSchema).not.toHaveProperty('required');
    expect(listInfo).not.toHaveProperty('actor');
    expect(listInfo).not.toHaveProperty('requires_user_confirmation');
  });

  it('describes capabilities as plain JSON (no zod, no handler)', () => {
    const info = createRegistry([add, importCsv]).describe();
    expect(JSON.parse(JSON.stringify(info))).toEqual(info);
    expect(info[0]).not.toHaveProperty('handler');
    expect(info[0]).not.toHaveProperty('source');
    expect(info[0]).not.toHaveProperty('input');
  });
});

describe('defineCapability', () => {
  it('defaults to a read with readOnlyHint true', () => {
    const ping = defineCapability({ name: 'ping', title: 'Ping', description: 'Replies pong.', input: z.object({}), handler: () => textResult('pong') });
    expect(ping.kind).toBe('read');
    expect(ping.annotations).toEqual({ readOnlyHint: true });
    expect(ping.source.type).toBe('ts');
  });

  it('a mutate defaults to readOnlyHint false', () => {
    expect(importCsv.kind).toBe('mutate');
    expect(importCsv.annotations.readOnlyHint).toBe(false);
  });

  it('keeps annotations it is given alongside the default', () => {
    const remove = defineCapability({
      name: 'records.delete', title: 'Delete records', description: 'Deletes records.', kind: 'mutate',
      input: z.object({}), annotations: { destructiveHint: true, idempotentHint: true },
      handler: () => textResult('deleted'),
    });
    expect(remove.annotations).toEqual({ readOnlyHint: false, destructiveHint: true, idempotentHint: true });
  });

  it('keeps the handler it is given as the source', async () => {
    const result = await add.source.handler({ a: 2, b: 3 }, {} as never);
    expect(result).toEqual(textResult('5', { sum: 5 }));
  });

  it('refuses a read whose annotations say it is not read-only', () => {
    expect(() =>
      defineCapability({
        name: 'sneaky', title: 'Sneaky', description: 'Claims to read.', input: z.object({}),
        annotations: { readOnlyHint: false }, handler: () => textResult(''),
      }),
    ).toThrow('Capability "sneaky" is a read but its annotations say readOnlyHint: false.');
  });

  it('refuses an invalid name at definition time', () => {
    expect(() =>
      defineCapability({ name: 'has space', title: 'X', description: 'X.', input: z.object({}), handler: () => textResult('') }),
    ).toThrow(CapabilityDefinitionError);
  });

  it('refuses an unknown kind', () => {
    expect(() =>
      defineCapability({
        name: 'odd', title: 'Odd', description: 'Odd.', kind: 'write' as 'read', input: z.object({}), handler: () => textResult(''),
      }),
    ).toThrow('Capability "odd": kind must be "read" or "mutate".');
  });
});

describe('createRegistry: sources', () => {
  const base = { title: 'Run', description: 'Runs.', kind: 'mutate' as const, input: z.object({}), annotations: { readOnlyHint: false } };

  it('refuses a script descriptor without an expected_effect, however it was built', () => {
    const script: CapabilityDescriptor = { ...base, name: 'ops.run', source: { type: 'script', command: ['true'], cwd: '.', timeout_ms: 1000, handler: () => textResult('') } };
    expect(() => createRegistry([script])).toThrow(/Script capability "ops.run" has no expected_effect/);
    expect(() => createRegistry([{ ...script, expected_effect: [{ type: 'exit_code', equals: 0 }] }])).not.toThrow();
  });

  it('refuses an unknown source type and a source without its handler or body', () => {
    expect(() => createRegistry([{ ...base, name: 'x', source: { type: 'python' } as never }])).toThrow('Capability "x": source.type must be ts, skill, mcp or script.');
    expect(() => createRegistry([{ ...base, name: 'y', source: { type: 'mcp', server: 's', tool: 't' } as never }])).toThrow('Capability "y": its mcp source has no handler function.');
    expect(() => createRegistry([{ ...base, kind: 'read', annotations: {}, name: 'z', source: { type: 'skill', name: 'z' } as never }])).toThrow('Skill capability "z" has no body.');
  });
});

describe('capability examples', () => {
  const base = { name: 'records.import_csv', title: 'Import CSV', description: 'Imports a CSV file.', input: z.object({ file: z.string() }), handler: () => textResult('') };

  it('carries how users ask for it into the description the doors and the offline model read', () => {
    const registry = createRegistry([defineCapability({ ...base, examples: ['import customers.csv', 'bring in the spreadsheet'] })]);
    expect(registry.describe()[0]!.examples).toEqual(['import customers.csv', 'bring in the spreadsheet']);
    expect(createRegistry([defineCapability(base)]).describe()[0]).not.toHaveProperty('examples');
  });

  it('refuses examples that are not a list of phrasings, saying how to fix it', () => {
    expect(() => defineCapability({ ...base, examples: ['import customers.csv', '  '] })).toThrow(CapabilityDefinitionError);
    expect(() => defineCapability({ ...base, examples: 'import' as unknown as string[] })).toThrow(/examples must be a list of non-empty phrasings/);
  });
});
