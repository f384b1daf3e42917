import type { Suggestion } from '../anticipation';
import type { CapabilityInfo } from '../registry';
import { isQuestion } from './alignment';
import { capabilityIndex, type CapabilityHit } from './capabilityIndex';
import { booleanPhrases, wordsToArguments } from './fillArguments';
import { canonical, canonicalTerms, FILLER, lexicon } from './lexicon';
import { findNamedCapability, readArguments } from './match';
import { namesOf, stem, terms } from './words';

/**
 * One clause of a message ("import customers.csv", "then enrich them"), read
 * against the capabilities: the verb it asks for and its arguments, or why it
 * cannot be acted on. A clause is acted on only when every content word is
 * understood: a word no capability says is either a restriction the verb
 * cannot express ("only the software ones") or a request it cannot do ("send
 * a follow-up email"); both are said back, never widened.
 */
export type ClauseReading =
  | { kind: 'step'; capability: CapabilityInfo; args: Record<string, unknown>; why: 'named' | 'accepted' | 'question' | 'clear' | 'unclear'; others: readonly CapabilityInfo[] }
  | { kind: 'restrict'; capability: CapabilityInfo; args: Record<string, unknown>; phrase: string }
  | { kind: 'missing'; capability: CapabilityInfo; field: string }
  | { kind: 'invalid'; capability: CapabilityInfo; field: string; problem: 'max' | 'min' | 'pattern' | 'unknown-value'; bound?: number; value?: unknown; closest?: string }
  | { kind: 'cannot'; phrase: string; closest: readonly CapabilityInfo[] }
  | { kind: 'none'; closest: readonly CapabilityInfo[] };

export interface ClauseContext {
  capabilities: readonly CapabilityInfo[];
  suggestions?: readonly Suggestion[];
}

/** Preambles before the verb of a request. */
export const PREAMBLE =
  /^(?:(?:ok(?:ay)?|so|now|then|and|also|hey|please|pls|kindly|just|first|next|finally|after that|afterwards|can you|could you|would you|will you|would you mind|i want(?: you)? to|i'?d like(?: you)? to|i need(?: you)? to|i wanna|let'?s|go and|help me|no|nope|sorry|oops|wait|actually|i mean(?:t)?|rather|instead|what about|how about)\b[\s,.!:;-]*)+/i;

/** Verbs a request leads with that no capability here may do: they must not fall through to a look-alike. */
export const FOREIGN_VERBS = new Set(
  terms('add create make delete remove drop erase wipe destroy clear send email mail post publish buy order pay book call text write update edit change rename move copy merge undo revert cancel stop pause schedule print share download translate sort filter dedupe dedup deduplicate tag assign').map((t) => t),
);

const QUESTION_LEAD = /^(?:how|what|which|who|whom|where|when|why|is|are|do|does|did|have|has|any|whats|what's|who's)\b/i;

