import type { Suggestion } from '../anticipation';
import { type CapabilityResult } from '../envelope';
import { resultText } from '../results';
import { CONTROL, DECLINED_META, type ModelMessage, type ViolationNote } from '../model';
import type { CapabilityInfo } from '../registry';

/**
 * The offline model's sentences: short, in plain words, from the results'
 * own summaries and structured content. Grammar by `Intl.PluralRules` and
 * `Intl.ListFormat`; machine names never appear.
 */

type ToolMessage = Extract<ModelMessage, { role: 'tool' }>;

/** Made on first use: a page's first `Intl` object loads the locale data (about 11 ms in Chromium). */
let rules: Intl.PluralRules | undefined;
const plural = (n: number) => (rules ??= new Intl.PluralRules('en')).select(n);
const list = (items: readonly string[], type: 'conjunction' | 'disjunction' = 'conjunction') =>
  new Intl.ListFormat('en', { style: 'long', type }).format(items);

/** "1 record", "4 records" (the plural of a regular English noun unless given). */
export function count(n: number, one: string, other = `${one}s`): string {
  return `${n} ${plural(n) === 'one' ? one : other}`;
}

/** A clause as a sentence: a capital letter first, one full stop at the end. */
export function sentence(text: string): string {
  const t = text.trim().replace(/\s+/g, ' ');
  if (!t) return '';
  const s = t[0]!.toUpperCase() + t.slice(1);
  return /[.!?…]$/.test(s) ? s : `${s}.`;
}

/** "What can you do?": the titles, in one line. */
export function abilitiesReply(capabilities: readonly CapabilityInfo[]): string {
  if (capabilities.length === 0) return 'Nothing can be run in this workspace yet.';
  return `What I can do here: ${list(capabilities.map((c) => c.title))}. Ask in your own words.`;
}

/** The current suggestions as a sentence, or ''. */
export function suggestionsSentence(suggestions: readonly Suggestion[]): string {
  if (suggestions.length === 0) return '';
  return `You could ${list(suggestions.map((s) => s.hint.charAt(0).toLowerCase() + s.hint.slice(1)), 'disjunction')}.`;
}

/** One short sentence for what the model could not place, then the suggestions. */
export function unknownReply(suggestions: readonly Suggestion[], lead = "I'm not sure what you'd like me to do."): string {
  const next = suggestionsSentence(suggestions);
  return next ? `${lead} ${next}` : `${lead} Ask “what can you do?” to see what I can run.`;
}

/** Leads for a message the model could not place, taken in turn so two in a row differ. */
export const UNPLACED = ["I'm not sure what you'd like me to do.", "I didn't follow that.", "That's not something I can place.", "I couldn't work out what to run for that."];

/** A capability as a verb phrase: "list records", "export to CRM". */
export function verbPhrase(capability: Pick<CapabilityInfo, 'title'>): string {
  const t = capability.title.trim();
  return /^[A-Z][a-z]/.test(t) ? t[0]!.toLowerCase() + t.slice(1) : t;
}

/**
 * The two closest things the model can do, as a clause: the capabilities
 * the words came nearest to, then the current suggestions, then the first
 * capabilities. "" when there is nothing to offer.
 */
export function closestClause(closest: readonly CapabilityInfo[], suggestions: readonly Suggestion[], capabilities: readonly CapabilityInfo[]): string {
  const phrases: string[] = [];
  const add = (p: string) => {
    if (phrases.length < 2 && !phrases.some((x) => x.toLowerCase() === p.toLowerCase())) phrases.push(p);
  };
  for (const c of closest) add(verbPhrase(c));
  for (const s of suggestions) if (!closest.some((c) => c.name === s.capability)) add(s.hint.charAt(0).toLowerCase() + s.hint.slice(1));
  for (const c of capabilities) add(verbPhrase(c));
  return phrases.length ? list(phrases, 'disjunction') : '';
}

/** The honest reply for what the model cannot place: a lead (varied by `turn`) and the two closest things it can do. */
export function unplacedReply(turn: number, closest: readonly CapabilityInfo[], suggestions: readonly Suggestion[], capabilities: readonly CapabilityInfo[]): string {
  const lead = UNPLACED[turn % UNPLACED.length]!;
  const offer = closestClause(closest, suggestions, capabilities);
  return offer ? `${lead} I can ${offer}.` : `${lead} Nothing can be run in this workspace yet.`;
}

/** Short words for small talk. */
export function smallTalkReply(about: 'wellbeing' | 'identity' | 'bye' | 'rude'): string {
  switch (about) {
    case 'wellbeing':
      return "I'm well, thanks. Ready when you are.";
    case 'identity':
      return "I'm the offline model: I understand short requests about this workspace, with no network and no key.";
    case 'bye':
      return 'Bye for now.';
    case 'rude':
      return "Sorry about that: I only understand short, plain requests.";
    default:
      return about satisfies never;
  }
}

/** The one-line summary of a result: its display summary, else its first line. */
export function resultSummary(result: CapabilityResult): string {
  const hinted = result.display_hint?.summary?.trim();
  const first = resultText(result).trim().split('\n')[0]?.trim() ?? '';
  return hinted && !result.isError ? hinted : first;
}

/** The line a reply reports: the result's first line of text when it is a short sentence, else its display summary. */
function replyLine(result: CapabilityResult): string {
  // "6 records:" introduces a list the card shows: the colon does not end a sentence.
  const first = (resultText(result).trim().split('\n')[0]?.trim() ?? '').replace(/\s*:$/, '');
  if (first && first.length <= 160) return first;
  return result.display_hint?.summary?.trim() || first.slice(0, 160);
}

