import type { CatalogNode } from '../../runtime/catalogNodes';

/** Results kept per node list: every prefix typed on the way to a word, so Backspace is a lookup. */
const CACHED_RESULTS = 64;

interface NodeIndex {
  /** Slash word, name, description and keywords of each node, lower-cased. */
  hay: string[];
  /** Each node's slash word and name, lower-cased, for the starts-with ranking. */
  ids: string[];
  names: string[];
  /** Filter text → the matching positions (in the query's order) and the ranked nodes. */
  results: Map<string, { matched: number[]; nodes: readonly CatalogNode[] }>;
}

const indexes = new WeakMap<readonly CatalogNode[], NodeIndex>();

function indexOf(nodes: readonly CatalogNode[]): NodeIndex {
  let index = indexes.get(nodes);
  if (!index) {
    index = {
      hay: nodes.map((node) => [node.id, node.name, node.description, ...(node.keywords ?? [])].join('\n').toLowerCase()),
      ids: nodes.map((node) => node.id.toLowerCase()),
      names: nodes.map((node) => node.name.toLowerCase()),
      results: new Map(),
    };
    indexes.set(nodes, index);
  }
  return index;
}

/** The positions a shorter text already matched: typing on only narrows them (every old word is in a new one). */
function candidates(index: NodeIndex, key: string): number[] | null {
  let best: number[] | null = null;
  let bestLength = -1;
  for (const [text, result] of index.results) {
    if (text.length > bestLength && text.length < key.length && key.startsWith(text)) {
      best = result.matched;
      bestLength = text.length;
    }
  }
  return best;
}

/**
 * The nodes that match what the user typed after the slash, by slash word,
 * name, description or keywords. Nodes whose word starts with the text come
 * first; otherwise the query's order is kept (ordering lives in the query).
 * Every word of `text` must match. Each node list is indexed once; typing on
 * narrows the previous result and Backspace finds it cached, so a keystroke
 * over 5,000 skills stays well under a millisecond.
 * @example
 * filterNodes(skills, 'sum'); // [/summarize, …]
 */
export function filterNodes(nodes: readonly CatalogNode[], text: string): readonly CatalogNode[] {
  const key = text.toLowerCase().replace(/\s+/g, ' ').replace(/^ /, '');
  const words = key.split(' ').filter(Boolean);
  if (words.length === 0) return nodes;
  const index = indexOf(nodes);
  const cached = index.results.get(key);
  if (cached) {
    // Refresh its place so the prefixes of the word being typed stay in the cache.
    index.results.delete(key);
    index.results.set(key, cached);
    return cached.nodes;
  }
  const first = words[0]!;
  const matched: number[] = [];
  const prefixed: CatalogNode[] = [];
  const others: CatalogNode[] = [];
  const visit = (i: number) => {
    const hay = index.hay[i]!;
    for (const word of words) if (!hay.includes(word)) return;
    matched.push(i);
    (index.ids[i]!.startsWith(first) || index.names[i]!.startsWith(first) ? prefixed : others).push(nodes[i]!);
  };
  const narrowed = candidates(index, key);
  if (narrowed) for (const i of narrowed) visit(i);
  else for (let i = 0; i < nodes.length; i++) visit(i);
  const result = prefixed.length === 0 ? others : others.length === 0 ? prefixed : [...prefixed, ...others];
  index.results.set(key, { matched, nodes: result });
  if (index.results.size > CACHED_RESULTS) index.results.delete(index.results.keys().next().value!);
  return result;
}
