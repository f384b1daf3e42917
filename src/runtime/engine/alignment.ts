import type { Suggestion } from '../anticipation';
import { CONTROL, DECLINED_META, type Alignment, type ModelMessage } from '../model';
import type { CapabilityInfo } from '../registry';
import { namesOf, normalise, terms } from './words';

/**
 * What the turn engine does with a capability the model wants to run:
 * run it, propose it for the user to accept, or ask for approval first.
 */
export type CallDecision =
  | { action: 'run' }
  | { action: 'propose'; reason: string }
  | { action: 'approve'; reason: string };

export interface CallPolicyInput {
  capability: CapabilityInfo;
  alignment: Alignment;
  /** What the user wrote in this turn (their message, and an answer to the turn's question). */
  userText: string;
  /** True when the user already accepted this very call (an accepted proposal). */
  authorized?: boolean;
  /**
   * True when the user's words accept this capability: "yes" / "do that" to
   * the pending proposal or the current suggestion, or a suggestion's own words.
   * Accepting counts as naming it under strict alignment.
   */
  accepted?: boolean;
  /** True when the user asked a question and this read-only capability answers it (it changes nothing). */
  answersQuestion?: boolean;
}

/**
 * The alignment rules. `strict` proposes anything the user did not name;
 * `loose` runs it. Either way, a mutate that requires confirmation or is
 * destructive (MCP's default for a non-read-only tool) waits for approval,
 * unless the user already accepted it as a proposal.
 * @example
 * decideCall({ capability, alignment: 'strict', userText: 'add note call Ada' }); // { action: 'run' }
 */
export function decideCall({ capability, alignment, userText, authorized = false, accepted = false, answersQuestion = false }: CallPolicyInput): CallDecision {
  if (authorized) return { action: 'run' };
  const readOnly = capability.kind === 'read' && capability.annotations.readOnlyHint !== false;
  if (alignment === 'strict' && !accepted && !(answersQuestion && readOnly) && !isNamed(userText, capability)) {
    return { action: 'propose', reason: `You did not ask for ${capability.title} by name, so it waits for you to accept it.` };
  }
  const confirm = confirmationReason(capability);
  if (confirm) return { action: 'approve', reason: confirm };
  return { action: 'run' };
}

/**
 * Why a capability must be approved before it runs, or null. A mutate is
 * destructive unless its annotations say `destructiveHint: false` or
 * `readOnlyHint: true` (MCP's defaults).
 */
export function confirmationReason(capability: CapabilityInfo): string | null {
  if (capability.kind !== 'mutate') return null;
  if (capability.requires_user_confirmation) return `${capability.title} changes your data and asks for your approval first.`;
  const { readOnlyHint, destructiveHint } = capability.annotations;
  if (readOnlyHint !== true && destructiveHint !== false) {
    return `${capability.title} may overwrite or delete data, so it needs your approval.`;
  }
  return null;
}

/**
 * True when the text names the capability: its machine name, its title, or
 * its name with separators read as spaces (`records.import_csv` → "records
 * import csv"), as whole words, ignoring case.
 */
export function isNamed(text: string, capability: Pick<CapabilityInfo, 'name' | 'title'>): boolean {
  const haystack = normalise(text);
  return namesOf(capability).some((needle) => containsWords(haystack, needle));
}

function containsWords(haystack: string, needle: string): boolean {
  let from = 0;
  while (true) {
    const at = haystack.indexOf(needle, from);
    if (at === -1) return false;
    const before = at === 0 ? ' ' : haystack[at - 1]!;
    const after = haystack[at + needle.length] ?? ' ';
    if (!/[\p{L}\p{N}_]/u.test(before) && !/[\p{L}\p{N}_]/u.test(after)) return true;
    from = at + 1;
  }
}

/** What the user's words could accept: the proposal still pending (written past) and the current suggestions. */
export interface AcceptContext {
  suggestions?: readonly Suggestion[];
  /** The proposal the user has not decided yet, if any. */
  pending?: { capability: string; args: unknown } | null;
}

export interface Acceptance {
  capability: string;
  /** The proposal's arguments or the suggestion's prefill. */
  args: Record<string, unknown>;
  source: 'proposal' | 'suggestion';
  /** The words after the accepting phrase ("for the unscored ones"). */
  rest: string;
}

