import type { Suggestion } from '../anticipation';
import type { CapabilityInfo } from '../registry';
import { isQuestion, readAcceptance, type AcceptContext } from './alignment';
import { capabilityIndex, type CapabilityHit } from './capabilityIndex';
import { wordsToArguments } from './fillArguments';
import { findNamedCapability, readArguments } from './match';
import { terms } from './words';

/**
 * What the offline model makes of a message, before it acts. Conversation
 * moves (yes, thanks, hello, "what can you do", "summarise") are read by
 * their few fixed forms; verbs are found by meaning through the capability
 * index (titles, examples, descriptions, field descriptions), and their
 * arguments from the words through the schema.
 */
export type Reading =
  | { kind: 'run'; capability: CapabilityInfo; args: Record<string, unknown>; why: 'named' | 'accepted' | 'question' | 'clear' | 'unclear'; others: readonly CapabilityInfo[] }
  | { kind: 'abilities' }
  | { kind: 'greeting' }
  | { kind: 'thanks' }
  | { kind: 'decline' }
  | { kind: 'summary' }
  | { kind: 'undo' }
  | { kind: 'unknown' };

export interface ReadContext extends AcceptContext {
  capabilities: readonly CapabilityInfo[];
  suggestions?: readonly Suggestion[];
}

const ABILITIES = /\b(?:what (?:can|could|do|else can) (?:you|i) (?:do|ask|run)|what are you (?:able|for)|what (?:do|can) you (?:offer|support|help with)|(?:show|list) (?:me )?(?:your|the) (?:commands|capabilities|skills|options)|how can you help|what are (?:my|the) options)\b|^\s*(?:help|commands|capabilities|menu)\s*[?!.]*\s*$/i;
const GREETING = /^\s*(?:hi|hello|hey|hiya|howdy|yo|good (?:morning|afternoon|evening)|greetings)\b[\s\w,!.]{0,20}$/i;
const THANKS = /^\s*(?:thanks|thank you|thx|cheers|ta|great|nice|perfect|awesome|cool|brilliant|lovely)\b[\s\w,!.]{0,30}$/i;
const DECLINE = /^\s*(?:no|nope|nah|never ?mind|cancel(?: that)?|forget it|not now|don'?t)\b[\s\w,!.]{0,30}$/i;
const SUMMARY = /\b(?:summari[sz]e|sum up|recap|summary of)\b(?!\s+(?:the\s+)?(?:notes?|documents?|file))|\bwhat (?:has|have) (?:happened|we done|you done)|\bwhat did (?:we|you) do\b|\bso far\b.*\?/i;
const UNDO = /\b(?:undo|revert|roll ?back|take (?:it|that) back)\b/i;
/** Preambles before the verb of a request. */
const PREAMBLE = /^(?:(?:ok(?:ay)?|so|now|then|and|also|hey|please|pls|kindly|just|can you|could you|would you|will you|would you mind|i want(?: you)? to|i'?d like(?: you)? to|i need(?: you)? to|i wanna|let'?s|go and|help me)\b[\s,]*)+/i;

/** Reads a message. */
export function readMessage(text: string, context: ReadContext): Reading {
  const { capabilities } = context;
  const clean = text.trim();
  if (!clean) return { kind: 'unknown' };
  const named = findNamedCapability(clean, capabilities);
  if (named) {
    const args = { ...wordsToArguments(clean.slice(named.end), named.capability), ...readArguments(clean, named.capability, named.end) };
    return { kind: 'run', capability: named.capability, args, why: 'named', others: [] };
  }
  const accepted = readAcceptance(clean, context);
  if (accepted) {
    const capability = capabilities.find((c) => c.name === accepted.capability);
    if (capability) {
      // The rest may pick another verb outright ("yes, and export them"): only words that say what it does count.
      const other = accepted.rest ? bestHit(accepted.rest, capabilities, false) : null;
      if (other && other.capability.name !== capability.name && other.strong.length > 0 && pointsAtVerb(accepted.rest, other, capabilities)) {
        return { kind: 'run', capability: other.capability, args: { ...wordsToArguments(accepted.rest, other.capability), ...readArguments(accepted.rest, other.capability) }, why: 'unclear', others: [] };
      }
      const args = { ...accepted.args, ...wordsToArguments(accepted.rest, capability), ...readArguments(accepted.rest, capability) };
      return { kind: 'run', capability, args, why: 'accepted', others: [] };
    }
  }
  if (ABILITIES.test(clean.replace(/\s+/g, ' '))) return { kind: 'abilities' };
  if (GREETING.test(clean)) return { kind: 'greeting' };
  if (THANKS.test(clean)) return { kind: 'thanks' };
  if (DECLINE.test(clean)) return { kind: 'decline' };
  if (UNDO.test(clean)) return { kind: 'undo' };
  if (SUMMARY.test(clean)) return { kind: 'summary' };
  if (terms(clean).length === 0) return { kind: 'unknown' };

  const question = isQuestion(clean);
  const hits = capabilityIndex(capabilities).search(clean).filter((h) => (question ? h.capability.kind === 'read' : true));
  const best = hits[0];
  if (!best || best.strong.length === 0) return { kind: 'unknown' };
  // A request ("add a record", "delete all the records") must use a word of what the verb says it does.
  if (!question && !pointsAtVerb(clean, best, capabilities)) return { kind: 'unknown' };
  const args = {
    ...suggestionPrefill(clean, best.capability, context.suggestions ?? []),
    ...wordsToArguments(clean, best.capability),
    ...readArguments(clean, best.capability),
  };
  const topic = topicArgument(clean, best.capability, args);
  if (topic) args[topic.key] = topic.value;
  // A question is answered only by a read it can fill: "is anything added?" is no call to Add without numbers.
  if (question && missingRequired(best.capability, args).length) return { kind: 'unknown' };
  const second = hits[1];
  const clear = !second || best.score >= 1.6 * second.score;
  const others = hits.slice(1, 3).map((h) => h.capability);
  return { kind: 'run', capability: best.capability, args, why: question ? 'question' : clear ? 'clear' : 'unclear', others };
}

function bestHit(text: string, capabilities: readonly CapabilityInfo[], question: boolean): CapabilityHit | null {
  const hits = capabilityIndex(capabilities).search(text).filter((h) => (question ? h.capability.kind === 'read' : true));
  return hits[0] ?? null;
}

/**
 * True when the request's leading word (after "please", "can you" …) is one
 * of the verb's own words (title, name, examples), or when the request has
 * no leading verb the index knows at all.
 */
function pointsAtVerb(text: string, hit: CapabilityHit, capabilities: readonly CapabilityInfo[]): boolean {
  const body = text.trim().replace(PREAMBLE, '');
  const lead = terms(body)[0];
  if (!lead) return false;
  const index = capabilityIndex(capabilities);
  if (index.actionTerms(hit.capability.name).has(lead)) return true;
  // The leading word is no verb's word (a noun-first request: "the unscored ones, enrich them"): let the other words decide.
  const leadsElsewhere = capabilities.some((c) => index.actionTerms(c.name).has(lead));
  return !leadsElsewhere && !KNOWN_VERBS.has(lead) && hit.strong.length >= 2;
}

/** Verbs a request leads with that no capability here may do: they must not fall through to a look-alike. */
const KNOWN_VERBS = new Set(
  terms('add create make new delete remove drop erase wipe destroy clear send email mail post publish buy order pay book call text write update edit change rename move copy merge undo revert cancel stop pause schedule print share upload download translate').map((t) => t),
);

/** A current suggestion's prefill when the message is about the same verb. */
function suggestionPrefill(text: string, capability: CapabilityInfo, suggestions: readonly Suggestion[]): Record<string, unknown> {
  const words = new Set(terms(text));
  const s = suggestions.find((x) => x.capability === capability.name && terms(x.hint).filter((w) => words.has(w)).length >= 2);
  return { ...(s?.prefill ?? {}) };
}

/**
 * The one required free-text field (a search query) from the words after
 * "about", "for", "on", "regarding" …: "find notes about the export" → "the export".
 */
function topicArgument(text: string, capability: CapabilityInfo, args: Record<string, unknown>): { key: string; value: string } | null {
  const properties = (capability.inputSchema.properties ?? {}) as Record<string, { type?: unknown; pattern?: string; enum?: unknown[] }>;
  const required = ((capability.inputSchema.required ?? []) as string[]).filter((k) => k in properties && !(k in args));
  const free = required.filter((k) => properties[k]!.type === 'string' && !properties[k]!.pattern && !properties[k]!.enum);
  if (free.length !== 1) return null;
  const m = text.match(/\b(?:about|regarding|concerning|mentioning|on the subject of|for|on)\s+(.+?)\s*[?.!]*$/i);
  const value = m?.[1]?.trim();
  return value ? { key: free[0]!, value } : null;
}

function missingRequired(capability: CapabilityInfo, args: Record<string, unknown>): string[] {
  const properties = (capability.inputSchema.properties ?? {}) as Record<string, { default?: unknown }>;
  return ((capability.inputSchema.required ?? []) as string[]).filter((k) => !(k in args) && properties[k]?.default === undefined);
}
