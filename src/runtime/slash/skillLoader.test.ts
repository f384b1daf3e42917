import { describe, expect, it } from 'vitest';
import { catalogNode, type CatalogNode } from '../catalogNodes';
import { createMemorySkillStore, type SkillStore } from '../stores/skillStore';
import { builtInNodes } from './builtinNodes';
import { BUILT_IN_SKILL_NODES } from './builtinSkillData';
import { createCatalog } from './catalog';
import { SKILL_DISCOVERY_QUERY, SKILL_LIMITS, createSkillDirectory } from './skillDirectory';
import { createSkillLoader } from './skillLoader';

const skill = (user: string, word: string, space = false): CatalogNode =>
  catalogNode(`${user}/Skill/${word}`, {
    nodeType: 'Skill',
    name: `/${word}`,
    description: `${word} of ${user}`,
    order: 100,
    ...(space ? {} : { owner: user }),
    skill: { instructions: `Do ${word}.`, autoMount: false, launchesSubThread: false },
  });

/** A store that says which namespaces were read. */
function countedStore(nodes: readonly CatalogNode[]): SkillStore & { reads: (string | undefined)[] } {
  const store = createMemorySkillStore();
  for (const node of nodes) void store.put(node);
  const reads: (string | undefined)[] = [];
  return {
    ...store,
    reads,
    async list(namespace) {
      reads.push(namespace);
      await new Promise((resolve) => setTimeout(resolve, 1));
      return store.list(namespace);
    },
  };
}

const catalog = () => createCatalog([...BUILT_IN_SKILL_NODES, ...builtInNodes()]);
const saved = (c: ReturnType<typeof catalog>, user: string) =>
  createSkillDirectory({ user, space: 'acme', catalog: c })
    .query(SKILL_DISCOVERY_QUERY)
    .filter((n) => n.path.includes('/Skill/'))
    .map((n) => n.path)
    .sort();

describe('createSkillLoader', () => {
  it('reads nothing until a principal asks, then that user’s and that space’s skills only', async () => {
    const nodes = Array.from({ length: 50 }, (_, u) => Array.from({ length: 4 }, (_, i) => skill(`u${u}`, `s${i}`))).flat();
    const store = countedStore([...nodes, skill('acme', 'triage', true), skill('other', 'theirs', true)]);
    const c = catalog();
    const loader = createSkillLoader(c, store);
    expect(store.reads).toEqual([]);
    expect(c.get('u7/Skill/s0')).toBeUndefined();
    await loader.ensure({ user: 'u7', space: 'acme' });
    expect(store.reads.sort()).toEqual(['acme/Skill', 'u7/Skill']);
    expect(saved(c, 'u7')).toEqual(['acme/Skill/triage', 'u7/Skill/s0', 'u7/Skill/s1', 'u7/Skill/s2', 'u7/Skill/s3']);
    expect(c.get('u8/Skill/s0')).toBeUndefined();
    expect(c.get('other/Skill/theirs')).toBeUndefined();
    // Asked again: from memory.
    await loader.ensure({ user: 'u7', space: 'acme' });
    expect(store.reads).toHaveLength(2);
    expect(loader.skills).toBe(5);
  });

  it('first requests arriving together share one read', async () => {
    const store = countedStore([skill('alice', 'weekly')]);
    const loader = createSkillLoader(catalog(), store);
    await Promise.all(Array.from({ length: 10 }, () => loader.ensure({ user: 'alice' })));
    expect(store.reads.sort()).toEqual(['alice/Skill', 'default/Skill']);
  });

  it('keeps at most maxSkills in memory: the least recently asked for go, and come back on their next request', async () => {
    const store = countedStore(['a', 'b', 'c'].flatMap((u) => [skill(u, 'one'), skill(u, 'two'), skill(u, 'three')]));
    const c = catalog();
    const loader = createSkillLoader(c, store, { maxSkills: 6 });
    await loader.ensure({ user: 'a' });
    await loader.ensure({ user: 'b' });
    await loader.ensure({ user: 'a' });
    await loader.ensure({ user: 'c' });
    // b was asked for least recently: dropped; a and c stay.
    expect(c.get('b/Skill/one')).toBeUndefined();
    expect(c.get('a/Skill/one')).toMatchObject({ name: '/one', description: 'one of a' });
    expect(c.get('c/Skill/one')).toMatchObject({ name: '/one', description: 'one of c' });
    expect(loader.skills).toBe(6);
    await loader.ensure({ user: 'b' });
    expect(saved(c, 'b')).toEqual(['b/Skill/one', 'b/Skill/three', 'b/Skill/two']);
    // Dropping b's saved skills never touches the built-in ones.
    expect(c.get('Skill/agent')).toMatchObject({ path: 'Skill/agent', nodeType: 'Skill' });
  });

  it('a user loaded on demand still meets the per-user cap with the skills they stored before', async () => {
    const mine = Array.from({ length: SKILL_LIMITS.perUser }, (_, i) => skill('alice', `s${i}`));
    const store = countedStore(mine);
    const c = catalog();
    await createSkillLoader(c, store).ensure({ user: 'alice' });
    const alice = createSkillDirectory({ user: 'alice', catalog: c, store });
    expect(() => alice.save({ id: 'one-more', description: 'More', instructions: 'Again.' })).toThrow(
      `/one-more: "alice" already has ${SKILL_LIMITS.perUser} saved skills, the most one user may keep (${SKILL_LIMITS.perUser}); save over one of them instead.`,
    );
  });

  it('names a stored skill it leaves out, and keeps the rest', async () => {
    const problems: string[] = [];
    const store = countedStore([skill('alice', 'fine'), { ...skill('alice', 'stolen'), owner: 'bob' }]);
    const c = catalog();
    await createSkillLoader(c, store, { onProblem: (p) => problems.push(p) }).ensure({ user: 'alice' });
    expect(saved(c, 'alice')).toEqual(['alice/Skill/fine']);
    expect(problems).toEqual(['alice/Skill/stolen: its owner "bob" does not match its namespace.']);
  });
});
