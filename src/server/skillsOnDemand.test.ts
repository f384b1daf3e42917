import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { catalogNode } from '../runtime/catalogNodes';
import { openWorkspaceDatabase } from '../runtime/node/sqliteDatabase';
import { createSqliteSkillStore } from '../runtime/node/sqliteSkillStore';
import { builtInNodes } from '../runtime/slash/builtinNodes';
import { BUILT_IN_SKILL_NODES } from '../runtime/slash/builtinSkillData';
import { createCatalog } from '../runtime/slash/catalog';
import { SKILL_DISCOVERY_QUERY } from '../runtime/slash/skillDirectory';
import { createWorkspaceServer } from './createWorkspaceServer';

/** Saved skills are read when their user first needs them, not at start (issue 43 item 4). */
const dir = mkdtempSync(join(tmpdir(), 'chatsurface-skills-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('a server over 5,000 stored skills reads none at start; a user’s own (and their space’s) are there on their first slash list', async () => {
  const path = join(dir, 'workspace.db');
  const db = openWorkspaceDatabase(path);
  const store = createSqliteSkillStore(db);
  for (let u = 0; u < 500; u++) {
    for (let i = 0; i < 10; i++) {
      store.put(
        catalogNode(`u${u}/Skill/s${i}`, {
          nodeType: 'Skill',
          name: `/s${i}`,
          description: `Skill ${i} of u${u}`,
          order: 100,
          owner: `u${u}`,
          skill: { instructions: `Step ${i}.`, autoMount: false, launchesSubThread: false },
        }),
      );
    }
  }
  store.put(catalogNode('acme/Skill/triage', { nodeType: 'Skill', name: '/triage', description: 'Ours', order: 100, skill: { instructions: 'Urgent first.', autoMount: false, launchesSubThread: false } }));
  db.close();

  const catalog = createCatalog([...BUILT_IN_SKILL_NODES, ...builtInNodes()]);
  const before = catalog.run({ namespaces: [], nodeTypes: [], sort: null, words: [], limit: null }, { user: '', space: '' }).length;
  const server = await createWorkspaceServer({
    capabilities: [],
    database: path,
    workspace: { catalog },
    authenticate: (request) => {
      const user = request.headers.get('x-user');
      return user ? { user, space: 'acme' } : null;
    },
  });
  try {
    // Nothing stored was read into memory by starting.
    expect(catalog.run({ namespaces: [], nodeTypes: [], sort: null, words: [], limit: null }, { user: '', space: '' })).toHaveLength(before);
    expect(catalog.get('u7/Skill/s0')).toBeUndefined();

    const list = await server.fetch(new Request(`http://127.0.0.1/v1/nodes?q=${encodeURIComponent(SKILL_DISCOVERY_QUERY)}`, { headers: { 'x-user': 'u7' } }));
    expect(list.status).toBe(200);
    const paths = ((await list.json()) as { nodes: { path: string }[] }).nodes.map((n) => n.path).filter((p) => p.includes('/Skill/'));
    expect(paths.sort()).toEqual(['acme/Skill/triage', ...Array.from({ length: 10 }, (_, i) => `u7/Skill/s${i}`)].sort());
    // Another user's skills are still only in the database.
    expect(catalog.get('u8/Skill/s0')).toBeUndefined();
    expect(catalog.run({ namespaces: [], nodeTypes: [], sort: null, words: [], limit: null }, { user: 'u7', space: 'acme' })).toHaveLength(before + 11);
  } finally {
    await server.close();
  }
});
