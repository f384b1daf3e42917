import { describe, expect, it } from 'vitest';
import { builtInNodes, builtInSkills } from './builtins';
import { createCatalog } from './catalog';
import { catalogNode } from '../catalogNodes';

const DISCOVERY = 'namespace:{user}/Skill|{space}/Skill|Skill nodeType:Skill sort:order';
const alice = { user: 'alice', space: 'acme' };
const bob = { user: 'bob', space: 'acme' };

function catalog() {
  const c = createCatalog([...builtInSkills(), ...builtInNodes()]);
  c.put(catalogNode('acme/Skill/triage', { nodeType: 'Skill', name: '/triage', description: 'Triage new records for the acme team', order: 20, skill: { instructions: 'Sort by urgency.', autoMount: true, launchesSubThread: false } }));
  c.put(catalogNode('alice/Skill/weekly', { nodeType: 'Skill', name: '/weekly', description: "Alice's weekly report", order: 30, owner: 'alice', skill: { instructions: 'Mondays.', autoMount: false, launchesSubThread: false } }));
  c.put(catalogNode('alice/Skill/summarize', { nodeType: 'Skill', name: '/summarize', description: 'Alice’s own summary style', order: 10, owner: 'alice', skill: { instructions: 'One line.', autoMount: true, launchesSubThread: false } }));
  c.put(catalogNode('other/Skill/secret', { nodeType: 'Skill', name: '/secret', description: 'Another space', skill: { instructions: 'x', autoMount: true, launchesSubThread: false } }));
  return c;
}

describe('skill discovery', () => {
  it('unions the platform, space and user namespaces, ordered by the query', () => {
    expect(catalog().query(DISCOVERY, alice).map((n) => n.path)).toEqual([
      'Skill/agent', 'Skill/model', 'Skill/harness', 'Skill/clear', 'Skill/help', 'alice/Skill/summarize', 'acme/Skill/triage', 'alice/Skill/weekly',
    ]);
  });

  it("hides a user's private skills from other users, and lets a user's skill shadow the platform's", () => {
    const forBob = catalog().query(DISCOVERY, bob);
    expect(forBob.map((n) => n.path)).not.toContain('alice/Skill/weekly');
    expect(forBob.find((n) => n.id === 'summarize')?.path).toBe('Skill/summarize');
    expect(catalog().query(DISCOVERY, alice).find((n) => n.id === 'summarize')?.path).toBe('alice/Skill/summarize');
  });

  it('never lists another space’s skills', () => {
    expect(catalog().query(DISCOVERY, alice).map((n) => n.id)).not.toContain('secret');
  });

  it('filters by words in name, description and keywords, and honours a limit', () => {
    expect(catalog().query(`${DISCOVERY} claude`, alice).map((n) => n.id)).toEqual(['model', 'harness']);
    expect(catalog().query(`${DISCOVERY} limit:2`, alice)).toHaveLength(2);
  });

  it('lists agents for the /agent picker with the catalog head first', () => {
    expect(catalog().query('namespace:Agent nodeType:Agent sort:order', alice).map((n) => n.name)).toEqual(['Assistant', 'Researcher', 'Analyst']);
  });

  it('sorts by name when asked', () => {
    expect(catalog().query('namespace:Harness nodeType:Harness sort:name', alice).map((n) => n.name)).toEqual(['Chat', 'Claude Code', 'Copilot']);
    const models = catalog().query('namespace:Model nodeType:Model sort:name', alice).map((n) => n.name);
    expect(models).toEqual([...models].sort());
  });
});
