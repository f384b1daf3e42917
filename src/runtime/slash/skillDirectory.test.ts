import { describe, expect, it } from 'vitest';
import { builtInNodes, builtInSkills } from './builtins';
import { createCatalog } from './catalog';
import { catalogNode } from '../catalogNodes';
import { NodeQueryError } from './query';
import { SCOPES } from '../principal';
import { createMemorySkillStore, type SkillStore } from '../stores/skillStore';
import { SKILL_DISCOVERY_QUERY, SKILL_LIMITS, createSkillDirectory, loadStoredSkills } from './skillDirectory';
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

  it('gives user B neither sight nor the path of user A’s private skill, with one shared catalog and store', async () => {
    const catalog = shared();
    const store = createMemorySkillStore();
    const alice = createSkillDirectory({ user: 'alice', space: 'acme', catalog, store, scopes: [] });
    const bob = createSkillDirectory({ user: 'bob', space: 'acme', catalog, store, scopes: [] });
    await alice.persist({ id: 'weekly', description: 'Mine', instructions: 'Mondays.' });
    expect(bob.query(SKILL_DISCOVERY_QUERY).map((s) => s.id)).not.toContain('weekly');
    expect(bob.query('namespace:alice/Skill nodeType:Skill')).toEqual([]);
    expect(bob.active('alice/Skill/weekly')).toBeNull();
    expect(bob.load('/weekly')).toMatch(/^There is no \/weekly skill here/);
    // Bob's /weekly is his own node; Alice's is untouched, in the catalog and in the store.
    expect((await bob.persist({ id: 'weekly', description: 'His', instructions: 'Fridays.' })).path).toBe('bob/Skill/weekly');
    expect(alice.load('/weekly')).toEqual({ name: 'alice/Skill/weekly', title: '/weekly', body: 'Mondays.' });
    expect((await store.get('alice/Skill/weekly'))?.skill?.instructions).toBe('Mondays.');
    expect(bob.load('/weekly')).toMatchObject({ body: 'Fridays.' });
  });

  it('lets a user write the space’s skills only with the skills:space scope', () => {
    const catalog = shared();
    const plain = createSkillDirectory({ user: 'bob', space: 'acme', catalog, scopes: [] });
    expect(() => plain.save({ id: 'triage', description: 'Team triage', instructions: 'Urgent first.', scope: 'space' })).toThrow(
      new SkillFileError('/triage: saving a skill for the whole space ("acme/Skill") needs the "skills:space" scope, which "bob" does not have; save it as your own skill instead.'),
    );
    expect(catalog.get('acme/Skill/triage')).toBeUndefined();
    expect(plain.save({ id: 'triage', description: 'My triage', instructions: 'Urgent first.' }).path).toBe('bob/Skill/triage');
    const lead = createSkillDirectory({ user: 'carol', space: 'acme', catalog, scopes: [SCOPES.spaceSkills] });
    expect(lead.save({ id: 'triage', description: 'Team triage', instructions: 'Urgent first.', scope: 'space' }).path).toBe('acme/Skill/triage');
    // Another holder of the scope may replace the space's skill.
    const other = createSkillDirectory({ user: 'dan', space: 'acme', catalog, scopes: ['skills:space'] });
    expect(other.save({ id: 'triage', description: 'Team triage v2', instructions: 'Oldest first.', scope: 'space' }).description).toBe('Team triage v2');
  });

  it('refuses to replace a workspace skill, or a node of another owner at the same path', () => {
    const host = catalogNode('acme/Skill/onboard', { nodeType: 'Skill', name: '/onboard', description: 'Host skill', skill: { instructions: 'Welcome.', autoMount: true, launchesSubThread: false } });
    const catalog = createCatalog([...builtInSkills(), ...builtInNodes(), host]);
    const lead = createSkillDirectory({ user: 'carol', space: 'acme', catalog, scopes: [SCOPES.spaceSkills] });
    expect(() => lead.save({ id: 'onboard', description: 'Mine now', instructions: 'x', scope: 'space' })).toThrow(
      '/onboard: "acme/Skill/onboard" is one of this workspace\'s own skills, not a saved one, and cannot be replaced; choose another name.',
    );
    expect(catalog.get('acme/Skill/onboard')).toBe(host);
    // A user whose id is the space's name: its private skills and the space's share a namespace.
    const acme = createSkillDirectory({ user: 'acme', space: 'acme', catalog, scopes: [SCOPES.spaceSkills] });
    acme.save({ id: 'secret', description: 'Private', instructions: 'Mine.' });
    expect(() => lead.save({ id: 'secret', description: 'Shared', instructions: 'Ours.', scope: 'space' })).toThrow(
      '/secret: "acme/Skill/secret" already holds another user\'s skill, which cannot be replaced from here; choose another name.',
    );
    lead.save({ id: 'team', description: 'Shared', instructions: 'Ours.', scope: 'space' });
    expect(() => acme.save({ id: 'team', description: 'Private', instructions: 'Mine.' })).toThrow('"acme/Skill/team" already holds a skill of the space');
    expect(catalog.get('acme/Skill/secret')?.owner).toBe('acme');
    expect(catalog.get('acme/Skill/team')?.owner).toBeUndefined();
  });

  it('refuses a description or instructions over the limits, and more than 200 skills per user', () => {
    const skills = createSkillDirectory({ user: 'ada', catalog: shared() });
    expect(() => skills.save({ id: 'big', description: 'd'.repeat(1_025), instructions: 'i' })).toThrow('/big: the description has 1025 characters; keep it to 1,024 or fewer.');
    expect(() => skills.save({ id: 'big', description: 'd', instructions: 'i'.repeat(20_001) })).toThrow('/big: the instructions have 20001 characters; keep them to 20,000 or fewer.');
    expect(skills.save({ id: 'edge', description: 'd'.repeat(1_024), instructions: 'i'.repeat(20_000) }).id).toBe('edge');
    for (let i = 1; i < SKILL_LIMITS.perUser; i++) skills.save({ id: `s${i}`, description: 'd', instructions: 'i' });
    expect(() => skills.save({ id: 'one-more', description: 'd', instructions: 'i' })).toThrow(
      '/one-more: "ada" already has 200 saved skills, the most one user may keep (200); save over one of them instead.',
    );
    expect(skills.save({ id: 's1', description: 'replaced', instructions: 'i' }).description).toBe('replaced');
    // The space's skills and other users' do not count against ada.
    expect(createSkillDirectory({ user: 'bo', catalog: skills.catalog }).save({ id: 'x', description: 'd', instructions: 'i' }).path).toBe('bo/Skill/x');
  });

  it('undoes a save the store refused: persist rejects, save reports it', async () => {
    const failing: SkillStore = { ...createMemorySkillStore(), put: () => Promise.reject(new Error('disk full')) };
    const catalog = shared();
    const errors: unknown[] = [];
    const skills = createSkillDirectory({ user: 'ada', catalog, store: failing, onStoreError: (e) => errors.push(e) });
    await expect(skills.persist({ id: 'weekly', description: 'd', instructions: 'i' })).rejects.toThrow(
      new SkillFileError('/weekly could not be stored, so it was not saved: disk full'),
    );
    expect(catalog.get('ada/Skill/weekly')).toBeUndefined();
    expect(skills.save({ id: 'daily', description: 'd', instructions: 'i' }).path).toBe('ada/Skill/daily');
    // Ada finds /daily at once; once the store has refused it, it is gone from her list again.
    expect(skills.query(SKILL_DISCOVERY_QUERY).map((s) => s.name)).toContain('/daily');
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(skills.query(SKILL_DISCOVERY_QUERY).map((s) => s.name)).not.toContain('/daily');
    expect(catalog.get('ada/Skill/daily')).toBeUndefined();
    expect(errors.map(String)).toEqual(['SkillFileError: /daily could not be stored, so it was not saved: disk full']);
  });

  it('asks admitSkill about a new skill only, with the principal the save was given (whose request saves it)', async () => {
    const asked: [string, unknown][] = [];
    const skills = createSkillDirectory({ user: 'ada', catalog: shared(), store: createMemorySkillStore(), admitSkill: (node, by) => void asked.push([node.path, by]) });
    const saver = { user: 'ada', space: 'default' };
    await skills.persist({ id: 'weekly', description: 'd', instructions: 'i' }, saver);
    skills.save({ id: 'daily', description: 'd', instructions: 'i' });
    await skills.persist({ id: 'weekly', description: 'again', instructions: 'i' }, saver); // a replacement: not asked
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(asked).toEqual([
      ['ada/Skill/weekly', saver],
      ['ada/Skill/daily', undefined],
    ]);
    expect(asked[0]![1]).toBe(saver);
  });

  it('restores the replaced skill when the store refuses its replacement', async () => {
    const store = createMemorySkillStore();
    const catalog = shared();
    await createSkillDirectory({ user: 'ada', catalog, store }).persist({ id: 'weekly', description: 'first', instructions: 'i' });
    const broken = createSkillDirectory({ user: 'ada', catalog, store: { ...store, put: () => Promise.reject(new Error('gone')) }, onStoreError: () => {} });
    await expect(broken.persist({ id: 'weekly', description: 'second', instructions: 'i' })).rejects.toThrow('could not be stored');
    expect(catalog.get('ada/Skill/weekly')?.description).toBe('first');
    const restarted = shared();
    await loadStoredSkills(restarted, store);
    expect(restarted.get('ada/Skill/weekly')?.description).toBe('first');
  });
});
