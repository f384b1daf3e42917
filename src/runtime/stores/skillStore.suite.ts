import { describe, expect, it } from 'vitest';
import { BUILT_IN_SKILL_NODES } from '../slash/builtinSkillData';
import { builtInNodes } from '../slash/builtinNodes';
import { createCatalog } from '../slash/catalog';
import { catalogNode, type CatalogNode } from '../catalogNodes';
import { SKILL_DISCOVERY_QUERY, createSkillDirectory, loadStoredSkills } from '../slash/skillDirectory';
import type { SkillStore } from './skillStore';

/**
 * What every `SkillStore` must do, and what the skill directory does over it;
 * run from each store's test file with a factory giving a fresh, empty store.
 * @example
 * skillStoreSuite('sqlite', () => createSqliteSkillStore(openWorkspaceDatabase(':memory:')));
 */
export function skillStoreSuite(name: string, make: () => SkillStore | Promise<SkillStore>): void {
  const skill = (path: string, patch: Partial<CatalogNode> = {}): CatalogNode =>
    catalogNode(path, {
      nodeType: 'Skill',
      name: `/${path.slice(path.lastIndexOf('/') + 1)}`,
      description: 'Group by week.',
      order: 100,
      skill: { instructions: 'Mondays first.', autoMount: true, launchesSubThread: false },
      ...patch,
    });
  const builtIns = () => createCatalog([...BUILT_IN_SKILL_NODES, ...builtInNodes()]);

  describe(`SkillStore: ${name}`, () => {
    it('puts, gets, replaces, lists by path and deletes saved skills', async () => {
      const store = await make();
      expect(await store.list()).toEqual([]);
      expect(await store.get('alice/Skill/weekly')).toBeUndefined();
      await store.put(skill('alice/Skill/weekly', { owner: 'alice' }));
      await store.put(skill('acme/Skill/triage', { keywords: ['urgent'] }));
      expect(await store.get('alice/Skill/weekly')).toEqual(skill('alice/Skill/weekly', { owner: 'alice' }));
      expect((await store.list()).map((n) => n.path)).toEqual(['acme/Skill/triage', 'alice/Skill/weekly']);
      await store.put(skill('alice/Skill/weekly', { owner: 'alice', description: 'Replaced' }));
      expect((await store.get('alice/Skill/weekly'))?.description).toBe('Replaced');
      expect(await store.list()).toHaveLength(2);
      await store.delete('alice/Skill/weekly');
      await store.delete('never/Skill/there');
      expect((await store.list()).map((n) => n.path)).toEqual(['acme/Skill/triage']);
    });

    it('lists one namespace alone, not a namespace that merely starts the same', async () => {
      const store = await make();
      await store.put(skill('alice/Skill/weekly', { owner: 'alice' }));
      await store.put(skill('alice/Skill/zeta', { owner: 'alice' }));
      await store.put(skill('alice2/Skill/other', { owner: 'alice2' }));
      await store.put(skill('alice.x/Skill/dotted', { owner: 'alice.x' }));
      await store.put(skill('acme/Skill/triage'));
      expect((await store.list('alice/Skill')).map((n) => n.path)).toEqual(['alice/Skill/weekly', 'alice/Skill/zeta']);
      expect((await store.list('acme/Skill')).map((n) => n.path)).toEqual(['acme/Skill/triage']);
      expect(await store.list('bob/Skill')).toEqual([]);
      expect(await store.list()).toHaveLength(5);
    });

    it('keeps a node as data: what comes back is a copy, without a missing owner turning into null', async () => {
      const store = await make();
      const node = skill('acme/Skill/triage');
      await store.put(node);
      node.description = 'changed after put';
      const back = await store.get('acme/Skill/triage');
      expect(back).toEqual(skill('acme/Skill/triage'));
      expect(back && 'owner' in back).toBe(false);
    });

    it('brings saved skills back into a new catalog (a restart), private ones still private', async () => {
      const store = await make();
      const before = builtIns();
      await createSkillDirectory({ user: 'alice', space: 'acme', catalog: before, store }).persist({ id: 'weekly', description: 'Mine', instructions: 'Mondays.' });
      await createSkillDirectory({ user: 'alice', space: 'acme', catalog: before, store }).persist({ id: 'triage', description: 'Ours', instructions: 'Urgent first.', scope: 'space' });

      const after = builtIns();
      expect(await loadStoredSkills(after, store)).toEqual({ loaded: 2, problems: [] });
      const alice = createSkillDirectory({ user: 'alice', space: 'acme', catalog: after, store });
      const bob = createSkillDirectory({ user: 'bob', space: 'acme', catalog: after, store });
      expect(alice.query(SKILL_DISCOVERY_QUERY).map((n) => n.path)).toEqual(expect.arrayContaining(['alice/Skill/weekly', 'acme/Skill/triage']));
      expect(alice.load('/weekly')).toEqual({ name: 'alice/Skill/weekly', title: '/weekly', body: 'Mondays.' });
      expect(bob.query(SKILL_DISCOVERY_QUERY).map((n) => n.path)).toContain('acme/Skill/triage');
      expect(bob.query(SKILL_DISCOVERY_QUERY).map((n) => n.path)).not.toContain('alice/Skill/weekly');
      expect(bob.active('alice/Skill/weekly')).toBeNull();
      // Loaded skills are saved ones: their owner may replace them after the restart.
      expect(alice.save({ id: 'weekly', description: 'Mine, again', instructions: 'Tuesdays.' }).path).toBe('alice/Skill/weekly');
    });

    it('leaves out, and names, stored rows a save would refuse', async () => {
      const store = await make();
      await store.put(skill('alice/Skill/fine', { owner: 'alice' }));
      await store.put(skill('Skill/agent'));
      await store.put(skill('alice/Skill/stolen', { owner: 'bob' }));
      await store.put(skill('acme/Skill/empty', { skill: { autoMount: true, launchesSubThread: false } }));
      const catalog = builtIns();
      const { loaded, problems } = await loadStoredSkills(catalog, store);
      expect(loaded).toBe(1);
      expect([...problems].sort()).toEqual([
        'Skill/agent: a saved skill\'s path must be "{user or space}/Skill/<word>".',
        'acme/Skill/empty: a skill needs an action in its frontmatter, instructions in its body, or both.',
        'alice/Skill/stolen: its owner "bob" does not match its namespace.',
      ]);
      expect(catalog.get('Skill/agent')?.skill?.action?.kind).toBe('Pick');
    });
  });
}
