import type { Alignment } from '../model';
import type { CapabilityInfo } from '../registry';

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
}

/**
 * The alignment rules. `strict` proposes anything the user did not name;
 * `loose` runs it. Either way, a mutate that requires confirmation or is
 * destructive (MCP's default for a non-read-only tool) waits for approval,
 * unless the user already accepted it as a proposal.
 * @example
 * decideCall({ capability, alignment: 'strict', userText: 'add note call Ada' }); // { action: 'run' }
 */
export function decideCall({ capability, alignment, userText, authorized = false }: CallPolicyInput): CallDecision {
  if (authorized) return { action: 'run' };
  if (alignment === 'strict' && !isNamed(userText, capability)) {
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

/** The forms a user may name a capability by, longest first. */
export function namesOf(capability: Pick<CapabilityInfo, 'name' | 'title'>): string[] {
  const forms = new Set([normalise(capability.name), normalise(capability.title), normalise(capability.name.replace(/[._-]+/g, ' '))]);
  return [...forms].filter(Boolean).sort((a, b) => b.length - a.length);
}

function normalise(s: string): string {
  return s.toLowerCase().replace(/\s+/g, ' ').trim();
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
