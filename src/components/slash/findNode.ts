import type { CatalogNode } from '../../runtime/catalogNodes';

/** The node query that lists a path's namespace, e.g. `namespace:Agent` for `Agent/researcher`. */
export function namespaceQuery(path: string, nodeType?: string): string | null {
  const cut = path.lastIndexOf('/');
  if (cut <= 0) return null;
  return `namespace:${path.slice(0, cut)}${nodeType ? ` nodeType:${nodeType}` : ''} sort:order`;
}

/** A node path's last segment, shown when the node itself cannot be found. */
export function lastSegment(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

/** Finds the node at `path` among query results. */
export function nodeAt(nodes: readonly CatalogNode[] | undefined, path: string): CatalogNode | undefined {
  return nodes?.find((node) => node.path === path);
}
