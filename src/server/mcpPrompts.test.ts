import { describe, expect, it } from 'vitest';
import { createCatalog } from '../runtime/slash/catalog';
import { BUILT_IN_SKILL_NODES } from '../runtime/slash/builtinSkillData';
import { createSkillDirectory } from '../runtime/slash/skillDirectory';
import { completePromptArgument, getPrompt, instructionSkills, listPrompts } from './mcpPrompts';

describe('slash skills as MCP prompts', () => {
  const catalog = createCatalog([...BUILT_IN_SKILL_NODES]);
  const alice = createSkillDirectory({ user: 'alice', space: 'acme', catalog });
  const bob = createSkillDirectory({ user: 'bob', space: 'acme', catalog });
  alice.save({ id: 'triage', description: 'Ours: urgent first', instructions: 'Sort by urgency.', scope: 'space' });
  alice.save({ id: 'triage', description: 'Mine: oldest first', instructions: 'Sort by age.' });

  it('a private skill shadows the space’s of the same word, as /triage loads it; others see the space’s', () => {
    expect(instructionSkills(alice).filter((s) => s.id === 'triage').map((s) => s.description)).toEqual(['Mine: oldest first']);
    expect(instructionSkills(bob).filter((s) => s.id === 'triage').map((s) => s.description)).toEqual(['Ours: urgent first']);
    expect(alice.load('/triage')).toMatchObject({ body: 'Sort by age.' });
    expect(getPrompt(alice, 'triage', undefined).messages[0]!.content).toMatchObject({ text: expect.stringContaining('Sort by age.') });
    expect(getPrompt(bob, 'triage', undefined).messages[0]!.content).toMatchObject({ text: expect.stringContaining('Sort by urgency.') });
  });

  it('lists no action skills, refuses unknown arguments, completes only the task', () => {
    const names = listPrompts(alice).prompts.map((p) => p.name);
    expect(names).toContain('summarize');
    expect(names).not.toContain('agent');
    expect(() => getPrompt(alice, 'summarize', { topic: 'x' })).toThrow(/takes only "task", not "topic"/);
    expect(() => getPrompt(alice, 'agent', undefined)).toThrow(/No prompt "agent"/);
    expect(completePromptArgument(alice, 'summarize', 'task', 'dig')).toEqual(['digest']);
    expect(completePromptArgument(alice, 'summarize', 'topic', '')).toEqual([]);
    expect(completePromptArgument(alice, 'nope', 'task', '')).toEqual([]);
  });
});
