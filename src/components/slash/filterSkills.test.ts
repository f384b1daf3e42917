import { describe, expect, it } from 'vitest';
import { catalogNode } from '../../runtime/slash/nodes';
import { filterNodes } from './filterSkills';

const skill = (id: string, description: string, keywords?: string[]) =>
  catalogNode(`Skill/${id}`, { nodeType: 'Skill', name: `/${id}`, description, ...(keywords ? { keywords } : {}), skill: { instructions: 'x', autoMount: true, launchesSubThread: false } });

const nodes = [
  skill('agent', 'Switch the agent', ['persona']),
  skill('model', 'Choose the model that answers'),
  skill('summarize', 'Summarise records', ['tldr']),
  skill('modelling', 'Model some data'),
];

describe('filterNodes', () => {
  it('keeps every node in the query order when nothing is typed', () => {
    expect(filterNodes(nodes, '')).toBe(nodes);
  });
  it('matches the slash word, the description and the keywords, case-insensitively', () => {
    expect(filterNodes(nodes, 'TLDR').map((n) => n.id)).toEqual(['summarize']);
    expect(filterNodes(nodes, 'persona').map((n) => n.id)).toEqual(['agent']);
    expect(filterNodes(nodes, 'records').map((n) => n.id)).toEqual(['summarize']);
  });
  it('puts words that start with the text first, keeping the query order within each group', () => {
    expect(filterNodes(nodes, 'mod').map((n) => n.id)).toEqual(['model', 'modelling']);
    expect(filterNodes(nodes, 'the').map((n) => n.id)).toEqual(['agent', 'model']);
  });
  it('needs every typed word to match, and returns nothing when none does', () => {
    expect(filterNodes(nodes, 'model answers').map((n) => n.id)).toEqual(['model']);
    expect(filterNodes(nodes, 'zebra')).toEqual([]);
  });
});
