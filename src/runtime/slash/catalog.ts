import type { CatalogNode } from '../catalogNodes';
import { parseNodeQuery, type NodeQuery, type QueryContext } from './query';

/** The workspace's nodes (skills, agents, models, harnesses) behind the node query. */
export interface Catalog {
  /** Adds or replaces a node by path. */
  put(node: CatalogNode): void;
  /** Removes the node at a path; false when there was none. */
  remove(path: string): boolean;
  /** Runs a query text for this user and space; throws NodeQueryError on a bad query. */
  query(text: string, context: QueryContext): CatalogNode[];
  /** Runs a parsed query. */
  run(query: NodeQuery, context: QueryContext): CatalogNode[];
  get(path: string): CatalogNode | undefined;
}

/**
 * An in-memory catalog. Namespaces union in the query's order, and when two
 * namespaces hold a node with the same id and type, the earlier namespace wins
 * (a user's `/triage` shadows the space's, which shadows the platform's). A
 * node with an `owner` is visible to that user alone.
 * @example
 * const catalog = createCatalog(builtInNodes());
 * catalog.query('namespace:{user}/Skill|{space}/Skill|Skill nodeType:Skill sort:order', { user: 'alice', space: 'acme' });
 */
export function createCatalog(nodes: readonly CatalogNode[] = []): Catalog {
  const byPath = new Map<string, CatalogNode>();
  for (const node of nodes) byPath.set(node.path, node);

  const run = (query: NodeQuery, context: QueryContext): CatalogNode[] => {
    const rank = new Map(query.namespaces.map((ns, i) => [ns, i] as const));
    const kept = new Map<string, { node: CatalogNode; rank: number }>();
    for (const node of byPath.values()) {
      if (node.owner !== undefined && node.owner !== context.user) continue;
      const r = query.namespaces.length ? rank.get(node.namespace) : 0;
      if (r === undefined) continue;
      if (query.nodeTypes.length && !query.nodeTypes.includes(node.nodeType)) continue;
      if (query.words.length && !matchesWords(node, query.words)) continue;
      const key = `${node.nodeType}:${node.id}`;
      const current = kept.get(key);
      if (!current || r < current.rank) kept.set(key, { node, rank: r });
    }
    const out = [...kept.values()].map((k) => k.node);
    if (query.sort === 'order') out.sort((a, b) => (a.order ?? 0) - (b.order ?? 0) || compare(a.name, b.name));
    else if (query.sort === 'name') out.sort((a, b) => compare(a.name, b.name));
    return query.limit ? out.slice(0, query.limit) : out;
  };

  return {
    put(node) {
      byPath.set(node.path, node);
    },
    remove: (path) => byPath.delete(path),
    query: (text, context) => run(parseNodeQuery(text, context), context),
    run,
    get: (path) => byPath.get(path),
  };
}

function matchesWords(node: CatalogNode, words: readonly string[]): boolean {
  const haystack = `${node.id} ${node.name} ${node.description} ${(node.keywords ?? []).join(' ')}`.toLowerCase();
  return words.every((word) => haystack.includes(word));
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
