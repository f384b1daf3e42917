import type { CatalogNode } from '../catalogNodes';
import type { SkillStore } from '../stores/skillStore';
import type { WorkspaceDatabase } from './sqliteDatabase';
import { sqliteHandle } from './sqliteHandle';

/**
 * Saved slash skills in the workspace database: a server loads a user's and
 * a space's when they are first asked for (`createSkillLoader`), one range of
 * the primary key per namespace.
 * @example
 * const skillStore = createSqliteSkillStore(db);
 * await loadStoredSkills(catalog, skillStore);
 */
export function createSqliteSkillStore(database: WorkspaceDatabase): SkillStore {
  const db = sqliteHandle(database);
  const all = db.prepare('SELECT body FROM skills ORDER BY path').pluck();
  // A namespace's paths are one range of the primary key: "alice/Skill/" up to "alice/Skill0" ("0" follows "/").
  const inNamespace = db.prepare("SELECT body FROM skills WHERE path >= ? || '/' AND path < ? || '0' ORDER BY path").pluck();
  const byPath = db.prepare('SELECT body FROM skills WHERE path = ?').pluck();
  const upsert = db.prepare(
    `INSERT INTO skills (path, namespace, owner, saved_at, body) VALUES (@path, @namespace, @owner, @savedAt, @body)
     ON CONFLICT (path) DO UPDATE SET namespace = excluded.namespace, owner = excluded.owner, saved_at = excluded.saved_at, body = excluded.body`,
  );
  const remove = db.prepare('DELETE FROM skills WHERE path = ?');
  const parse = (body: string) => JSON.parse(body) as CatalogNode;

  return {
    list: (namespace) => ((namespace === undefined ? all.all() : inNamespace.all(namespace, namespace)) as string[]).map(parse),
    get(path) {
      const body = byPath.get(path) as string | undefined;
      return body === undefined ? undefined : parse(body);
    },
    put(node) {
      upsert.run({ path: node.path, namespace: node.namespace, owner: node.owner ?? null, savedAt: Date.now(), body: JSON.stringify(node) });
    },
    delete(path) {
      remove.run(path);
    },
  };
}
