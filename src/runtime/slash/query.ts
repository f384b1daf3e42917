import type { NodeType } from '../catalogNodes';

/**
 * A parsed node query, e.g.
 * `namespace:{user}/Skill|{space}/Skill|Skill nodeType:Skill sort:order triage`.
 * Ordering and eligibility live here, never in a component.
 */
export interface NodeQuery {
  /** Namespaces to union (placeholders already substituted); empty = every namespace. */
  namespaces: string[];
  /** Node types to keep; empty = every type. */
  nodeTypes: NodeType[];
  sort: 'order' | 'name' | null;
  /** Free words: every one must appear in name, id, description or keywords. */
  words: string[];
  limit: number | null;
}

export interface QueryContext {
  /** The current user's id, for `{user}`. */
  user: string;
  /** The current space's id, for `{space}`. */
  space: string;
}

/** A query that cannot be read; the message names the token and what to write instead. */
export class NodeQueryError extends Error {
  override name = 'NodeQueryError';
}

const NODE_TYPES: readonly NodeType[] = ['Skill', 'Agent', 'Model', 'Harness'];
const KEYS = ['namespace', 'nodeType', 'sort', 'limit'] as const;

/**
 * Parses a node query; throws `NodeQueryError` with a clear message on bad input.
 * @example
 * parseNodeQuery('namespace:{user}/Skill|Skill nodeType:Skill sort:order', { user: 'alice', space: 'acme' });
 */
export function parseNodeQuery(text: string, context: QueryContext): NodeQuery {
  if (typeof text !== 'string') throw new NodeQueryError('A node query must be text.');
  const query: NodeQuery = { namespaces: [], nodeTypes: [], sort: null, words: [], limit: null };
  const tokens = text.trim().split(/\s+/).filter(Boolean);
  for (const token of tokens) {
    const colon = token.indexOf(':');
    if (colon === -1) {
      query.words.push(token.toLowerCase());
      continue;
    }
    const key = token.slice(0, colon);
    const value = token.slice(colon + 1);
    if (!(KEYS as readonly string[]).includes(key)) {
      throw new NodeQueryError(`Unknown query key "${key}" in "${token}". Use one of: ${KEYS.join(', ')}.`);
    }
    if (!value) throw new NodeQueryError(`"${token}" has no value after the colon.`);
    const alternatives = value.split('|');
    if (alternatives.some((a) => !a)) throw new NodeQueryError(`"${token}" has an empty alternative around "|".`);
    switch (key as (typeof KEYS)[number]) {
      case 'namespace':
        query.namespaces.push(...alternatives.map((a) => substitute(a, context, token)));
        break;
      case 'nodeType':
        for (const type of alternatives) {
          if (!(NODE_TYPES as readonly string[]).includes(type)) {
            throw new NodeQueryError(`Unknown nodeType "${type}". Use one of: ${NODE_TYPES.join(', ')}.`);
          }
          query.nodeTypes.push(type as NodeType);
        }
        break;
      case 'sort':
        if (value !== 'order' && value !== 'name') throw new NodeQueryError(`sort:${value} is not supported; use sort:order or sort:name.`);
        query.sort = value;
        break;
      case 'limit': {
        const n = Number(value);
        if (!Number.isInteger(n) || n < 1 || n > 10_000) throw new NodeQueryError(`limit:${value} must be a whole number from 1 to 10000.`);
        query.limit = n;
        break;
      }
    }
  }
  return query;
}

function substitute(pattern: string, context: QueryContext, token: string): string {
  const out = pattern.replace(/\{([^{}]*)\}/g, (_, name: string) => {
    if (name === 'user') return context.user;
    if (name === 'space') return context.space;
    throw new NodeQueryError(`Unknown placeholder {${name}} in "${token}"; use {user} or {space}.`);
  });
  if (/[{}]/.test(out)) throw new NodeQueryError(`Unbalanced braces in "${token}".`);
  return out;
}
