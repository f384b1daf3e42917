import { canonicalJson } from '../canonicalJson';
import type { ThreadEventInput } from '../events';
import type { InvocationRow, Row, SkillOfferRow } from '../fold';
import type { CatalogNode } from '../catalogNodes';
import { findRepetition } from './repetition';
import type { SaveSkillInput } from './skillDirectory';
import { SKILL_WORD } from './skillNode';

/** What a `skill.offered` event carries, before it gets its id. */
export interface SkillOfferDraft {
  sequence: string[];
  titles: string[];
  /** The proposed slash word, without the slash. */
  name: string;
  description: string;
  instructions: string;
  /** The turn that repeated the sequence. */
  turn_id: string;
}

/**
 * After a turn: when the latest turn repeated a multi-step sequence of an
 * earlier one (`findRepetition`) and that sequence was never offered in this
 * thread, the offer to save it as a skill. The instructions list the steps and
 * the arguments of the latest run.
 * @example
 * const draft = draftSkillOffer(state.rows);
 * if (draft) emit({ type: 'skill.offered', offer_id: createId('offer'), ...draft });
 */
export function draftSkillOffer(rows: readonly Row[]): SkillOfferDraft | null {
  const repeated = findRepetition(rows);
  if (!repeated) return null;
  const key = repeated.sequence.join('\u0000');
  if (rows.some((r) => r.kind === 'skill_offer' && r.sequence.join('\u0000') === key)) return null;
  const turn = repeated.turns[1]!;
  const runs = rows.filter((r): r is InvocationRow => r.kind === 'invocation' && r.turn_id === turn && r.state === 'done');
  const steps = repeated.titles.map((title, i) => `${i + 1}. ${title} (${repeated.sequence[i]})`);
  const examples = runs.map((r) => `- ${r.title}: ${canonicalJson(r.args ?? {})}`);
  const instructions = [
    'Run these steps in order, one after another, and report what each one did in plain words:',
    ...steps,
    '',
    "Take the arguments from the user's task. Last time they were:",
    ...examples,
  ].join('\n');
  return {
    sequence: repeated.sequence,
    titles: repeated.titles,
    name: repeated.suggestedName,
    description: `Runs ${repeated.titles.join(', then ')}.`,
    instructions,
    turn_id: turn,
  };
}

/**
 * Reads the answer given when accepting an offer: empty keeps the proposed
 * name in the user's own namespace; `space` or `space:<name>` shares it with
 * the space; `<name>` or `user:<name>` picks another name (lowercased, spaces
 * become hyphens). Throws a message
 * the user can act on for a name that cannot be a slash word.
 * @example
 * readOfferAnswer('space:weekly-import', 'import-csv-then-enrich'); // → { id: 'weekly-import', scope: 'space' }
 */
export function readOfferAnswer(answer: string | undefined, proposed: string): { id: string; scope: 'user' | 'space' } {
  const text = (answer ?? '').trim();
  const match = /^(user|space)(?:\s*:\s*(.*))?$/i.exec(text);
  const scope = match ? (match[1]!.toLowerCase() as 'user' | 'space') : 'user';
  const typed = (match ? (match[2] ?? '') : text).trim().replace(/^\//, '').toLowerCase().replace(/\s+/g, '-');
  const name = typed || proposed;
  if (!SKILL_WORD.test(name)) {
    throw new Error(`"${name}" cannot be a slash word: use 1–64 lowercase letters, digits or hyphens (e.g. "weekly-import"). The offer is still open.`);
  }
  return { id: name, scope };
}

/**
 * The user's decision on a pending skill offer, as the event to emit:
 * `accept` saves the skill (the answer may rename it or share it with the
 * space) and gives `skill.saved`; `dismiss` gives `skill.offer_dismissed`.
 * Any other decision, or a name that cannot be a slash word, throws and
 * leaves the offer open.
 * @example
 * emit(resolveSkillOffer(offer, 'accept', 'space:team-import', skills.save));
 */
export function resolveSkillOffer(
  offer: SkillOfferRow,
  decision: string,
  answer: string | undefined,
  save: (input: SaveSkillInput) => CatalogNode,
): ThreadEventInput {
  if (decision === 'dismiss') return { type: 'skill.offer_dismissed', offer_id: offer.id };
  if (decision !== 'accept') throw new Error(`The skill offer "${offer.id}" takes accept or dismiss, not "${decision}".`);
  const { id, scope } = readOfferAnswer(answer, offer.name);
  const steps = offer.titles.join(', then ');
  const node = save({
    id,
    description: offer.description || `Runs ${steps}.`,
    instructions: offer.instructions ?? `Run ${steps}, in that order.`,
    scope,
  });
  return { type: 'skill.saved', offer_id: offer.id, path: node.path, name: node.name };
}
