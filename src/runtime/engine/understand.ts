import type { Suggestion } from '../anticipation';
import type { CapabilityInfo } from '../registry';
import { isQuestion, readAcceptance, type AcceptContext } from './alignment';
import { argsFromPhrases, filterPhrases, FOREIGN_VERBS, PREAMBLE, readClause, settle, topicFor, verbStems, wordsFor, type ClauseContext, type ClauseReading } from './clause';
import { capabilityIndex } from './capabilityIndex';
import { canonical, lexicon, repairTypos } from './lexicon';
import { findNamedCapability } from './match';
import { stem, terms } from './words';

/**
 * What the offline model makes of a message, before it acts. Conversation
 * moves (yes, thanks, hello, "what can you do", "summarise") are read by
 * their few fixed forms; typos are repaired against the capabilities' own
 * words; a message is split into its steps ("import x and then enrich them"),
 * each read by meaning through the capability index with its arguments from
 * the words; a message with no verb of its own is read against the previous
 * one ("and the enriched ones?", "sorry, I meant new-leads.csv"). A step it
 * cannot act on whole is said back (see `ClauseReading`), and then nothing runs.
 */
export interface Step {
  capability: CapabilityInfo;
  args: Record<string, unknown>;
  why: 'named' | 'accepted' | 'question' | 'clear' | 'unclear';
  others: readonly CapabilityInfo[];
}

export type SayBack = Exclude<ClauseReading, { kind: 'step' } | { kind: 'none' }>;

export type Reading =
  | { kind: 'plan'; steps: Step[] }
  | { kind: 'say'; clause: SayBack }
  | { kind: 'abilities' }
  | { kind: 'greeting' }
  | { kind: 'thanks' }
  | { kind: 'smalltalk'; about: 'wellbeing' | 'identity' | 'bye' | 'rude' }
  | { kind: 'decline' }
  | { kind: 'summary' }
  | { kind: 'undo' }
  | { kind: 'unknown'; closest: readonly CapabilityInfo[] };

export interface ReadContext extends AcceptContext {
  capabilities: readonly CapabilityInfo[];
  suggestions?: readonly Suggestion[];
  /** The user's message before this one in the conversation, for follow-ups and corrections. */
  previous?: string;
}