/** Leading words that say yes. */
const YES = /^(?:(?:oh|well|ok so)\s+)?(?:y(?:es|eah|ep|up)|sure|ok(?:ay)?|alright|sounds good)\b[\s,.!]*(?:please\b[\s,.!]*)?/i;
/** A phrase that points at what to run. */
const DO =
  /^(?:please\s+)?(?:do (?:it|that|this|so|them)|go (?:ahead|for it)|run (?:it|that|this)|let'?s (?:do )?(?:it|that|this)|(?:that|this) one|the (?:first|second|third|last|1st|2nd|3rd)(?: one| suggestion| option)?|(?:first|second|third|last) one|please do)\b[\s,.!]*/i;
const ORDINALS: Record<string, number> = { first: 0, '1st': 0, second: 1, '2nd': 1, third: 2, '3rd': 2 };

/**
 * Reads an accepting reply ("yes", "yeah, do that for the unscored ones",
 * "go ahead", "the second one") or a suggestion repeated in its own words,
 * and says what it accepts: the pending proposal first, else the suggestion
 * it points at (the first by default). Null when the words accept nothing.
 * @example
 * readAcceptance('yeah, do that for the unscored ones', { suggestions }); // { capability: 'enrich.batch', rest: 'for the unscored ones', … }
 */
export function readAcceptance(text: string, { suggestions = [], pending = null }: AcceptContext): Acceptance | null {
  const trimmed = text.trim();
  const yes = trimmed.match(YES)?.[0] ?? '';
  const point = trimmed.slice(yes.length).match(DO)?.[0] ?? '';
  const phrase = yes + point;
  const rest = trimmed.slice(phrase.length).replace(/^[\s,.!:;-]+/, '').trim();
  // "ok, how many are there?" and "yes, but not now" are not a yes to a run.
  const accepts = phrase !== '' && !isQuestion(rest) && !/^(?:but|no|not|don'?t|never|wait|stop)\b/i.test(rest) && (point !== '' || rest === '' || yes !== '');
  if (accepts) {
    const ordinal = /\b(first|second|third|1st|2nd|3rd|last)\b/i.exec(phrase)?.[1]?.toLowerCase();
    if (pending && ordinal === undefined) return { capability: pending.capability, args: asArgs(pending.args), source: 'proposal', rest };
    if (suggestions.length) {
      const at = ordinal === undefined ? 0 : ordinal === 'last' ? suggestions.length - 1 : ORDINALS[ordinal]!;
      const s = suggestions[at];
      if (s) return { capability: s.capability, args: { ...(s.prefill ?? {}) }, source: 'suggestion', rest };
    }
    return null;
  }
  // A suggestion in its own words: every content word of its hint is in the message.
  if (!suggestions.length) return null;
  const words = new Set(terms(text));
  for (const s of suggestions) {
    const hint = terms(s.hint);
    if (hint.length >= 2 && hint.every((w) => words.has(w))) return { capability: s.capability, args: { ...(s.prefill ?? {}) }, source: 'suggestion', rest: text.trim() };
  }
  return null;
}

/**
 * The proposal the user wrote past: the engine gave its call a "not run"
 * result just before the current message, so it is still undecided.
 */
export function pendingProposal(messages: readonly ModelMessage[]): { capability: string; args: unknown } | null {
  let i = messages.length - 1;
  while (i >= 0 && messages[i]!.role !== 'user') i--;
  for (let j = i - 1; j >= 0; j--) {
    const m = messages[j]!;
    if (m.role !== 'tool') break;
    if (m.result._meta?.[DECLINED_META] !== 'superseded') continue;
    if (m.capability === CONTROL.propose) {
      const args = (m.args ?? {}) as { capability?: unknown; arguments?: unknown };
      if (typeof args.capability === 'string') return { capability: args.capability, args: args.arguments ?? {} };
    } else if (!m.capability.startsWith('@')) {
      // A call the engine held for the user (strict alignment or approval).
      return { capability: m.capability, args: m.args ?? {} };
    }
  }
  return null;
}

/** True when the message is a question ("how many …?", "which records are pending"). */
export function isQuestion(text: string): boolean {
  const t = text.trim().toLowerCase();
  return /\?\s*$/.test(t) || /^(?:how (?:many|much)|what(?:'s| is| are| was| were)?|which|who|where|when|is there|are there|do i|do we|does|did|have i|have we|any|summari[sz]e|sum up)\b/.test(t);
}

function asArgs(value: unknown): Record<string, unknown> {
  return value && typeof value === 'object' && !Array.isArray(value) ? { ...(value as Record<string, unknown>) } : {};
}
