import { describe, expect, it } from 'vitest';
import type { CapabilityInfo } from '../registry';
import { findNamedCapability, isClearMatch, scoreCapabilities } from './match';
import { terms } from './words';

const cap = (name: string, title: string, description: string): CapabilityInfo => ({
  name, title, description, kind: 'read', annotations: { readOnlyHint: true }, inputSchema: { type: 'object', properties: {} },
});
const list = cap('records.list', 'List records', 'Lists the records of the workspace.');
const enrich = cap('enrich.batch', 'Enrich records', 'Adds company data to records from the registry.');
const search = cap('corpus.search', 'Search documents', 'Full-text search over the bundled documents.');
const all = [search, enrich, list];

describe('terms', () => {
  it('keeps content words, lower-cased and lightly stemmed', () => {
    expect(terms('Please list the Records I imported yesterday')).toEqual(['list', 'record', 'import', 'yesterday']);
  });
});

describe('findNamedCapability', () => {
  it('finds a name read as words and says where it ends', () => {
    const m = findNamedCapability('run enrich batch limit=3', all);
    expect(m?.capability.name).toBe('enrich.batch');
    expect(m?.end).toBe('run enrich batch'.length);
  });
});

describe('scoreCapabilities', () => {
  it('ranks by title and description words, best first', () => {
    const scored = scoreCapabilities('look through the bundled documents', all);
    expect(scored.map((s) => s.capability.name)).toEqual(['corpus.search']);
    expect(isClearMatch(scored)).toBe(true);
  });

  it('ignores a word used in passing', () => {
    expect(scoreCapabilities('are there any records?', all)).toEqual([]);
  });

  it('sees two close candidates as unclear', () => {
    const scored = scoreCapabilities('records with company data listed', all);
    expect(scored.map((s) => s.capability.name)).toEqual(['enrich.batch', 'records.list']);
    expect(isClearMatch(scored)).toBe(false);
  });

  it('follows a suggestion whose hint the user repeats, with its prefill', () => {
    const suggestion = { capability: 'enrich.batch', hint: 'Enrich the new records', prefill: { limit: 3 } };
    const scored = scoreCapabilities('ok, enrich the new ones', all, [suggestion]);
    expect(scored[0]).toMatchObject({ capability: { name: 'enrich.batch' }, suggestion });
    expect(isClearMatch(scored)).toBe(true);
  });
});
