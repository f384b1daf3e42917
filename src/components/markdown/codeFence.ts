import { createContext } from 'react';

/**
 * The source of the block a code block sits in when that block is the growing end of a
 * streaming reply, else null. `<Markdown>` provides it around the parsed block (a context, not a
 * prop, so that the block is not parsed again when the reply ends: only its code blocks hear it).
 */
export const LiveSource = createContext<string | null>(null);

/** Code fences, and remark-math's `$$` fences (a math block streams as a code block does). */
const OPENING = /^[\s>]*(`{3,}|~{3,}|\${2,})/;
const CLOSING = /^[\s>]*(`{3,}|~{3,}|\${2,})\s*$/;

/**
 * Whether the fenced code block (or `$$` math block) at `[start, end)` of `source` (its position in the parsed tree)
 * is still being written: nothing follows it and its last line is not a fence that closes it.
 * Only its first and last lines are read, so a long block costs no more than a short one. Not a
 * fence (indented code): false.
 * @example
 * fenceIsOpen('```ts\nconst a', 0, 13); // true
 * fenceIsOpen('```ts\nconst a\n```', 0, 17); // false
 */
export function fenceIsOpen(source: string, start: number, end: number): boolean {
  for (let i = end; i < source.length; i++) if (!/\s/.test(source[i]!)) return false; // text follows it
  const firstEnd = source.indexOf('\n', start);
  const opening = OPENING.exec(source.slice(start, firstEnd < 0 || firstEnd > end ? end : firstEnd));
  if (!opening) return false;
  let last = end;
  while (last > start && /\s/.test(source[last - 1]!)) last--;
  const lineStart = source.lastIndexOf('\n', last - 1) + 1;
  if (lineStart <= start) return true; // only the opening line so far
  const closing = CLOSING.exec(source.slice(lineStart, last));
  const fence = opening[1]!;
  return !(closing && closing[1]![0] === fence[0] && closing[1]!.length >= fence.length);
}
