import type { Suggestion } from '../anticipation';
import type { CapabilityInfo } from '../registry';
import { namesOf, terms } from './words';

/**
 * Deterministic matching of a message to capabilities, for the offline
 * model: first by name or title, then by the words of titles, descriptions
 * and the current suggestions' hints.
 */

export interface NamedMatch {
  capability: CapabilityInfo;
  /** Where the name or title ends in the message. */
  end: number;
}

/** The capability named in the text (machine name, title, or name read as words); the longest mention wins. */
export function findNamedCapability(text: string, capabilities: readonly CapabilityInfo[]): NamedMatch | null {
  const lower = text.toLowerCase();
  let best: (NamedMatch & { length: number }) | null = null;
  for (const capability of capabilities) {
    for (const needle of namesOf(capability)) {
      const at = indexOfWord(lower, needle);
      if (at !== -1 && (!best || needle.length > best.length)) {
        best = { capability, end: at + needle.length, length: needle.length };
      }
    }
  }
  return best && { capability: best.capability, end: best.end };
}

export interface ScoredMatch {
  capability: CapabilityInfo;
  score: number;
  /** The suggestion whose hint matched, with its prefill. */
  suggestion?: Suggestion;
}

/**
 * Capabilities whose words the message uses, best first. Title and name
 * words weigh 2, description words 1, a matching suggestion's hint 3 per word.
 * Capabilities scoring under 3 (one title word alone) are left out, so a
 * word used in passing does not pick a verb.
 */
export function scoreCapabilities(
  text: string,
  capabilities: readonly CapabilityInfo[],
  suggestions: readonly Suggestion[] = [],
): ScoredMatch[] {
  const words = new Set(terms(text));
  if (words.size === 0) return [];
  const scored: ScoredMatch[] = [];
  for (const capability of capabilities) {
    const strong = new Set([...terms(capability.title), ...terms(capability.name.replace(/[._-]+/g, ' '))]);
    const weak = new Set(terms(capability.description));
    let score = 0;
    for (const w of words) score += strong.has(w) ? 2 : weak.has(w) ? 1 : 0;
    let suggestion: Suggestion | undefined;
    for (const s of suggestions) {
      if (s.capability !== capability.name) continue;
      const overlap = terms(s.hint).filter((w) => words.has(w)).length;
      if (overlap >= 2) {
        score += 3 * overlap;
        suggestion = s;
        break;
      }
    }
    if (score >= 3) scored.push(suggestion ? { capability, score, suggestion } : { capability, score });
  }
  return scored.sort((a, b) => b.score - a.score || (a.capability.name < b.capability.name ? -1 : 1));
}

/** True when the best match is the only one or scores at least twice the next. */
export function isClearMatch(scored: readonly ScoredMatch[]): boolean {
  if (scored.length === 0) return false;
  if (scored.length === 1) return true;
  return scored[0]!.score >= 2 * scored[1]!.score;
}

function indexOfWord(haystack: string, needle: string): number {
  if (!needle) return -1;
  let from = 0;
  while (true) {
    const at = haystack.indexOf(needle, from);
    if (at === -1) return -1;
    const before = at === 0 ? ' ' : haystack[at - 1]!;
    const after = haystack[at + needle.length] ?? ' ';
    if (!/[\p{L}\p{N}_]/u.test(before) && !/[\p{L}\p{N}_]/u.test(after)) return at;
    from = at + 1;
  }
}

type JsonSchemaProperty = { type?: string | string[] };

/**
 * Arguments from the message: a JSON object, `key=value` / `key: value`
 * pairs for the schema's properties, or (for a named capability whose only
 * argument, or only required argument, is a string) the rest of the sentence
 * after its name, without a leading "for" / "about".
 */
export function readArguments(text: string, capability: CapabilityInfo, end?: number): Record<string, unknown> {
  const properties = (capability.inputSchema.properties ?? {}) as Record<string, JsonSchemaProperty>;
  const json = text.match(/\{[\s\S]*\}/);
  if (json) {
    try {
      const value: unknown = JSON.parse(json[0]);
      if (value && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
    } catch {
      // Not JSON after all: fall through to key=value pairs.
    }
  }
  const args: Record<string, unknown> = {};
  const pair = /([A-Za-z_][\w.-]*)\s*(?:=|:)\s*("([^"]*)"|'([^']*)'|[^\s,;]+)/g;
  for (let m = pair.exec(text); m; m = pair.exec(text)) {
    const key = m[1]!;
    if (!(key in properties)) {
      // Not an argument (e.g. "Add: a=1"): read on from its value, which may hold a real pair.
      pair.lastIndex = m.index + key.length;
      continue;
    }
    args[key] = coerce(m[3] ?? m[4] ?? m[2]!, properties[key]!);
  }
  // The sentence's rest fills the one string argument, or the one required string when the others are optional.
  const keys = Object.keys(properties);
  const required = ((capability.inputSchema.required ?? []) as string[]).filter((k) => k in properties);
  const candidates = keys.length === 1 ? keys : required.length === 1 ? required : [];
  const target = candidates.length === 1 && typeOf(properties[candidates[0]!]!) === 'string' ? candidates[0]! : null;
  if (end !== undefined && Object.keys(args).length === 0 && target) {
    const rest = text.slice(end).replace(/^[\s:,.\-–—]+/, '').replace(/^(?:for|about|on|with)\s+/i, '').replace(/[\s.,;:!]+$/, '').trim();
    if (rest) args[target] = rest;
  }
  return args;
}

function typeOf(property: JsonSchemaProperty): string | undefined {
  return Array.isArray(property.type) ? property.type.find((t) => t !== 'null') : property.type;
}

function coerce(raw: string, property: JsonSchemaProperty): unknown {
  switch (typeOf(property)) {
    case 'number':
    case 'integer': {
      const n = Number(raw.replace(/[?!.,;]+$/, ''));
      return Number.isFinite(n) && raw.trim() !== '' ? n : raw;
    }
    case 'boolean':
      return raw === 'true' ? true : raw === 'false' ? false : raw;
    default:
      return raw;
  }
}
