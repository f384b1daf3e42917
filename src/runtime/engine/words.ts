import type { CapabilityInfo } from '../registry';

/**
 * The words the offline engine reads a message by: its content terms, and
 * the forms a capability is named by. Shared by alignment (is it named? is it
 * accepted?) and matching (which capability is meant?), which both stand on it.
 */

const STOP = new Set(
  (
    'a an and any are as at be by can could do does for from get give have how i if in into is it its just let like make me my no not now of ' +
    'on or our please run some than that the their them then there these they this to up us use want was we what when where which who why ' +
    'will with would you your yes ok okay hi hello hey thanks thank help'
  ).split(' '),
);

/** Lower-case content words with a light stem ("records" → "record", "imported" → "import"). */
export function terms(text: string): string[] {
  const out: string[] = [];
  for (const raw of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
    if (STOP.has(raw) || raw.length < 2) continue;
    out.push(stem(raw));
  }
  return out;
}

/** A light stem; a final "e" goes too, so "score", "scored" and "scoring" meet. */
export function stem(word: string): string {
  let w = word;
  if (w.length > 5 && w.endsWith('ing')) w = w.slice(0, -3);
  else if (w.length > 4 && w.endsWith('ies')) w = `${w.slice(0, -3)}y`;
  else if (w.length > 4 && w.endsWith('ed')) w = w.slice(0, -2);
  else if (w.length > 3 && w.endsWith('s') && !w.endsWith('ss')) w = w.slice(0, -1);
  return w.length > 3 && w.endsWith('e') ? w.slice(0, -1) : w;
}

/** The forms a user may name a capability by, longest first. */
export function namesOf(capability: Pick<CapabilityInfo, 'name' | 'title'>): string[] {
  const forms = new Set([normalise(capability.name), normalise(capability.title), normalise(capability.name.replace(/[._-]+/g, ' '))]);
  return [...forms].filter(Boolean).sort((a, b) => b.length - a.length);
}

/** Lower case, runs of white space as one space, trimmed. */
export function normalise(s: string): string {
  return s.toLowerCase().replace(/\s+/g, ' ').trim();
}
