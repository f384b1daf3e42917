import type { CatalogNode } from '../../runtime/slash/nodes';

const haystacks = new WeakMap<CatalogNode, string>();

function haystack(node: CatalogNode): string {
  let text = haystacks.get(node);
  if (text === undefined) {
    text = [node.id, node.name, node.description, ...(node.keywords ?? [])].join('\n').toLowerCase();
    haystacks.set(node, text);
  }
  return text;
}

/**
 * The nodes that match what the user typed after the slash, by slash word,
 * name, description or keywords. Nodes whose word starts with the text come
 * first; otherwise the query's order is kept (ordering lives in the query).
 * Every word of `text` must match.
 * @example
 * filterNodes(skills, 'sum'); // [/summarize, …]
 */
export function filterNodes(nodes: readonly CatalogNode[], text: string): readonly CatalogNode[] {
  const words = text.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return nodes;
  const first = words[0]!;
  const prefixed: CatalogNode[] = [];
  const others: CatalogNode[] = [];
  for (const node of nodes) {
    const hay = haystack(node);
    if (!words.every((word) => hay.includes(word))) continue;
    (node.id.startsWith(first) || node.name.toLowerCase().startsWith(first) ? prefixed : others).push(node);
  }
  return prefixed.length === 0 ? others : others.length === 0 ? prefixed : [...prefixed, ...others];
}
