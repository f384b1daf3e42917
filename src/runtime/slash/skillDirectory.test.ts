import { describe, expect, it } from 'vitest';
import { builtInNodes, builtInSkills } from './builtins';
import { createCatalog } from './catalog';
import { catalogNode } from './nodes';
import { NodeQueryError } from './query';
import { SKILL_DISCOVERY_QUERY, createSkillDirectory } from './skillDirectory';
import { SkillFileError } from './skillNode';

const shared = () => createCatalog([...builtInSkills(), ...builtInNodes()]);

describe('createSkillDirectory', () => {
  it('defaults to user "me" in space "default" with the built-in skills, agents, models and harnesses', () => {
    const skills = createSkillDirectory();
    expect(skills.user).toBe('me');
    expect(skills.space).toBe('default');
    expect(skills.query(SKILL_DISCOVERY_QUERY).map((s) => s.name)).toEqual(['/agent', '/model', '/harness', '/clear', '/help', '/summarize']);
    expect(skills.query('nodeType:Agent sort:order')[0]?.path).toBe('Agent/assistant');
    expect(skills.query('nodeType:Harness sort:order').map((n) => n.id)).toEqual(['chat', 'claude-code', 'copilot']);
  });

  it('adds a host’s skills to the built-ins', () => {
    const extra = catalogNode('default/Skill/triage', { nodeType: 'Skill', name: '/triage', description: 'Triage', order: 7, skill: { instructions: 'Sort by urgency.', autoMount: true, launchesSubThread: false } });
    expect(createSkillDirectory({ skills: [extra] }).query(SKILL_DISCOVERY_QUERY).map((s) => s.id)).toContain('triage');
  });

  it('saves a private skill under {user}/Skill and a shared one under {space}/Skill, discoverable at once', () => {
    const catalog = shared();
    const alice = createSkillDirectory({ user: 'alice', space: 'acme', catalog });
    const bob = createSkillDirectory({ user: 'bob', space: 'acme', catalog });
    const mine = alice.save({ id: '/weekly', description: 'My weekly report', instructions: 'Group by week.' });
    expect(mine).toMatchObject({ path: 'alice/Skill/weekly', owner: 'alice', name: '/weekly', skill: { instructions: 'Group by week.', autoMount: true } });
    const ours = alice.save({ id: 'triage', description: 'Team triage', instructions: 'Sort by urgency.', scope: 'space' });
    expect(ours.path).toBe('acme/Skill/triage');
    expect(ours.owner).toBeUndefined();
    expect(alice.query(SKILL_DISCOVERY_QUERY).map((s) => s.path)).toEqual(expect.arrayContaining(['alice/Skill/weekly', 'acme/Skill/triage']));
    expect(bob.query(SKILL_DISCOVERY_QUERY).map((s) => s.path)).toContain('acme/Skill/triage');
    expect(bob.query(SKILL_DISCOVERY_QUERY).map((s) => s.path)).not.toContain('alice/Skill/weekly');
    expect(bob.active('alice/Skill/weekly')).toBeNull();
    expect(alice.active('alice/Skill/weekly')).toEqual({ name: 'alice/Skill/weekly', title: '/weekly', body: 'Group by week.' });
  });

  it.each([
    [{ id: 'Bad Id', description: 'd', instructions: 'i' }, '"Bad Id" cannot be a slash word'],
    [{ id: '-x', description: 'd', instructions: 'i' }, '"-x" cannot be a slash word'],
    [{ id: 'ok', description: '  ', instructions: 'i' }, 'description: must not be empty'],
    [{ id: 'ok', description: 'd', instructions: ' ' }, '/ok: instructions are empty'],
    [{ id: 'ok', description: 'd', instructions: 'i', scope: 'team' as 'user' }, 'scope must be "user" (private) or "space" (shared), not "team"'],
    [{ id: 'agent', description: 'd', instructions: 'i' }, '/agent is already a skill that opens the picker "Choose an agent"; choose another name.'],
  ])('refuses %j with a clear message and saves nothing', (input, message) => {
    const skills = createSkillDirectory();
    const before = skills.query(SKILL_DISCOVERY_QUERY).length;
    expect(() => skills.save(input)).toThrow(SkillFileError);
    expect(() => skills.save(input)).toThrow(message);
    expect(skills.query(SKILL_DISCOVERY_QUERY)).toHaveLength(before);
  });

  it('lets a user’s instruction skill shadow the platform’s', () => {
    const skills = createSkillDirectory({ user: 'ada' });
    skills.save({ id: 'summarize', description: 'One line', instructions: 'Answer in one line.' });
    expect(skills.query(SKILL_DISCOVERY_QUERY).filter((s) => s.id === 'summarize').map((s) => s.path)).toEqual(['ada/Skill/summarize']);
    expect(skills.load('/summarize')).toEqual({ name: 'ada/Skill/summarize', title: '/summarize', body: 'Answer in one line.' });
  });

  it('refuses a user or space id that cannot name a namespace, and a bad query with its parser message', () => {
    expect(() => createSkillDirectory({ user: 'a/b' })).toThrow('The user id "a/b" cannot name a namespace');
    expect(() => createSkillDirectory({ space: '{x}' })).toThrow('The space id "{x}" cannot name a namespace');
    expect(() => createSkillDirectory().query('nodeType:Widget')).toThrow(NodeQueryError);
  });

  it('loads an instruction skill for a directive, and says why it cannot load another', () => {
    const skills = createSkillDirectory();
    expect(skills.load('/summarize')).toMatchObject({ name: 'Skill/summarize', title: '/summarize', body: expect.stringContaining('exactly three bullet points') });
    expect(skills.load('/nope')).toBe('There is no /nope skill here, so no instructions were loaded; the task went ahead without them.');
    expect(skills.load('/clear')).toBe('/clear has no instructions to load (it starts a new thread); the task went ahead without it.');
  });

  it('advertises autoMount instruction skills only, in discovery order, the same bytes every time', () => {
    const quiet = catalogNode('Skill/recipe', { nodeType: 'Skill', name: '/recipe', description: 'Secret <recipe>', order: 6, skill: { instructions: 'Add salt.', autoMount: false, launchesSubThread: false } });
    const skills = createSkillDirectory({ skills: [quiet] });
    const text = skills.advertised();
    expect(text).toBe(skills.advertised());
    expect(text.split('\n').filter((l) => l.startsWith('<skill '))).toEqual([
      '<skill name="/help">Show what the slash skills do and how to use them</skill>',
      '<skill name="/summarize">Summarise records, results or this thread in three plain bullet points</skill>',
    ]);
    expect(text).not.toContain('/recipe');
    expect(text).not.toContain('/agent');
    expect(skills.load('/recipe')).toMatchObject({ body: 'Add salt.' });
  });

  it('describes the picked agent, by path or id, and nothing for an unknown one', () => {
    const skills = createSkillDirectory();
    expect(skills.agentNote('Agent/researcher')).toBe('<agent name="Researcher">Answer as the Researcher agent: Finds and compares sources before it answers.</agent>');
    expect(skills.agentNote('analyst')).toContain('Answer as the Analyst agent');
    expect(skills.agentNote('Agent/ghost')).toBe('');
    expect(skills.agentNote('Model/offline')).toBe('');
    expect(skills.agentNote(undefined)).toBe('');
  });
});
