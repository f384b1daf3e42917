import type { CatalogNode } from '../catalogNodes';

/**
 * Where saved slash skills live (`{user}/Skill/<word>` and
 * `{space}/Skill/<word>` nodes), so they survive a restart. The skill
 * directory checks names, namespaces and limits before it writes; the store
 * only keeps nodes by path. Small on purpose, so another database can be
 * plugged in; methods may answer at once or with a promise.
 */
export interface SkillStore {
  /**
   * The saved skills of one namespace (`alice/Skill`, `acme/Skill`), by path;
   * every saved skill without one. A store that ignores `namespace` still
   * works (the loader keeps that namespace's only), it just reads more.
   */
  list(namespace?: string): readonly CatalogNode[] | Promise<readonly CatalogNode[]>;
  /** The saved skill at a path, or undefined. */
  get(path: string): CatalogNode | undefined | Promise<CatalogNode | undefined>;
  /** Adds or replaces the skill at `node.path`. */
  put(node: CatalogNode): void | Promise<void>;
  /** Removes the skill at a path, if any. */
  delete(path: string): void | Promise<void>;
}

/**
 * Saved skills in memory: the reference the SQLite store's suite is checked
 * against. Nodes are copied through JSON, as a database would.
 * @example
 * const store = createMemorySkillStore();
 * await loadStoredSkills(catalog, store);
 */
export function createMemorySkillStore(): SkillStore {
  const nodes = new Map<string, string>();
  const parse = (text: string) => JSON.parse(text) as CatalogNode;
  return {
    list: (namespace) =>
      [...nodes.keys()]
        .filter((path) => namespace === undefined || path.startsWith(`${namespace}/`))
        .sort()
        .map((path) => parse(nodes.get(path)!)),
    get(path) {
      const text = nodes.get(path);
      return text === undefined ? undefined : parse(text);
    },
    put(node) {
      nodes.set(node.path, JSON.stringify(node));
    },
    delete(path) {
      nodes.delete(path);
    },
  };
}
