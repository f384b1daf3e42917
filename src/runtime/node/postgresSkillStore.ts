import type { CatalogNode } from '../catalogNodes';
import type { SkillStore } from '../stores/skillStore';
import type { PostgresDatabase } from './postgres';

/**
 * Saved slash skills in PostgreSQL: every instance loads a user's and a
 * space's when they are first asked for (`createSkillLoader`). Listed in
 * byte order of their paths, whatever the database's collation.
 * @example
 * const skillStore = createPostgresSkillStore(db);
 * await loadStoredSkills(catalog, skillStore);
 */
export function createPostgresSkillStore(db: PostgresDatabase): SkillStore {
  const parse = (body: string) => JSON.parse(body) as CatalogNode;
  return {
    async list(namespace) {
      // A namespace's paths are one range of the primary key (byte order): "alice/Skill/" up to "alice/Skill0".
      const { rows } =
        namespace === undefined
          ? await db.query<{ body: string }>('SELECT body FROM skills ORDER BY path')
          : await db.query<{ body: string }>("SELECT body FROM skills WHERE path >= $1 || '/' AND path < $1 || '0' ORDER BY path", [namespace]);
      return rows.map((row) => parse(row.body));
    },
    async get(path) {
      const { rows } = await db.query<{ body: string }>('SELECT body FROM skills WHERE path = $1', [path]);
      return rows[0] && parse(rows[0].body);
    },
    async put(node) {
      await db.query(
        `INSERT INTO skills (path, namespace, owner, saved_at, body) VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (path) DO UPDATE SET namespace = excluded.namespace, owner = excluded.owner, saved_at = excluded.saved_at, body = excluded.body`,
        [node.path, node.namespace, node.owner ?? null, Date.now(), JSON.stringify(node)],
      );
    },
    async delete(path) {
      await db.query('DELETE FROM skills WHERE path = $1', [path]);
    },
  };
}