/** The reply after a capability ran: one or two sentences, never the raw output. */
export function resultReply(message: ToolMessage): string {
  const declined = message.result._meta?.[DECLINED_META];
  if (declined === 'denied' || declined === 'dismissed') return `Understood: I did not run ${message.title}.`;
  const summary = replyLine(message.result);
  let reply: string;
  if (message.result.isError) {
    // "Add was not run: …" already names it.
    reply = summary.startsWith(message.title) ? summary.replace(/\.?$/, '.') : `${message.title} did not finish: ${summary ? summary.replace(/\.?$/, '.') : 'it gave no reason.'}`;
  }
  else if (!summary) reply = `${message.title} finished.`;
  // A bare value ("3", "Imported") says more with the title before it.
  else reply = summary.split(/\s+/).length < 3 ? `${message.title}: ${summary.replace(/\.?$/, '.')}` : sentence(summary);
  const failed = message.violations ?? [];
  // Which check, and by how much: what went wrong, in a sentence, is the check's own row (said once).
  if (failed.length) reply += ` But ${failed.length === 1 ? 'a check' : `${failed.length} checks`} did not hold: ${failed.map(checkWords).join('; ')}.`;
  return reply;
}

/**
 * The answer to a question from a read's structured content, in one
 * sentence: "You have 4 records; all 4 are enriched." Falls back to the
 * result's summary.
 */
export function answerReply(message: ToolMessage): string {
  if (message.result.isError) return resultReply(message);
  const data = message.result.structuredContent ?? {};
  const summary = resultSummary(message.result).replace(/\s*:$/, '');
  const total = typeof data.total === 'number' ? data.total : typeof data.count === 'number' ? data.count : undefined;
  if (total === undefined) return summary ? sentence(summary) : `${message.title} found nothing to report.`;
  const head = message.result.display_hint?.summary?.trim();
  let reply = head && /^\d/.test(head) ? `You have ${head}` : sentence(summary).replace(/\.$/, '');
  if (total === 0 && head) reply = `You have no ${head.replace(/^0\s+/, '')}`;
  const items = Object.values(data).find((v): v is Record<string, unknown>[] => Array.isArray(v) && v.every((x) => x && typeof x === 'object'));
  const args = (message.args ?? {}) as Record<string, unknown>;
  if (items && items.length === total && total > 0) {
    const flags = Object.keys(items[0]!).filter((k) => items.every((x) => typeof x[k] === 'boolean') && !(k in args));
    for (const flag of flags.slice(0, 1)) {
      const yes = items.filter((x) => x[flag] === true).length;
      const word = flag.replace(/_/g, ' ');
      const clause = yes === total ? (total === 1 ? `it is ${word}` : `all ${total} are ${word}`) : yes === 0 ? `none ${total === 1 ? 'is' : 'are'} ${word} yet` : `${yes} of ${total} ${plural(yes) === 'one' ? 'is' : 'are'} ${word}`;
      reply += `; ${clause}`;
    }
  }
  return `${reply}.`;
}

/** A summary of the thread so far, from its structured results (what ran, what it did, which checks failed). */
export function summaryReply(messages: readonly ModelMessage[], subject = ''): string {
  const runs = messages.filter((m): m is ToolMessage => m.role === 'tool' && !m.capability.startsWith('@') && !m.result._meta?.[DECLINED_META]);
  const userTurns = messages.filter((m) => m.role === 'user').length;
  if (runs.length === 0) {
    return userTurns > 1 ? 'Nothing has run in this conversation yet.' : 'Nothing has happened in this conversation yet.';
  }
  const lines = runs.map((m) => {
    const what = resultSummary(m.result);
    const status = m.result.isError ? ' (did not finish)' : '';
    const checks = m.violations?.length ? ` — a check did not hold: ${m.violations.map((v) => sentence(v.message)).join(' ')}` : '';
    return `- ${m.title}${status}: ${what ? sentence(what) : 'finished.'}${checks}`;
  });
  const failed = runs.filter((m) => m.result.isError).length;
  const about = subject.trim().replace(/[.?!]+$/, '');
  const head = `${about ? `About ${about}: so far` : 'So far'}, ${count(runs.length, 'run')}${failed ? `, ${failed} of them unfinished` : ''}:`;
  return [head, ...lines].join('\n');
}

/** The acknowledgement of checks that failed since the last turn, or ''. */
export function acknowledge(violations: readonly ViolationNote[]): string {
  if (violations.length === 0) return '';
  const lines = violations.map((v) => `${v.title}: ${violationWords(v)}`);
  return `Before we go on: the last run finished but ${violations.length === 1 ? 'a check' : 'some checks'} did not hold. ${lines.join(' ')} I can run it again with corrected arguments if you like.`;
}

/** A failed check by its kind and its figures: "row count change (expected records +3, got records +0)". */
function checkWords(v: ViolationNote): string {
  return `${v.postcondition.replace(/_/g, ' ')} (expected ${v.expected}, got ${v.actual})`;
}

function violationWords(v: ViolationNote): string {
  const message = v.message.trim().replace(/\.?$/, '.');
  return `${message} (expected ${v.expected}, got ${v.actual}.)`;
}

/** True when the tool message is one of the engine's own verbs. */
export function isControl(message: ToolMessage): boolean {
  return message.capability === CONTROL.ask || message.capability === CONTROL.standing || message.capability === CONTROL.propose;
}
