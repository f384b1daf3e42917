import MiniSearch from 'minisearch';
import type { CapabilityInfo } from '../registry';
import { terms } from './words';

/**
 * A full-text index (MiniSearch: BM25, prefix and fuzzy matching) over what
 * a capability says about itself: its title and name, the example phrasings
 * users ask for it with, its description, and its input fields' titles,
 * descriptions and enum values. The offline model finds verbs by meaning
 * through it; nothing here is written for one workspace's verbs.
 */

interface IndexedCapability {
  id: string;
  title: string;
  examples: string;
  description: string;
  fields: string;
}

export interface CapabilityHit {
  capability: CapabilityInfo;
  score: number;
  /** Query terms found in the title, name or examples: what the capability says it does. */
  strong: readonly string[];
  /** Every query term found anywhere. */
  terms: readonly string[];
}

export interface CapabilityIndex {
  search(text: string): CapabilityHit[];
  /** The action words (title, name, examples) of a capability, stemmed. */
  actionTerms(name: string): ReadonlySet<string>;
}

const cache = new WeakMap<readonly CapabilityInfo[], CapabilityIndex>();

/** The index of a capability list (built once per list). */
export function capabilityIndex(capabilities: readonly CapabilityInfo[]): CapabilityIndex {
  let index = cache.get(capabilities);
  if (!index) {
    index = buildIndex(capabilities);
    cache.set(capabilities, index);
  }
  return index;
}

const STRONG_FIELDS = new Set(['title', 'examples']);

function buildIndex(capabilities: readonly CapabilityInfo[]): CapabilityIndex {
  const byName = new Map(capabilities.map((c) => [c.name, c]));
  const search = new MiniSearch<IndexedCapability>({
    fields: ['title', 'examples', 'description', 'fields'],
    processTerm: (term) => {
      const out = terms(term);
      return out.length ? out : null;
    },
    searchOptions: {
      boost: { title: 3, examples: 2.5, description: 1, fields: 0.6 },
      // Prefix and typo tolerance only on longer words: "add" must not find "address".
      prefix: (term) => term.length >= 5,
      fuzzy: (term) => (term.length >= 6 ? 0.2 : false),
      combineWith: 'OR',
    },
  });
  const actions = new Map<string, Set<string>>();
  search.addAll(
    capabilities.map((c) => {
      const title = `${c.title} ${c.name.replace(/[._-]+/g, ' ')}`;
      const examples = (c.examples ?? []).join(' \n ');
      actions.set(c.name, new Set(terms(`${title} ${examples}`)));
      return { id: c.name, title, examples, description: c.description, fields: fieldText(c.inputSchema) };
    }),
  );
  return {
    search(text) {
      if (terms(text).length === 0) return [];
      return search.search(text).flatMap((hit) => {
        const capability = byName.get(String(hit.id));
        if (!capability) return [];
        const strong = Object.entries(hit.match)
          .filter(([, fields]) => fields.some((f) => STRONG_FIELDS.has(f)))
          .map(([term]) => term);
        return [{ capability, score: hit.score, strong, terms: hit.terms }];
      });
    },
    actionTerms: (name) => actions.get(name) ?? new Set(),
  };
}

type JsonProperty = { title?: string; description?: string; enum?: unknown[] };

/** The words of an input schema: each property's name, title, description and enum values. */
export function fieldText(schema: Record<string, unknown>): string {
  const properties = (schema.properties ?? {}) as Record<string, JsonProperty>;
  return Object.entries(properties)
    .map(([key, p]) => [key.replace(/_/g, ' '), p.title, p.description, ...(p.enum ?? []).map(String)].filter(Boolean).join(' '))
    .join(' \n ');
}
