import type { CapabilityInfo } from '../registry';
import { stem } from './words';

/**
 * Arguments from plain words, read through the capability's input schema
 * (JSON Schema): an enum value the message uses; a boolean whose description
 * quotes the words for it ('Only records not enriched yet ("unscored",
 * "pending", "not enriched")'); a number next to the field's name or to the
 * thing it counts ("limit 4", "3 records"); a string whose pattern a word of
 * the message fits (a file name). Nothing is guessed: a field the words do
 * not speak to is left out, so its default applies.
 * @example
 * wordsToArguments('enrich the unscored ones', enrich); // { unscored: true }
 */
export function wordsToArguments(text: string, capability: Pick<CapabilityInfo, 'inputSchema'>): Record<string, unknown> {
  const properties = (capability.inputSchema.properties ?? {}) as Record<string, JsonProperty>;
  const lower = ` ${text.toLowerCase().replace(/[“”]/g, '"')} `;
  const args: Record<string, unknown> = {};
  const numeric = Object.entries(properties).filter(([, p]) => isNumeric(p));
  for (const [key, property] of Object.entries(properties)) {
    const type = typeOf(property);
    if (property.enum) {
      const value = property.enum.find((v) => typeof v === 'string' && containsPhrase(lower, v.toLowerCase().replace(/[_-]+/g, ' ')));
      if (value !== undefined) args[key] = value;
    } else if (type === 'boolean') {
      const value = booleanFromWords(lower, key, property);
      if (value !== undefined) args[key] = value;
    } else if (type === 'integer' || type === 'number') {
      const value = numberFromWords(lower, key, property, numeric.length === 1);
      if (value !== undefined) args[key] = value;
    } else if (type === 'string' && property.pattern) {
      const value = patternWord(text, property.pattern);
      if (value !== undefined) args[key] = value;
    }
  }
  return args;
}

type JsonProperty = {
  type?: string | string[];
  title?: string;
  description?: string;
  enum?: unknown[];
  pattern?: string;
  minimum?: number;
  maximum?: number;
};

function typeOf(property: JsonProperty): string | undefined {
  return Array.isArray(property.type) ? property.type.find((t) => t !== 'null') : property.type;
}

function isNumeric(p: JsonProperty): boolean {
  const t = typeOf(p);
  return t === 'integer' || t === 'number';
}

/**
 * The phrases a boolean's description quotes, by the value they mean. A
 * clause that says "when false" / "false:" gives the false phrases; other
 * quoted phrases mean true.
 */
export function booleanPhrases(description: string): { true: string[]; false: string[] } {
  const out = { true: [] as string[], false: [] as string[] };
  for (const clause of description.replace(/[“”]/g, '"').split(/;|\.\s/)) {
    const phrases = [...clause.matchAll(/"([^"]+)"/g)].map((m) => m[1]!.toLowerCase().trim()).filter(Boolean);
    const side = /\b(?:when|if) false\b|\bfalse:/i.test(clause) ? 'false' : 'true';
    out[side].push(...phrases);
  }
  return out;
}

/** Words that turn the phrase after them around: "hasn't been enriched", "still need enriching", "without enrichment". */
const NEGATION = /^(?:not|no|never|without|need|await|wait|yet)$/;

/** The message as stems, "n't" as "not": phrases are found by their stems, so "enrichment" meets "enriched". */
function stemsOf(lower: string): string[] {
  return (lower.replace(/\b(has|have|is|are|do|does|did|was|were|had|wo|ca|could|should|would)n['’]?t\b/g, '$1 not').match(/[\p{L}\p{N}]+/gu) ?? []).map(phraseStem);
}

function phraseStem(word: string): string {
  const w = word.length > 8 && word.endsWith('ment') ? word.slice(0, -4) : word;
  return stem(w);
}

/** Where the phrase's stems occur in the message's. */
function occurrences(stems: readonly string[], phrase: readonly string[]): number[] {
  const at: number[] = [];
  for (let i = 0; i + phrase.length <= stems.length; i++) if (phrase.every((p, j) => stems[i + j] === p)) at.push(i);
  return at;
}

function booleanFromWords(lower: string, key: string, property: JsonProperty): boolean | undefined {
  const phrases = booleanPhrases(property.description ?? '');
  const stems = stemsOf(lower);
  // The longest phrase the message uses decides, so "not enriched" wins over "enriched"; a negation
  // in the three words before it ("hasn't been enriched") turns it around.
  let best: { value: boolean; length: number } | undefined;
  for (const value of [true, false]) {
    for (const phrase of phrases[String(value) as 'true' | 'false']) {
      const words = stemsOf(phrase);
      for (const at of occurrences(stems, words)) {
        const negated = words[0] !== 'not' && stems.slice(Math.max(0, at - 3), at).some((w) => NEGATION.test(w));
        const length = words.join(' ').length + (negated ? 4 : 0);
        if (!best || length > best.length) best = { value: negated ? !value : value, length };
      }
    }
  }
  if (best) return best.value;
  const name = key.replace(/_/g, ' ');
  if (containsPhrase(lower, `not ${name}`) || containsPhrase(lower, `un${name}`)) return false;
  return undefined;
}

const NUMBER_WORDS: Record<string, number> = { one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10, twenty: 20, fifty: 50, hundred: 100 };

function numberFromWords(lower: string, key: string, property: JsonProperty, onlyNumber: boolean): number | undefined {
  const num = String.raw`(\d+(?:\.\d+)?|${Object.keys(NUMBER_WORDS).join('|')})`;
  const names = [key.replace(/_/g, ' '), property.title?.toLowerCase()].filter((n): n is string => !!n);
  for (const name of names) {
    const m = lower.match(new RegExp(String.raw`\b${escape(name)}(?:\s+(?:of|to|at|is|=|:))?\s+${num}\b`));
    if (m) return toNumber(m[1]!);
  }
  if (!onlyNumber) return undefined;
  // The one number field and a count in the message: "the first 3", "up to 5", "3 records".
  const m = lower.match(new RegExp(String.raw`\b(?:first|top|up to|at most|only|just)\s+${num}\b`)) ?? lower.match(new RegExp(String.raw`(?:^|\s)${num}\s+(?:of (?:them|the)\s+)?[a-z]+s\b`));
  return m ? toNumber(m[1]!) : undefined;
}

function toNumber(raw: string): number {
  return NUMBER_WORDS[raw] ?? Number(raw);
}

function patternWord(text: string, pattern: string): string | undefined {
  let re: RegExp;
  try {
    re = new RegExp(pattern, 'u');
  } catch {
    return undefined;
  }
  for (const raw of text.split(/\s+/)) {
    const word = raw.replace(/^["'“‘(]+|["'”’),;:!?]+$|\.$/g, '');
    if (word && re.test(word) && /[.\d_-]/.test(word)) return word;
  }
  return undefined;
}

function containsPhrase(lower: string, phrase: string): boolean {
  if (!phrase) return false;
  return new RegExp(String.raw`(?:^|[^\p{L}\p{N}])${escape(phrase)}(?:$|[^\p{L}\p{N}])`, 'u').test(lower);
}

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
