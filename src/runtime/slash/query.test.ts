import { describe, expect, it } from 'vitest';
import { NodeQueryError, parseNodeQuery } from './query';

const ctx = { user: 'alice', space: 'acme' };

describe('parseNodeQuery', () => {
  it('reads the discovery query with placeholders, types, sort and words', () => {
    expect(parseNodeQuery('namespace:{user}/Skill|{space}/Skill|Skill nodeType:Skill sort:order  triage', ctx)).toEqual({
      namespaces: ['alice/Skill', 'acme/Skill', 'Skill'],
      nodeTypes: ['Skill'],
      sort: 'order',
      words: ['triage'],
      limit: null,
    });
  });

  it('reads several node types and a limit; an empty query matches everything', () => {
    expect(parseNodeQuery('nodeType:Agent|Model limit:5', ctx)).toMatchObject({ nodeTypes: ['Agent', 'Model'], limit: 5 });
    expect(parseNodeQuery('   ', ctx)).toEqual({ namespaces: [], nodeTypes: [], sort: null, words: [], limit: null });
  });

  it.each([
    ['owner:alice', 'Unknown query key "owner"'],
    ['namespace:', 'has no value'],
    ['namespace:Skill||Agent', 'empty alternative'],
    ['nodeType:Widget', 'Unknown nodeType "Widget"'],
    ['sort:date', 'sort:date is not supported'],
    ['limit:0', 'limit:0 must be a whole number'],
    ['limit:abc', 'limit:abc must be a whole number'],
    ['namespace:{team}/Skill', 'Unknown placeholder {team}'],
    ['namespace:{user/Skill', 'Unbalanced braces'],
  ])('refuses %s with a message naming the problem', (text, message) => {
    expect(() => parseNodeQuery(text, ctx)).toThrow(NodeQueryError);
    expect(() => parseNodeQuery(text, ctx)).toThrow(message);
  });

  it('refuses a query that is not text without crashing', () => {
    expect(() => parseNodeQuery(42 as unknown as string, ctx)).toThrow('A node query must be text.');
  });
});
