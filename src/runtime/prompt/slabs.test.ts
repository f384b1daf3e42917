import { describe, expect, it } from 'vitest';
import type { CapabilityInfo } from '../registry';
import { canonicalJson, capabilitySchemas, CONTROL_TOOLS, skillsSlab, spineSlab, turnContextSlab } from './slabs';

describe('prompt slabs', () => {
  it('[1] the spine states the three intents and the alignment mode, and has no clock or id in it', () => {
    const strict = spineSlab('strict');
    expect(strict).toContain('- answer:');
    expect(strict).toContain('- propose:');
    expect(strict).toContain('- invoke:');
    expect(strict).toContain('Alignment is strict');
    expect(spineSlab('loose')).toContain('Alignment is loose');
    expect(spineSlab('strict')).toBe(strict);
    expect(strict).not.toMatch(/\d{4}-\d{2}-\d{2}|[0-9a-f]{8}-[0-9a-f]{4}/);
  });

  it('[2] capability schemas keep the given order and give the same bytes for the same schema in any key order', () => {
    const a: CapabilityInfo = {
      name: 'b.second', title: 'Second', description: 'Two.', kind: 'mutate', annotations: {},
      inputSchema: { $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'object', properties: { z: { type: 'string' }, a: { type: 'number' } }, required: ['a'] },
    };
    const b: CapabilityInfo = {
      ...a,
      inputSchema: { required: ['a'], properties: { a: { type: 'number' }, z: { type: 'string' } }, type: 'object' },
    };
    const first: CapabilityInfo = { ...a, name: 'a.first', title: 'First', kind: 'read' };
    const one = capabilitySchemas([a, first]);
    expect(one.map((t) => t.name)).toEqual(['b.second', 'a.first']);
    expect(JSON.stringify(capabilitySchemas([a]))).toBe(JSON.stringify(capabilitySchemas([b])));
    expect(one[0]!.input_schema).not.toHaveProperty('$schema');
    expect(one[0]!.description).toBe('Second. Two. (Changes data.)');
    expect(one[1]!.description).toBe('First. Two. (Reads only.)');
  });

  it('[3] holds whole skill bodies, never truncated, in activation order', () => {
    const body = `# Crawl plan\n${'step\n'.repeat(5000)}end of body`;
    const slab = skillsSlab([{ name: 'crawl-plan', title: 'Crawl plan', body }, { name: 'b', title: 'B', body: 'short' }]);
    expect(slab).toContain(body);
    expect(slab.indexOf('crawl-plan')).toBeLessThan(slab.indexOf('name="b"'));
    expect(skillsSlab([])).toBe('');
  });

  it('[5] and [7] plus the notes of this turn, each only when present', () => {
    const route = { kind: 'standing' as const, cadence: 'every week', cues: ['every week'] };
    const text = turnContextSlab({
      suggestions: [{ capability: 'enrich.batch', hint: 'Enrich the new records', prefill: { limit: 3 } }],
      corpus: [{ id: 'doc1', title: 'Guide', text: 'Crawl politely.' }],
      violations: [{ invocation_id: 'inv_1', capability: 'records.import_csv', title: 'Import CSV', postcondition: 'row_count_change', expected: 'records +3', actual: 'records +0', message: 'No rows were added.' }],
      route,
      titles: new Map([['enrich.batch', 'Enrich records']]),
    });
    expect(text).toContain('- Enrich the new records → enrich.batch (Enrich records) {"limit":3}');
    expect(text).toContain('<passage id="doc1" title="Guide">\nCrawl politely.\n</passage>');
    expect(text).toContain('expected="records +3" actual="records +0">No rows were added.</quality_violation>');
    expect(text).toContain('<intent_router route="standing" cadence="every week" cues="every week"/>');
    expect(turnContextSlab({ suggestions: [], corpus: [], violations: [], route: { kind: 'one_shot', cues: [] } })).toBe('<intent_router route="one_shot"/>');
  });

  it('the engine verbs are fixed tools with sorted keys', () => {
    expect(CONTROL_TOOLS.map((t) => t.name)).toEqual(['propose_capability', 'ask_user', 'hand_off_standing_request']);
    for (const tool of CONTROL_TOOLS) expect(JSON.stringify(tool.input_schema)).toBe(canonicalJson(tool.input_schema));
  });
});