/** Reads one clause. */
export function readClause(text: string, context: ClauseContext): ClauseReading {
  const { capabilities } = context;
  // A name the preamble's words would eat ("Wait" is a title too) is read before them.
  const raw = text.trim();
  const early = findNamedCapability(raw, capabilities);
  const said = early && namedAtStart(early.capability, raw, early.end) ? raw : raw.replace(PREAMBLE, '');
  const body = said.replace(/[\s.!?,;:]+$/, '');
  // "can you dedupe the records?" is a request, not a question about the data.
  const question = isQuestion(text) && !/^\s*(?:(?:hey|so|ok(?:ay)?|please)[\s,]+)*(?:can|could|would|will) you\b/i.test(text);
  const index = capabilityIndex(capabilities);
  const searchText = canonicalTerms(body).join(' ');
  const hits = searchText ? index.search(searchText) : [];
  const closest = closestOf(hits);
  if (!body) return { kind: 'none', closest };

  const named = findNamedCapability(body, capabilities);
  if (named && namedAtStart(named.capability, body, named.end)) {
    const rest = body.slice(named.end);
    const args = { ...wordsToArguments(rest, named.capability), ...readArguments(said, named.capability, named.end) };
    // Only the words after the name, less JSON and key=value pairs, must be understood.
    // A string argument that took the sentence's rest ("Search notes: black cats") leaves nothing to check.
    const plain = (t: string) => t.replace(/[^\p{L}\p{N}]+/gu, ' ').trim().toLowerCase();
    const tookRest = Object.values(args).some((v) => {
      const value = typeof v === 'string' ? plain(v) : '';
      const left = plain(rest);
      return !!value && left.endsWith(value) && /^(?:(?:for|about|on|with)\s*)?$/.test(left.slice(0, left.length - value.length).trim());
    });
    const words = tookRest ? '' : rest.replace(/\{[\s\S]*\}/, ' ').replace(/[A-Za-z_][\w.-]*\s*[=:]\s*(?:"[^"]*"|'[^']*'|[^\s,;]+)/g, ' ');
    return settle(named.capability, args, 'named', words, context);
  }

  if (tokens(body).every((t) => FILLER.has(t.lower))) return { kind: 'none', closest };
  const lead = leadTerm(body);
  const anyVerb = (t: string) => capabilities.some((c) => index.actionTerms(c.name).has(t));
  const lex = lexicon(capabilities, context.suggestions);
  // A verb no capability has ("delete Barbara", "dedupe the records"); a lone unknown word is no request at all.
  const many = tokens(body).length > 1;
  if (!question && lead && !anyVerb(lead) && (FOREIGN_VERBS.has(lead) || (many && !lex.all.has(lead) && !FILLER.has(lead)))) {
    return { kind: 'cannot', phrase: body, closest };
  }
  const fits = hits.filter((h) => (question ? h.capability.kind === 'read' : true)).filter((h) => question || pointsAtVerb(lead, h, capabilities));
  // A question whose words fill one read's filter ("who is waiting for enrichment?") is that read's.
  let best: CapabilityHit | undefined = question ? readByFilter(body, capabilities, hits) : undefined;
  best ??= fits.find((h) => h.strong.length > 0);
  if (!best) return { kind: 'none', closest };
  const capability = best.capability;
  // A question is answered only by a read it can fill: "is anything added?" is no call to Add without numbers.
  const topic = topicFor(body, capability);
  const known = { ...wordsToArguments(body, capability), ...readArguments(body, capability), ...(topic ? { [topic.key]: topic.value } : {}) };
  if (question && missingRequired(capability, known).length) return { kind: 'none', closest };
  // A current suggestion in its own words ("import customers.csv") is accepting it.
  const suggestion = suggestionOf(body, capability, context.suggestions ?? []);
  const args = { ...(suggestion?.prefill ?? {}), ...wordsToArguments(body, capability), ...readArguments(body, capability) };
  const second = fits.find((h) => h !== best && h.strong.length > 0);
  const clear = !second || best.score >= 1.6 * second.score;
  const others = fits.filter((h) => h !== best).slice(0, 2).map((h) => h.capability);
  return settle(capability, args, question ? 'question' : suggestion ? 'accepted' : clear ? 'clear' : 'unclear', body, context, others);
}

/** Arguments found, then: free text, words not understood, a missing or out-of-range value. */
export function settle(
  capability: CapabilityInfo,
  args: Record<string, unknown>,
  why: 'named' | 'accepted' | 'question' | 'clear' | 'unclear',
  body: string,
  context: ClauseContext,
  others: readonly CapabilityInfo[] = [],
): Exclude<ClauseReading, { kind: 'none' }> {
  const free = freeField(capability, args);
  let query = false;
  if (free && why !== 'named') {
    const topic = topicOf(body) ?? leftoverSpan(body, capability, args, context);
    if (topic) args[free] = topic;
    query = !!topic;
  }
  // Free text (a search's query) takes any words; otherwise every word must be understood.
  if (!query && (why !== 'named' || !free)) {
    const left = leftover(body, capability, args, context);
    if (left.length) {
      const phrase = restriction(body, left, capability, context);
      return phrase ? { kind: 'restrict', capability, args, phrase } : { kind: 'cannot', phrase: body, closest: [capability, ...others] };
    }
  }
  const missing = missingRequired(capability, args)[0];
  if (missing) return { kind: 'missing', capability, field: missing };
  // A value out of range in a named request ("build report sections=99") goes to the card, which
  // refuses it with its problems listed; a described one is said back before anything is proposed.
  const invalid = why === 'named' ? null : checkValues(capability, args, context);
  if (invalid) return invalid;
  return { kind: 'step', capability, args, why, others };
}

/**
 * True when the message names the capability: by its title or machine name
 * anywhere, by its machine name read as words only at the start ("crm
 * export" in "look up the CRM export rules" is no request to export).
 */
function namedAtStart(capability: CapabilityInfo, body: string, end: number): boolean {
  const lower = body.toLowerCase();
  const form = namesOf(capability).find((f) => lower.slice(0, end).endsWith(f));
  if (!form) return false;
  if (form === capability.title.toLowerCase() || form === capability.name.toLowerCase()) return true;
  const before = lower.slice(0, end - form.length).trim();
  return !before || before.split(/\s+/).every((w) => /^(?:run|use|do|the|a|an|please|me)$/.test(w));
}

/** The request's leading content word (a value such as a file name is none). */
function leadTerm(body: string): string | undefined {
  if (QUESTION_LEAD.test(body)) return undefined;
  const first = tokens(body).find((t) => !FILLER.has(t.lower));
  if (!first || /[.\d]/.test(first.raw)) return undefined;
  return first.term;
}

/**
 * True when the request's leading word is one of the verb's own words, or
 * when the request has no leading verb the index knows at all (a noun-first
 * request: "the unscored ones, enrich them").
 */
function pointsAtVerb(lead: string | undefined, hit: CapabilityHit, capabilities: readonly CapabilityInfo[]): boolean {
  if (!lead) return hit.strong.length >= 2;
  const index = capabilityIndex(capabilities);
  if (index.actionTerms(hit.capability.name).has(lead)) return true;
  const leadsElsewhere = capabilities.some((c) => index.actionTerms(c.name).has(lead));
  return !leadsElsewhere && !FOREIGN_VERBS.has(lead) && hit.strong.length >= 2;
}

/** A question with no verb of its own ("which ones are done?"): the one read whose filter its words fill. */
function readByFilter(body: string, capabilities: readonly CapabilityInfo[], hits: readonly CapabilityHit[]): CapabilityHit | undefined {
  const reads = capabilities.filter((c) => c.kind === 'read' && Object.keys(wordsToArguments(body, c)).length > 0);
  if (reads.length !== 1) return undefined;
  return hits.find((h) => h.capability === reads[0]) ?? { capability: reads[0]!, score: 0, strong: [], terms: [] };
}

/** The two capabilities closest to the words, for an honest "I can … or …". */
function closestOf(hits: readonly CapabilityHit[]): CapabilityInfo[] {
  return hits.slice(0, 2).map((h) => h.capability);
}

/** The current suggestion for this verb whose every hint word the message says, if any. */
function suggestionOf(text: string, capability: CapabilityInfo, suggestions: readonly Suggestion[]): Suggestion | undefined {
  const words = new Set(terms(text));
  return suggestions.find((x) => x.capability === capability.name && terms(x.hint).length >= 2 && terms(x.hint).every((w) => words.has(w)));
}

type JsonProperty = { type?: string | string[]; title?: string; description?: string; pattern?: string; enum?: unknown[]; minimum?: number; maximum?: number; default?: unknown };

function propertiesOf(capability: CapabilityInfo): Record<string, JsonProperty> {
  return (capability.inputSchema.properties ?? {}) as Record<string, JsonProperty>;
}

/** The one required free-text field (a search query) not yet filled, or null. */
function freeField(capability: CapabilityInfo, args: Record<string, unknown>): string | null {
  const properties = propertiesOf(capability);
  const required = ((capability.inputSchema.required ?? []) as string[]).filter((k) => k in properties && !(k in args));
  const free = required.filter((k) => typeOf(properties[k]!) === 'string' && !properties[k]!.pattern && !properties[k]!.enum);
  return free.length === 1 ? free[0]! : null;
}

/** The words after "about", "for", "regarding" …: "search the notes for churn" → "churn". */
function topicOf(body: string): string | null {
  const m = body.match(/\b(?:about|regarding|concerning|mentioning|on the subject of|for|on)\s+(.+?)\s*[?.!]*$/i);
  return m?.[1]?.trim() || null;
}

type Token = { raw: string; lower: string; term: string };

function tokens(body: string): Token[] {
  return (body.match(/[\p{L}\p{N}][\p{L}\p{N}'’./:_-]*/gu) ?? []).map((raw) => {
    const clean = raw.replace(/[.'’:]+$/, '');
    const lower = clean.toLowerCase().replace(/['’](?:s|t|re|ll|ve|d)$/, '');
    return { raw: clean, lower, term: canonical(stem(lower)) };
  });
}

/** A token the verb does not understand: not a filler, not a value it took, not a word of its own text. */
function notUnderstood(t: Token, capability: CapabilityInfo, args: Record<string, unknown>, context: ClauseContext): boolean {
  // "the US records": a country, not "us".
  const acronym = /^[A-Z]{2,}$/.test(t.raw);
  if ((FILLER.has(t.lower) && !acronym) || t.lower.length < 2 || /^\d+(?:\.\d+)?$/.test(t.lower)) return false;
  const values = Object.values(args).filter((v): v is string => typeof v === 'string').map((v) => v.toLowerCase());
  if (values.some((v) => v === t.lower || v.split(/\s+/).includes(t.lower))) return false;
  if (/^(?:one|two|three|four|five|six|seven|eight|nine|ten|twenty|fifty|hundred)$/.test(t.lower)) return false;
  return !lexicon(context.capabilities, context.suggestions).of(capability.name).has(t.term);
}

/** The positions of the words the verb does not understand. */
function leftover(body: string, capability: CapabilityInfo, args: Record<string, unknown>, context: ClauseContext): number[] {
  return tokens(body).flatMap((t, i) => (notUnderstood(t, capability, args, context) ? [i] : []));
}

/** For a search: the span of words the verb does not know ("look up the CRM export rules in the notes" → "CRM export rules"). */
function leftoverSpan(body: string, capability: CapabilityInfo, args: Record<string, unknown>, context: ClauseContext): string | null {
  const all = tokens(body);
  const lead = all.findIndex((t) => !FILLER.has(t.lower));
  const outside = all.map((t, i) => i > lead && notUnderstood(t, capability, args, context));
  const first = outside.indexOf(true);
  if (first === -1) return null;
  const last = outside.lastIndexOf(true);
  // Words of the verb's own text between them stay in the query ("CRM export rules").
  return all.slice(first, last + 1).map((t) => t.raw).join(' ');
}

const CUES = new Set(['last', 'this', 'next', 'past', 'only', 'just', 'the', 'from', 'in', 'by', 'with', 'to', 'for', 'of', 'that', 'who', 'which', 'are', 'were', 'whose', 'where', 'except', 'but', 'those', 'added', 'came']);

/**
 * The restriction the words make, as the reply says it back ("only the
 * software ones"), or null when the words ask for something else altogether
 * (the object right after the verb is not understood: "send a follow-up email").
 */
function restriction(body: string, left: readonly number[], capability: CapabilityInfo, context: ClauseContext): string | null {
  const all = tokens(body);
  const first = left[0]!;
  const last = left[left.length - 1]!;
  const lead = all.findIndex((t) => !FILLER.has(t.lower) || /^(?:show|see|get|give|tell)$/.test(t.lower));
  const between = all.slice(lead + 1, first).map((t) => t.lower);
  const direct = between.every((w) => /^(?:a|an|the|my|our|some|me)$/.test(w));
  const own = lexicon(context.capabilities, context.suggestions).of(capability.name);
  const next = all[last + 1];
  const nounAfter = !!next && (own.has(next.term) || /^(?:ones?|people|companies|contacts|records|leads)$/.test(next.lower));
  // A verb the clause leads with that no capability has ("delete …") was caught earlier; an object not understood right after the verb is another request.
  if (lead !== -1 && first > lead && direct && !nounAfter && !isQuestion(body)) return null;
  let start = first;
  while (start > 0 && start > first - 3 && CUES.has(all[start - 1]!.lower)) start--;
  // "where company is Orbit Labs": back to the word that opens the condition, within four words.
  const opener = all.slice(Math.max(0, first - 4), first).map((t) => t.lower).lastIndexOf('where');
  if (opener !== -1) start = Math.min(start, Math.max(0, first - 4) + opener);
  const end = nounAfter ? last + 1 : last;
  const words = all.slice(start, end + 1).map((t) => t.raw);
  const head = words[0]?.toLowerCase() ?? '';
  if (/^(?:only|just|to|for|except)$/.test(head)) return words.join(' ');
  if (/^(?:the|those)$/.test(head)) return `only ${words.join(' ')}`;
  return `only the ones ${words.join(' ')}`;
}

function typeOf(property: JsonProperty): string | undefined {
  return Array.isArray(property.type) ? property.type.find((t) => t !== 'null') : property.type;
}

export function missingRequired(capability: CapabilityInfo, args: Record<string, unknown>): string[] {
  const properties = propertiesOf(capability);
  return ((capability.inputSchema.required ?? []) as string[]).filter((k) => !(k in args) && properties[k]?.default === undefined);
}

/** A value out of the field's range or form, said as the card would; a file name one slip from a known one is asked about. */
function checkValues(capability: CapabilityInfo, args: Record<string, unknown>, context: ClauseContext): Extract<ClauseReading, { kind: 'invalid' }> | null {
  for (const [field, value] of Object.entries(args)) {
    const p = propertiesOf(capability)[field];
    if (!p) continue;
    if (typeof value === 'number') {
      if (p.maximum !== undefined && value > p.maximum) return { kind: 'invalid', capability, field, problem: 'max', bound: p.maximum, value };
      if (p.minimum !== undefined && value < p.minimum) return { kind: 'invalid', capability, field, problem: 'min', bound: p.minimum, value };
    }
    if (typeof value === 'string' && p.pattern) {
      let ok = true;
      try {
        ok = new RegExp(p.pattern, 'u').test(value);
      } catch {
        ok = true;
      }
      if (!ok) return { kind: 'invalid', capability, field, problem: 'pattern', value };
      const known = knownValues(capability, field, p, context);
      const close = known.find((k) => k !== value && nearlyEqual(k, value));
      if (close && !known.includes(value)) return { kind: 'invalid', capability, field, problem: 'unknown-value', value, closest: close };
    }
  }
  return null;
}

/** Values a field is known to take: the examples its description gives ("e.g. customers.csv") and the suggestions' prefills. */
function knownValues(capability: CapabilityInfo, field: string, p: JsonProperty, context: ClauseContext): string[] {
  const fromDescription = [...(p.description ?? '').matchAll(/\be\.g\.\s*"?([\w.-]+?)"?(?=[\s,;)]|\.?$)/g)].map((m) => m[1]!);
  const fromSuggestions = (context.suggestions ?? []).flatMap((s) => (s.capability === capability.name && typeof s.prefill?.[field] === 'string' ? [s.prefill[field] as string] : []));
  return [...new Set([...fromDescription, ...fromSuggestions])];
}

function nearlyEqual(a: string, b: string): boolean {
  if (Math.abs(a.length - b.length) > 2) return false;
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  let j = 0;
  while (j < a.length - i && j < b.length - i && a[a.length - 1 - j] === b[b.length - 1 - j]) j++;
  return a.length - i - j <= 2 && b.length - i - j <= 2;
}

/** The booleans a reading's arguments set, as the phrases they mean ("pending", "not enriched" …). */
export function filterPhrases(capability: CapabilityInfo, args: Record<string, unknown>): string[] {
  const out: string[] = [];
  for (const [key, p] of Object.entries(propertiesOf(capability))) {
    if (typeOf(p) !== 'boolean' || typeof args[key] !== 'boolean') continue;
    out.push(...booleanPhrases(p.description ?? '')[String(args[key]) as 'true' | 'false']);
  }
  return out;
}

/** Sets the booleans of `capability` that mean what `phrases` mean ("those" after a list of pending records → unscored). */
export function argsFromPhrases(capability: CapabilityInfo, phrases: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (!phrases.length) return out;
  for (const [key, p] of Object.entries(propertiesOf(capability))) {
    if (typeOf(p) !== 'boolean') continue;
    const sides = booleanPhrases(p.description ?? '');
    for (const value of [true, false]) if (sides[String(value) as 'true' | 'false'].some((x) => phrases.includes(x))) out[key] = value;
  }
  return out;
}

const NUMBER = /\b(\d+|one|two|three|four|five|six|seven|eight|nine|ten|twenty|fifty|hundred)\b/gi;
const NUMBER_WORDS: Record<string, number> = { one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10, twenty: 20, fifty: 50, hundred: 100 };

/**
 * The arguments a piece of text gives a capability: from words through the
 * schema, `key=value` pairs, and a bare number ("I meant 3") for its one number field.
 */
export function wordsFor(text: string, capability: CapabilityInfo): Record<string, unknown> {
  const args = { ...wordsToArguments(text, capability), ...readArguments(text, capability) };
  const numeric = Object.entries(propertiesOf(capability)).filter(([, p]) => typeOf(p) === 'integer' || typeOf(p) === 'number');
  const numbers = [...text.matchAll(NUMBER)].map((m) => m[1]!.toLowerCase());
  if (numeric.length === 1 && numbers.length === 1 && !(numeric[0]![0] in args) && !/\.\w{2,4}\b/.test(text)) {
    args[numeric[0]![0]] = NUMBER_WORDS[numbers[0]!] ?? Number(numbers[0]);
  }
  return args;
}

/** The stems requests lead with: the first word of each title and example ("show", "enrich", "export"). */
export function verbStems(capabilities: readonly CapabilityInfo[]): Set<string> {
  const out = new Set<string>();
  for (const c of capabilities) {
    for (const phrase of [c.title, ...(c.examples ?? [])]) {
      const first = phrase.toLowerCase().match(/[\p{L}]+/u)?.[0];
      if (first && !FILLER.has(first)) out.add(canonical(stem(first)));
    }
  }
  return out;
}

/** A follow-up's new topic for the verb's free-text field ("and for onboarding?"), or null. */
export function topicFor(body: string, capability: CapabilityInfo): { key: string; value: string } | null {
  const properties = propertiesOf(capability);
  const required = ((capability.inputSchema.required ?? []) as string[]).filter((k) => k in properties);
  const free = required.filter((k) => typeOf(properties[k]!) === 'string' && !properties[k]!.pattern && !properties[k]!.enum);
  const value = free.length === 1 ? topicOf(body) : null;
  return value ? { key: free[0]!, value } : null;
}
