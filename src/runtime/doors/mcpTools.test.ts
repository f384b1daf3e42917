import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineCapability } from '../capability';
import { type CapabilityResult } from '../envelope';
import { textResult } from '../results';
import { createRegistry } from '../registry';
import { boundResult, exposedOnMcp, mcpTools, publishedSchema, surelyWithin } from './mcpTools';

const registry = createRegistry([
  defineCapability({ name: 'a.read', title: 'Read A', description: 'Reads A.', input: z.object({ q: z.string() }), output: z.object({ n: z.number() }), handler: () => textResult('', { n: 1 }) }),
  defineCapability({ name: 'b.write', title: 'Write B', description: 'Writes B.', kind: 'mutate', annotations: { destructiveHint: false }, input: z.object({}), handler: () => textResult('') }),
]);

describe('mcpTools', () => {
  it('lists reads only, with title, description, schemas and annotations from the registry', () => {
    const tools = mcpTools(registry.describe());
    expect(tools).toEqual([
      {
        name: 'a.read',
        title: 'Read A',
        description: 'Reads A.',
        inputSchema: registry.describe()[0]!.inputSchema,
        outputSchema: registry.describe()[0]!.outputSchema!,
        annotations: { readOnlyHint: true },
      },
    ]);
    // The dialect marker is kept on the MCP door (chat and REST publish the schema without it).
    expect(tools[0]!.inputSchema).toHaveProperty('$schema', 'https://json-schema.org/draft/2020-12/schema');
    expect(publishedSchema(tools[0]!.inputSchema)).not.toHaveProperty('$schema');
    expect(tools[0]!.inputSchema).toMatchObject({ type: 'object', properties: { q: { type: 'string' } }, required: ['q'] });
  });

  it('adds a mutate only when the host names it', () => {
    expect(mcpTools(registry.describe(), ['b.write']).map((t) => [t.name, t.annotations])).toEqual([
      ['a.read', { readOnlyHint: true }],
      ['b.write', { readOnlyHint: false, destructiveHint: false }],
    ]);
    expect(exposedOnMcp({ name: 'b.write', kind: 'mutate' })).toBe(false);
    expect(exposedOnMcp({ name: 'b.write', kind: 'mutate' }, ['b.write'])).toBe(true);
  });
});

describe('boundResult', () => {
  it('bounds the JSON length from above: never sure of a value whose JSON is longer than the budget', () => {
    const samples: unknown[] = [
      textResult('short', { n: 1 }),
      { content: [{ type: 'text', text: '"\\\u0001\n\u2028'.repeat(50) }], structuredContent: { when: new Date(0), big: -1.2345678901234567e-308, list: [null, true, 'é'] } },
      { nested: { a: { b: { c: ['x'.repeat(100)] } } }, n: Number.MAX_VALUE },
      { '"key\u0000"': 'v', skipped: undefined },
    ];
    for (const value of samples) {
      const length = JSON.stringify(value).length;
      for (const budget of [0, 10, length - 1, length, length * 6 + 200, 1_000_000]) {
        if (surelyWithin(value, budget)) expect(length).toBeLessThanOrEqual(budget);
      }
    }
    // Sure when the budget is ample, and never of a value it cannot bound (a Date's toJSON).
    expect(surelyWithin(textResult('short', { n: 1 }), 1_000)).toBe(true);
    expect(surelyWithin({ when: new Date(0) }, 1_000)).toBe(false);
  });

  it('leaves a result within the bound untouched', () => {
    const result = textResult('short', { n: 1 });
    expect(boundResult(result, 1_000)).toBe(result);
  });

  it('cuts long text blocks and says how much and where the rest is', () => {
    const result: CapabilityResult = { content: [{ type: 'text', text: 'a'.repeat(3_000) }, { type: 'text', text: 'b'.repeat(3_000) }], structuredContent: { n: 1 } };
    const bounded = boundResult(result, 2_000, 'inv_9');
    expect(JSON.stringify(bounded).length).toBeLessThanOrEqual(2_000);
    expect(bounded.structuredContent).toEqual({ n: 1 });
    const texts = bounded.content.map((b) => (b.type === 'text' ? b.text : ''));
    expect(texts[0]).toMatch(/^a+\n… \[\d+ characters cut to stay within 2000\. The whole result is at GET \/v1\/jobs\/inv_9\.\]$/);
    expect(texts[1]).toMatch(/^\n… \[3000 characters cut/);
  });

  it('turns a result whose structured part alone is too big into an error that says so', () => {
    const bounded = boundResult({ content: [], structuredContent: { rows: 'x'.repeat(5_000) } }, 1_000, 'inv_2');
    expect(bounded.isError).toBe(true);
    expect(bounded.content[0]).toMatchObject({ type: 'text', text: expect.stringMatching(/^The result is \d+ characters, more than this door's limit of 1000\. The whole result is at GET \/v1\/jobs\/inv_2\./) });
  });
});
