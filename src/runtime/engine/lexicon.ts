import type { Suggestion } from '../anticipation';
import type { CapabilityInfo } from '../registry';
import { fieldText } from './capabilityIndex';
import { stem, terms } from './words';

/**
 * The offline model's vocabulary: what each capability says about itself
 * (title, name, examples, description, fields, its suggestions' hints), the
 * words any request may carry without changing what it asks for (fillers),
 * a few plain synonyms, and typo repair against the vocabulary by
 * Damerau–Levenshtein distance (a swap of two letters is one slip, as
 * people type; MiniSearch's fuzzy matching counts it as two).
 */

/** Words that change nothing a request asks for: pronouns, auxiliaries, politeness, time-now. */
export const FILLER = new Set(
  (
    'a an the this that these those them they it its one ones all every everything each any some my mine our me i you your we us he she ' +
    'please pls kindly just only also too then now right away today still yet already again first second third last next after before afterwards finally ' +
    'so ok okay well oh hey hi sure yes yeah yep no not nope don dont doesn didn isn aren hasn haven won can cannot couldn wouldn shouldn ' +
    'be been being is are was were am do does did have has had having can could would should will shall may might must re ll ve ' +
    'want wanted wanna like need needs for to of in on at by with from about as into onto up down out over there here ' +
    'what which who whom whose where when why how many much more most less few lot lots thing things stuff something anything bit quick quickly ' +
    'actually sorry oops wait meant mean make it instead rather let lets ahead got me thanks thank great called named run without never ' +
    'other others rest both either neither if and or but than hasnt havent isnt arent dont doesnt didnt wont cant'
  ).split(' '),
);

/** Plain synonyms, by stem ("give" is "giv"): the word people use → the word capabilities use. */
const SYNONYMS: Record<string, string> = {
  contact: 'record',
  lead: 'record',
  customer: 'record',
  peopl: 'record',
  person: 'record',
  entry: 'record',
  entri: 'record',
  row: 'record',
  rec: 'record',
  compani: 'record',
  company: 'record',
  look: 'search',
  lookup: 'search',
  display: 'show',
  giv: 'show',
  get: 'show',
  view: 'show',
};

/** A term as the vocabulary knows it: its stem, through the synonyms. */
export function canonical(term: string): string {
  return SYNONYMS[term] ?? term;
}

/** Content terms of a text, through the synonyms. */
export function canonicalTerms(text: string): string[] {
  return terms(text).map(canonical);
}

export interface Lexicon {
  /** Stems a capability's own text uses (and its suggestions' hints). */
  of(name: string): ReadonlySet<string>;
  /** Every word (not stemmed) of every capability's text: what typos are repaired towards. */
  words: ReadonlySet<string>;
  /** Stems of every capability's text. */
  all: ReadonlySet<string>;
}

const cache = new WeakMap<readonly CapabilityInfo[], Lexicon>();

/** The lexicon of a capability list (built once per list; suggestions' hints join per call). */
export function lexicon(capabilities: readonly CapabilityInfo[], suggestions: readonly Suggestion[] = []): Lexicon {
  let base = cache.get(capabilities);
  if (!base) {
    const by = new Map<string, Set<string>>();
    const words = new Set<string>(CONVERSATION);
    for (const c of capabilities) {
      const text = [c.title, c.name.replace(/[._-]+/g, ' '), ...(c.examples ?? []), c.description, fieldText(c.inputSchema)].join(' ');
      by.set(c.name, new Set(terms(text)));
      for (const w of text.toLowerCase().match(/\p{L}+/gu) ?? []) if (w.length >= 3) words.add(w);
    }
    base = { of: (name) => by.get(name) ?? new Set(), words, all: new Set([...by.values()].flatMap((s) => [...s])) };
    cache.set(capabilities, base);
  }
  if (suggestions.length === 0) return base;
  const extra = new Map<string, string[]>();
  for (const s of suggestions) extra.set(s.capability, [...(extra.get(s.capability) ?? []), ...terms(s.hint)]);
  const from = base;
  return {
    of: (name) => new Set([...from.of(name), ...(extra.get(name) ?? [])]),
    words: from.words,
    all: new Set([...from.all, ...[...extra.values()].flat()]),
  };
}

/** Words people type to the model that no capability says: typos are repaired towards them too. */
const CONVERSATION = ['hello', 'thanks', 'thank', 'please', 'records', 'record', 'enriched', 'pending', 'export', 'import', 'search', 'notes'];

/** Verbs of requests no capability here may do: never repaired into a capability's word. */
const PROTECTED = new Set(
  'add create make new delete remove drop erase wipe destroy clear send email mail post publish buy order pay book call text write update edit change rename move copy merge undo revert cancel stop pause schedule print share upload download translate sort filter dedupe'.split(' '),
);

/**
 * The text with misspelt words repaired: a word no capability uses, of four
 * letters or more, becomes the vocabulary word with the same first letter
 * one slip away (two for words of seven letters or more; four-letter words
 * only by a swap), when exactly one is that close. File names, numbers and
 * acronyms are left alone.
 * @example
 * repairTypos('shwo me the recrods', lex); // 'show me the records'
 */
export function repairTypos(text: string, lex: Lexicon): string {
  return text.replace(/\b(?:teh|hte)\b/gi, 'the').replace(/\badn\b/gi, 'and').replace(/[\p{L}][\p{L}'’.-]*/gu, (raw) => {
    if (/[.\d_-]/.test(raw.replace(/[.'’]$/, '')) || /^[A-Z]{2,}$/.test(raw)) return raw;
    const word = raw.toLowerCase().replace(/['’].*$/, '');
    if (word.length < 4 || lex.words.has(word) || FILLER.has(word) || PROTECTED.has(word) || lex.all.has(canonical(stem(word)))) return raw;
    const limit = word.length >= 7 ? 2 : 1;
    let best: string | null = null;
    let bestDistance = Infinity;
    let tie = false;
    for (const candidate of lex.words) {
      if (candidate[0] !== word[0] || Math.abs(candidate.length - word.length) > limit) continue;
      const d = slips(word, candidate, limit);
      if (d > limit || (word.length === 4 && !(d === 1 && isSwap(word, candidate)))) continue;
      if (d < bestDistance) {
        best = candidate;
        bestDistance = d;
        tie = false;
      } else if (d === bestDistance && best !== null && stem(candidate) !== stem(best)) tie = true;
    }
    return best && !tie ? best : raw;
  });
}

function isSwap(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  const diff = [...a].flatMap((ch, i) => (ch === b[i] ? [] : [i]));
  return diff.length === 2 && diff[1] === diff[0]! + 1 && a[diff[0]!] === b[diff[1]!] && a[diff[1]!] === b[diff[0]!];
}

/**
 * Optimal string alignment distance (Damerau–Levenshtein without
 * overlapping edits), stopping once every path is past `limit`.
 */
export function slips(a: string, b: string, limit = Infinity): number {
  const m = a.length;
  const n = b.length;
  if (Math.abs(m - n) > limit) return limit + 1;
  let prev2: number[] = [];
  let prev = Array.from({ length: n + 1 }, (_, j) => j);
  for (let i = 1; i <= m; i++) {
    const row = [i];
    let least = i;
    for (let j = 1; j <= n; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, prev2[j - 2]! + 1);
      row.push(d);
      least = Math.min(least, d);
    }
    if (least > limit) return limit + 1;
    prev2 = prev;
    prev = row;
  }
  return prev[n]!;
}
