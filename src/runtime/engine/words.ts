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

function stem(word: string): string {
  if (word.length > 5 && word.endsWith('ing')) return word.slice(0, -3);
  if (word.length > 4 && word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (word.length > 4 && word.endsWith('ed')) return word.slice(0, -2);
  if (word.length > 3 && word.endsWith('s') && !word.endsWith('ss')) return word.slice(0, -1);
  return word;
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
