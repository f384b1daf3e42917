import { describe, expect, it } from 'vitest';
import { builtInNodes, builtInSkills } from './builtins';
import { dispatchSlash, splitSlash } from './dispatch';
import { loadSkillText, parseLoadSkill } from '../skillField';
import { catalogNode, type CatalogNode, type SkillDefinition } from '../catalogNodes';

const skill = (id: string, definition: Partial<SkillDefinition>): CatalogNode =>
  catalogNode(`Skill/${id}`, { nodeType: 'Skill', name: `/${id}`, description: `The ${id} skill`, skill: { autoMount: true, launchesSubThread: false, ...definition } });

const skills = [
  ...builtInSkills(),
  skill('docs', { action: { kind: 'OpenContent', contentPath: 'Doc/slash-skills' } }),
  skill('go', { action: { kind: 'Navigate' } }),
  skill('records', { action: { kind: 'Navigate', contentPath: 'views/records' } }),
  skill('connect', { action: { kind: 'Connect', provider: 'ClaudeCode' } }),
  skill('disconnect', { action: { kind: 'Disconnect', provider: 'ClaudeCode' } }),
];
const cli = builtInNodes().find((n) => n.path === 'Harness/claude-code')!;

describe('dispatchSlash', () => {
  it('ignores text that is not a slash command', () => {
    expect(dispatchSlash('hello /agent', { skills })).toEqual({ kind: 'none' });
    expect(splitSlash('/Agent  researcher ')).toEqual({ word: 'agent', rest: 'researcher' });
  });

  it('Pick: opens a picker over the action query for the composer field, keeping the typed filter', () => {
    expect(dispatchSlash('/agent res', { skills })).toMatchObject({ kind: 'pick', field: 'agentName', query: 'namespace:Agent nodeType:Agent sort:order', title: 'Choose an agent', filter: 'res' });
    expect(dispatchSlash('/model', { skills })).toMatchObject({ kind: 'pick', field: 'modelName' });
    expect(dispatchSlash('/harness', { skills })).toMatchObject({ kind: 'pick', field: 'harness' });
  });

  it('OpenContent, Navigate (fixed or typed target), Connect, Disconnect and NewThread', () => {
    expect(dispatchSlash('/docs', { skills })).toMatchObject({ kind: 'open', contentPath: 'Doc/slash-skills' });
    expect(dispatchSlash('/records', { skills })).toMatchObject({ kind: 'navigate', target: 'views/records' });
    expect(dispatchSlash('/go views/settings', { skills })).toMatchObject({ kind: 'navigate', target: 'views/settings' });
    expect(dispatchSlash('/go', { skills })).toMatchObject({ kind: 'help' });
    expect(dispatchSlash('/connect', { skills })).toMatchObject({ kind: 'connect', provider: 'ClaudeCode' });
    expect(dispatchSlash('/disconnect', { skills })).toMatchObject({ kind: 'disconnect', provider: 'ClaudeCode' });
    expect(dispatchSlash('/clear', { skills })).toMatchObject({ kind: 'new-thread' });
  });

  it('an instruction skill with a task submits it with a load-skill directive; without one it shows help', () => {
    expect(dispatchSlash('/summarize the last import', { skills })).toMatchObject({
      kind: 'submit',
      task: 'the last import',
      message: { text: 'the last import', skill: '/summarize' },
    });
    expect(dispatchSlash('/summarize', { skills })).toMatchObject({ kind: 'help', skill: { name: '/summarize' } });
    expect(dispatchSlash('/help', { skills })).toMatchObject({ kind: 'help', skill: { name: '/help' } });
    // /help lists the skills the user can run, each with its one-line help, and not itself.
    const help = dispatchSlash('/help', { skills });
    const listed = help.kind === 'help' ? help.skills ?? [] : [];
    expect(listed.length).toBeGreaterThan(1);
    expect(listed.map((s) => s.name)).toContain('/summarize');
    expect(listed.map((s) => s.name)).not.toContain('/help');
    expect(listed.every((s) => s.description.trim().length > 0)).toBe(true);
  });

  it('routes a harness-owned command to a command-line harness, and forwards instruction skills raw', () => {
    expect(dispatchSlash('/login', { skills, harness: cli })).toEqual({ kind: 'harness', harness: 'Harness/claude-code', text: '/login' });
    expect(dispatchSlash('/summarize the import', { skills, harness: cli })).toEqual({ kind: 'harness', harness: 'Harness/claude-code', text: '/summarize the import' });
    expect(dispatchSlash('/agent', { skills, harness: cli })).toMatchObject({ kind: 'pick' });
  });

  it('explains an unknown word and suggests near ones', () => {
    const outcome = dispatchSlash('/mode', { skills });
    expect(outcome).toMatchObject({ kind: 'unknown', word: 'mode' });
    expect(outcome.kind === 'unknown' && outcome.message).toBe('There is no /mode here. Did you mean /model? Type / to see every skill.');
    expect(dispatchSlash('/login', { skills })).toMatchObject({ kind: 'unknown' });
  });

  it('reads a load-skill directive back into the skill name and the task', () => {
    const summarize = skills.find((s) => s.id === 'summarize')!;
    expect(parseLoadSkill(loadSkillText(summarize, 'the last import\nand the one before'))).toEqual({ name: '/summarize', task: 'the last import\nand the one before' });
    expect(parseLoadSkill('[load_skill /summarize] inline task')).toEqual({ name: '/summarize', task: 'inline task' });
    expect(parseLoadSkill('[load_skill /summarize]')).toEqual({ name: '/summarize', task: '' });
    expect(parseLoadSkill('please [load_skill /summarize]')).toBeNull();
    expect(parseLoadSkill('[load_skill summarize]\nx')).toBeNull();
    expect(parseLoadSkill('[load_skill /Bad]\nx')).toBeNull();
  });
});
