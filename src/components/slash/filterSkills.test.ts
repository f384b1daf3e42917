import { describe, expect, it } from 'vitest';
import { catalogNode } from '../../runtime/catalogNodes';
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
  it('gives the same answer typed a key at a time, forward and back, as typed at once', () => {
    const many = Array.from({ length: 300 }, (_, i) => skill(`team-${i}`, `Step ${i % 7} of the weekly process`, [`k${i % 5}`]));
    const fresh = (text: string) => filterNodes([...many], text).map((n) => n.id);
    const typed = ['t', 'te', 'team', 'team-', 'team-1', 'team-12', 'team-1', 'team-', 'team-2 ', 'team-2 step', 'team-2 step 3', 'team-2 k', 'team-2 k4'];
    for (const text of typed) expect(filterNodes(many, text).map((n) => n.id)).toEqual(fresh(text));
    expect(filterNodes(many, 'team-12').map((n) => n.id)).toEqual(['team-12', 'team-120', 'team-121', 'team-122', 'team-123', 'team-124', 'team-125', 'team-126', 'team-127', 'team-128', 'team-129']);
    // Backspace returns the list it showed before, not a copy: the option list does not re-render for nothing.
    expect(filterNodes(many, 'team-1')).toBe(filterNodes(many, 'team-1'));
  });
  it('treats runs of spaces and letter case as the same text', () => {
    expect(filterNodes(nodes, '  Model   ANSWERS').map((n) => n.id)).toEqual(['model']);
  });
});