const ABILITIES = /\b(?:what (?:can|could|do|else can) (?:you|i) (?:do|ask|run)|what are you (?:able|for)|what (?:do|can) you (?:offer|support|help with)|(?:show|list) (?:me )?(?:your|the) (?:commands|capabilities|skills|options)|how can you help|what are (?:my|the) options)\b|^\s*(?:help|commands|capabilities|menu)\s*[?!.]*\s*$/i;
const GREETING = /^\s*(?:hi|hello|hey|hiya|howdy|yo|good (?:morning|afternoon|evening)|greetings)\b[\s\w,!.]{0,20}$/i;
const THANKS = /^\s*(?:(?:ok(?:ay)?|great|cool|nice|perfect|awesome|brilliant|lovely|excellent|wonderful|amazing)[\s,!.]+)?(?:thanks|thank you|thx|ty|cheers|ta|great|nice|perfect|awesome|cool|brilliant|lovely|excellent|neat)\b[\s\w,!.']{0,30}$/i;
const ACK = /^\s*(?:ok(?:ay)?|alright|all right|fine|got it|i see|right|k)[\s,.!]*(?:thanks?|thank you|cheers)?[\s,.!]*$/i;
const DECLINE = /^\s*(?:no|nope|nah|never ?mind|cancel(?: that)?|forget it|not now|don'?t|wait)\b[\s\w,!.']{0,30}$/i;
const SUMMARY = /\b(?:summari[sz]e|sum up|recap|summary of)\b(?!\s+(?:the\s+)?(?:notes?|documents?|file))|\bwhat (?:has|have) (?:happened|we done|you done)|\bwhat did (?:we|you) do\b|\bwhat happened\b|\bso far\b.*\?/i;
const THREAD = /\b(?:what|so far|happened|conversation|thread|chat|we|you|session)\b/i;
const UNDO = /\b(?:undo|revert|roll ?back|take (?:it|that) back)\b/i;
const SMALL_TALK: [RegExp, 'wellbeing' | 'identity' | 'bye' | 'rude'][] = [
  [/^\s*(?:how (?:are|r) (?:you|u)|how'?s (?:it going|your day|things|life)|how is (?:it going|your day)|how do you do|what'?s up|sup)\b/i, 'wellbeing'],
  [/^\s*(?:(?:hey|hi|hello)(?: there)?[\s,!]+)?(?:how (?:are|r) (?:you|u)|how'?s it going)\b/i, 'wellbeing'],
  [/^\s*(?:who|what) are you\b|^\s*are you (?:a |an )?(?:robot|bot|human|ai|person|real|machine|model)\b|^\s*what is this\b/i, 'identity'],
  [/^\s*(?:bye|goodbye|good night|see (?:you|ya)|later|cya)\b/i, 'bye'],
  [/\b(?:you(?:'re| are) (?:useless|slow|stupid|dumb|bad|terrible|annoying)|this (?:is )?(?:sucks|useless)|stupid bot)\b/i, 'rude'],
];
/** Starts a correction of the previous message or clause. */
const CORRECTION = /^(?:no|nope|sorry|oops|wait|no wait|actually|i mean(?:t)?|rather|instead|make it|change it to)\b/i;
/** Starts a follow-up that leans on the previous message. */
const FOLLOW_UP = /^(?:and|what about|how about|now|only|just|but|also|or|then|no|sorry|oops|actually|i meant?|make it|ok(?:ay)?)\b/i;
const PRONOUN = /\b(?:them|those|these|they|the ones|that list)\b/i;
/** Where a message divides into steps, the divider kept. */
const DIVIDER = /((?<=[?!])\s+|\s*;\s*|,?\s+and then\s+|,?\s+then\s+|,?\s+after that,?\s+|,?\s+afterwards,?\s+|,\s*and\s+|\s+and\s+|,\s*|\s+[-–—]\s+(?=(?:no|sorry|oops|wait|actually|i mean)\b))/i;

/** Reads a message. */
export function readMessage(text: string, context: ReadContext): Reading {
  const { capabilities } = context;
  const clean = text.trim();
  if (!clean) return { kind: 'unknown', closest: [] };
  if (clean.length > 300) return { kind: 'unknown', closest: [] };
  const lex = lexicon(capabilities, context.suggestions);
  const said = repairTypos(clean, lex);
  const accepted = readAccepted(said, context);
  if (accepted) return withPronouns(accepted, said, context);
  if (ABILITIES.test(said.replace(/\s+/g, ' '))) return { kind: 'abilities' };
  const small = SMALL_TALK.find(([re]) => re.test(said));
  if (small) return { kind: 'smalltalk', about: small[1] };
  if (GREETING.test(said)) return { kind: 'greeting' };
  if (THANKS.test(said) && !hasVerb(said, capabilities)) return { kind: 'thanks' };
  if (UNDO.test(said)) return { kind: 'undo' };
  if (SUMMARY.test(said)) {
    const data = summaryOfData(said, context);
    if (data) return data;
    if (THREAD.test(said) || !hasVerb(said.replace(SUMMARY, ''), capabilities)) return { kind: 'summary' };
  }
  if (terms(said).length === 0 && !/\d/.test(said)) return DECLINE.test(said) ? { kind: 'decline' } : { kind: 'unknown', closest: [] };

  // "sorry, I meant new-leads.csv", "customers.csv": a correction or a bare value answers the previous message.
  const bare = /^[\w.-]+\.\w{2,4}[.!?]*$|^\d+[.!?]*$/.test(said.replace(PREAMBLE, '').replace(/\s+please$/i, '').trim());
  if (context.previous && (CORRECTION.test(said) || bare || (FOLLOW_UP.test(said) && !startsStep(said.replace(PREAMBLE, ''), capabilities)))) {
    const follow = readFollowUp(said, context);
    if (follow) return follow;
  }
  const planned = readPlan(said, context);
  if (planned.kind === 'plan' || planned.kind === 'say') return withPronouns(planned, said, context);
  const follow = context.previous ? readFollowUp(said, context) : null;
  if (follow) return follow;
  if (DECLINE.test(said) || ACK.test(said)) return DECLINE.test(said) ? { kind: 'decline' } : { kind: 'thanks' };
  return planned;
}

/** "yes", "do that for the unscored ones", "the second one": the pending proposal or a suggestion, perhaps with another verb after it. */
function readAccepted(said: string, context: ReadContext): Reading | null {
  const { capabilities } = context;
  const accepted = readAcceptance(said, context);
  // A suggestion in its own words is a request like any other: the plan reads it, with its other steps.
  if (!accepted || (accepted.source === 'suggestion' && accepted.rest === said.trim())) return null;
  // "ok" or "ok, thanks" with nothing proposed is an acknowledgement, not a yes to a chip.
  if (accepted.source === 'suggestion' && ACK.test(said)) return { kind: 'thanks' };
  if (accepted.source === 'suggestion' && (THANKS.test(said) || SMALL_TALK.some(([re]) => re.test(accepted.rest)))) return { kind: 'thanks' };
  const capability = capabilities.find((c) => c.name === accepted.capability);
  if (!capability) return null;
  if (accepted.rest) {
    // The rest may pick another verb outright ("yes, and export them"): only words that say what it does count.
    const other = readClause(accepted.rest, context);
    if (other.kind === 'step' && other.capability.name !== capability.name && other.why !== 'question') {
      return { kind: 'plan', steps: [{ ...other, why: 'unclear', others: [] }] };
    }
    if (other.kind !== 'step' && other.kind !== 'none' && !('capability' in other && other.capability.name === capability.name)) {
      return { kind: 'say', clause: other };
    }
  }
  const args = { ...accepted.args, ...(accepted.rest ? wordsFor(accepted.rest, capability) : {}) };
  return { kind: 'plan', steps: [{ capability, args, why: 'accepted', others: [] }] };
}

/** A capability's verb anywhere in the text (so "great, now send them to the CRM" is no thanks). */
function hasVerb(text: string, capabilities: readonly CapabilityInfo[]): boolean {
  const index = capabilityIndex(capabilities);
  const words = terms(text).map(canonical);
  return words.some((w) => capabilities.some((c) => index.actionTerms(c.name).has(w))) || !!findNamedCapability(text, capabilities);
}

/** "summarize the records": a question about the data, answered by the read it names. */
function summaryOfData(said: string, context: ReadContext): Reading | null {
  const rest = said.replace(SUMMARY, ' ').replace(/\b(?:right now|now|please|for me)\b/gi, ' ').trim();
  if (!rest || THREAD.test(rest)) return null;
  const read = readClause(`how many ${rest}?`, context);
  return read.kind === 'step' && read.capability.kind === 'read' ? { kind: 'plan', steps: [{ ...read, why: 'question' }] } : null;
}

interface Segment {
  text: string;
  correction: boolean;
  /** A bare value after a step ("and new-leads.csv"): the same verb again. */
  repeat: boolean;
}

/** The message's steps, in order; the first clause it cannot act on whole is said back instead. */
function readPlan(said: string, context: ReadContext): Reading {
  const segments = segment(said, context.capabilities);
  const steps: Step[] = [];
  let closest: readonly CapabilityInfo[] = [];
  for (const seg of segments) {
    const previous = steps[steps.length - 1];
    const body = seg.text.replace(PREAMBLE, '').trim();
    if (previous && (seg.correction || seg.repeat)) {
      // A correction carries no verb of its own ("no wait, new-leads.csv"): it replaces what it names.
      const own = readClause(seg.text, context);
      if (seg.correction && own.kind === 'step' && own.capability.name !== previous.capability.name && own.why === 'named') {
        steps[steps.length - 1] = own;
        continue;
      }
      const changed = wordsFor(body, previous.capability);
      if (Object.keys(changed).length === 0) {
        if (own.kind === 'step') steps.push(own);
        else if (own.kind !== 'none') return { kind: 'say', clause: own };
        continue;
      }
      const args = seg.repeat ? { ...previous.args, ...changed } : { ...previous.args, ...changed };
      const next = settle(previous.capability, args, previous.why === 'accepted' ? 'clear' : previous.why, body, context);
      if (next.kind !== 'step') return { kind: 'say', clause: next };
      if (seg.repeat) steps.push(next);
      else steps[steps.length - 1] = { ...next, why: previous.why };
      continue;
    }
    const reading = readClause(seg.text, context);
    if (reading.kind === 'step') steps.push(reading);
    else if (reading.kind === 'none') closest = closest.length ? closest : reading.closest;
    else return { kind: 'say', clause: reading };
  }
  return steps.length ? { kind: 'plan', steps } : { kind: 'unknown', closest };
}

/** Divides a message at "and then", "then", commas …, keeping together what is one step ("the industry and website"). */
function segment(said: string, capabilities: readonly CapabilityInfo[]): Segment[] {
  const parts = said.split(DIVIDER);
  const segments: (Segment & { verb: boolean })[] = [];
  // "no wait," alone: the next piece is the correction.
  let correcting = false;
  for (let i = 0; i < parts.length; i += 2) {
    const piece = parts[i]!.trim();
    const divider = i > 0 ? parts[i - 1]! : '';
    if (!piece) continue;
    const body = piece.replace(PREAMBLE, '').trim();
    const correction: boolean = correcting || CORRECTION.test(piece);
    correcting = correction && !body && i + 2 < parts.length;
    if (correcting) continue;
    const bare = /^[\w.-]+\.\w{2,4}[.!?]*$/.test(body) || /^\d+[.!?]*$/.test(body);
    const verb = startsStep(body, capabilities);
    const last = segments[segments.length - 1];
    if (!last) segments.push({ text: piece, correction: false, repeat: false, verb });
    else if (correction) segments.push({ text: piece, correction: true, repeat: false, verb });
    else if (bare) segments.push({ text: piece, correction: false, repeat: true, verb });
    else if (verb && segments.length === 1 && !last.verb) Object.assign(last, { text: `${last.text}${divider}${piece}`, verb: true });
    else if (verb) segments.push({ text: piece, correction: false, repeat: false, verb });
    else last.text += `${divider}${piece}`;
  }
  return segments;
}

/** True when a piece leads with a verb: one a capability leads with, or one no capability has ("delete"). */
function startsStep(body: string, capabilities: readonly CapabilityInfo[]): boolean {
  const first = body.toLowerCase().match(/[\p{L}\p{N}]+/u)?.[0];
  if (!first) return false;
  const lead = canonical(stem(first));
  return verbStems(capabilities).has(lead) || FOREIGN_VERBS.has(lead);
}

/** "enrich those" after a list of the pending records: the filter carries over. */
function withPronouns(reading: Reading, said: string, context: ReadContext): Reading {
  if (reading.kind !== 'plan' || !context.previous || !PRONOUN.test(said)) return reading;
  const before = previousReading(context);
  if (!before) return reading;
  const phrases = filterPhrases(before.capability, before.args);
  const steps = reading.steps.map((s, i) => {
    if (i > 0) return s;
    const carried = argsFromPhrases(s.capability, phrases);
    const own = wordsFor(said, s.capability);
    return { ...s, args: { ...s.args, ...Object.fromEntries(Object.entries(carried).filter(([k]) => !(k in own))) } };
  });
  return { kind: 'plan', steps };
}

/** What the previous message asked for: its first step, or the verb it was said back about. */
function previousReading(context: ReadContext): { capability: CapabilityInfo; args: Record<string, unknown> } | null {
  if (!context.previous) return null;
  const before = readPlan(repairTypos(context.previous.trim(), lexicon(context.capabilities, context.suggestions)), { ...context, previous: undefined, pending: null });
  if (before.kind === 'plan') return before.steps[0]!;
  if (before.kind === 'say' && 'capability' in before.clause) return { capability: before.clause.capability, args: 'args' in before.clause ? before.clause.args : {} };
  return null;
}

/**
 * A message with no verb of its own, read against the previous one: new
 * arguments for the same verb ("just the first 2", "sorry, I meant
 * new-leads.csv"), the other side of its filter ("what about the others?"),
 * the same question again ("and how many are there?"), or a restriction it
 * cannot express ("and the ones from last week?").
 */
function readFollowUp(said: string, context: ReadContext): Reading | null {
  const before = previousReading(context);
  if (!before) return null;
  const { capability } = before;
  const body = said.replace(PREAMBLE, '').trim();
  const cue = FOLLOW_UP.test(said.trim()) || PRONOUN.test(said) || /\bones?\b/i.test(said);
  const args: Record<string, unknown> = { ...before.args, ...wordsFor(body, capability) };
  const own = wordsFor(body, capability);
  const topic = topicFor(body, capability);
  if (topic) {
    own[topic.key] = topic.value;
    args[topic.key] = topic.value;
  }
  let changed = Object.keys(own).length > 0;
  const properties = (capability.inputSchema.properties ?? {}) as Record<string, { type?: unknown }>;
  const flags = Object.keys(before.args).filter((k) => typeof before.args[k] === 'boolean' && !(k in own));
  if (flags.length && /\b(?:the )?(?:others|other ones|rest)\b|\b(?:aren'?t|isn'?t|not)\b/i.test(said)) {
    for (const k of flags) args[k] = !before.args[k];
    changed = true;
  } else if (/\b(?:all|everything|every one)\b/i.test(said)) {
    for (const k of Object.keys(properties)) if (typeof args[k] === 'boolean' && !(k in own)) delete args[k];
    changed = changed || flags.length > 0;
  }
  const question = isQuestion(said);
  if (!changed && !cue) return null;
  const reading = settle(capability, args, question && capability.kind === 'read' ? 'question' : 'clear', body, context);
  if (reading.kind === 'step') return changed || question ? { kind: 'plan', steps: [reading] } : null;
  if (reading.kind === 'restrict' && !cue) return null;
  return { kind: 'say', clause: reading };
}

export type { ClauseContext };
