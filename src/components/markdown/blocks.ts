/**
 * Pure helpers behind `<Markdown>`: split a message into top-level blocks so a
 * streamed reply re-parses only its last block, and close what a half-streamed
 * block leaves open so it does not flicker between literal and formatted text.
 */

/** A code fence, or a math one (`$$`, remark-math): blank lines inside either do not end its block. */
const FENCE = /^ {0,3}(`{3,}|~{3,}|\${2,})/;
const BLANK = /^\s*$/;

/**
 * Blocks separated by blank lines outside fenced code. A blank line followed
 * by an indented line stays inside the block (a list item's continuation).
 * @example
 * splitBlocks('# Title\n\nSome text\n\n```\ncode\n\nmore\n```'); // 3 blocks
 */
export function splitBlocks(text: string): string[] {
  const lines = text.split('\n');
  const blocks: string[] = [];
  let current: string[] = [];
  let fence: { char: string; length: number } | null = null;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const marker = FENCE.exec(line);
    if (fence) {
      if (marker && marker[1]![0] === fence.char && marker[1]!.length >= fence.length && BLANK.test(line.slice(marker[0].length))) fence = null;
      current.push(line);
      continue;
    }
    if (marker && opens(line, marker)) {
      fence = { char: marker[1]![0]!, length: marker[1]!.length };
      current.push(line);
      continue;
    }
    if (BLANK.test(line)) {
      const next = lines[i + 1];
      if (next !== undefined && /^\s+\S/.test(next) && current.length) {
        current.push(line);
        continue;
      }
      if (current.length) blocks.push(current.join('\n'));
      current = [];
      continue;
    }
    current.push(line);
  }
  if (current.length) blocks.push(current.join('\n'));
  return blocks;
}

/**
 * Whether a fence marker starts a fence: a `$$` line with another `$` after it (`$$x^2$$`) is a
 * paragraph's inline math, not a math block (remark-math: its meta may not hold a `$`).
 */
const opens = (line: string, marker: RegExpExecArray): boolean => marker[1]![0] !== '$' || !line.includes('$', marker[0].length);

/** Whether the block ends inside a fenced code block (or `$$` math block) that has not been closed yet. */
export function endsInOpenFence(block: string): boolean {
  let fence: { char: string; length: number } | null = null;
  for (const line of block.split('\n')) {
    const marker = FENCE.exec(line);
    if (!marker) continue;
    if (!fence) {
      if (opens(line, marker)) fence = { char: marker[1]![0]!, length: marker[1]!.length };
    }
    else if (marker[1]![0] === fence.char && marker[1]!.length >= fence.length && BLANK.test(line.slice(marker[0].length))) fence = null;
  }
  return fence !== null;
}

/**
 * The last block of a reply that is still streaming, made safe to render:
 * unclosed `**`, `__`, `~~` and inline code are closed, a half-typed link
 * shows its label, and a trailing `-`/`=` line does not turn the line above
 * into a heading for one frame. Open code fences are left alone (they already
 * render as code to the end).
 * @example
 * completePartialBlock('Some **bold'); // 'Some **bold**'
 */
export function completePartialBlock(block: string): string {
  // Nothing to close without a syntax character (the common case, checked in one pass).
  if (!SYNTAX.test(block) || endsInOpenFence(block)) return block;
  let text = block;
  const lines = text.split('\n');
  if (lines.length > 1 && /^ {0,3}[-=]+\s*$/.test(lines[lines.length - 1]!) && !BLANK.test(lines[lines.length - 2]!)) {
    text = lines.slice(0, -1).join('\n');
  }
  text = text.replace(/\[([^\]\n]*)\]\([^)\s]*$/, '$1').replace(/!?\[([^\]\n]*)$/, '$1');
  // Inline code first: markers inside a code span are literal.
  const ticks = text.match(/`+/g) ?? [];
  if (ticks.length % 2 === 1) {
    const last = ticks[ticks.length - 1]!;
    return text.endsWith(last) ? text.slice(0, -last.length) : `${text}${last}`;
  }
  const outsideCode = text.replace(/`[^`]*`/g, '');
  let closing = '';
  for (const marker of ['~~', '**', '__']) {
    const count = outsideCode.split(marker).length - 1;
    if (count % 2 === 0) continue;
    // A marker with nothing after it yet would show as literal text for a frame: hold it back.
    if (text.endsWith(marker)) text = text.slice(0, -marker.length);
    else closing = marker + closing;
  }
  const lone = outsideCode.replace(/\*\*/g, '').replace(/^\s*\*\s/gm, '');
  const stars = lone.match(/\*(?=\S)/g)?.length ?? 0;
  if ((lone.match(/\*/g)?.length ?? 0) % 2 === 1 && stars > 0 && !text.endsWith('*')) closing = '*' + closing;
  return (closing ? text.replace(/\s+$/, '') : text) + closing;
}

/**
 * What can start markdown syntax: emphasis, code, links, entities, escapes, tables, breaks;
 * an autolink (`<scheme:`; an email one has its `@`); a `<` or `>` at the start of a line (an
 * HTML block, a quote). A `<` anywhere else is text or inline HTML, and inline HTML shows as
 * its text here (no raw HTML), so `a < b`, `Vec<T>` or `<b>` in a sentence render as typed.
 * Math: a `$` with a non-space character after it and another `$` later (`$x$`, `$$`; see
 * mathSyntax.ts), so a lone price (`$3 left`) is plain text.
 */
const SYNTAX_MID_LINE = /[*_`[\]&|~\\!=@\n\r\t]|\$(?=\S)[^$]*\$|:\/\/|www\.|<[a-z][a-z0-9+.-]{1,31}:/i;
const SYNTAX = new RegExp(`${SYNTAX_MID_LINE.source}|^ {0,3}[<>]`, 'i');
/** How far back a grown block's new text is scanned from: the longest marker that may straddle its old end (`<` + 32 scheme characters + `:`). */
const STRADDLE = 33;
/** Line starts that make a block something other than a paragraph: headings, quotes, lists, rules, code, HTML. */
const BLOCK_START = /^(#{1,6}(\s|$)|[-+<>]|\d+[.)](\s|$))/;

/**
 * True when the block is one plain paragraph: markdown would render it as
 * `<p>` + the same text, so the parser can be skipped (most short replies and
 * long histories of plain text).
 * @example
 * isPlainParagraph('Saved note 3.'); // true
 * isPlainParagraph('Saved **note** 3.'); // false
 * isPlainParagraph('Saved note 3. '); // true: trailing spaces are not shown (`plainText`)
 */
export function isPlainParagraph(block: string, first: number = firstSyntax(block)): boolean {
  if (first >= 0 || BLOCK_START.test(block)) return false;
  const text = plainText(block);
  return text !== '' && text === text.trim();
}

/**
 * Where the first character that can start markdown syntax is in the block, or -1 (`SYNTAX`).
 * @example
 * firstSyntax('plain, then *this*'); // 12
 */
export const firstSyntax = (block: string): number => block.search(SYNTAX);
/** `firstSyntax` of text that starts inside a line (a block's new text): its start is no line start. */
const firstSyntaxMidLine = (text: string): number => text.search(SYNTAX_MID_LINE);

/**
 * `firstSyntax` of a block that grew from `previous` (whose first syntax was at `previousFirst`):
 * only the new characters are looked at (from `STRADDLE` before them: `://`, `www.` and `<scheme:` may straddle),
 * unless a `$` comes after an earlier one (all of it then: math may reach back to any `$`).
 * @example
 * firstSyntaxAfter('plain', -1, 'plain and **more'); // 10
 */
export function firstSyntaxAfter(previous: string, previousFirst: number, block: string): number {
  if (block.length < previous.length || !block.startsWith(previous)) return firstSyntax(block);
  // A `$` that comes may close one that came long ago (`$…$`, which starts at the first one).
  if (previous.includes('$') && block.includes('$', previous.length)) return firstSyntax(block);
  if (previousFirst >= 0) return previousFirst;
  const from = Math.max(0, previous.length - STRADDLE);
  // The slice's start is not a line start (unless the block's is): a match of `^` there is not one.
  const at = from === 0 ? firstSyntax(block) : firstSyntaxMidLine(block.slice(from));
  return at < 0 ? -1 : from + at;
}

/** A plain paragraph's text as the parser shows it: spaces at its end are not shown (`isPlainParagraph`). */
export const plainText = (block: string): string => block.replace(/ +$/, '');

/** Characters per text node of a plain paragraph, and the step a plain head grows by (see `plainHeadLength`). */
export const PLAIN_CHUNK = 512;

/** Characters a GFM email autolink's local part is made of (it reaches back from its `@`). */
const ATEXT = /[A-Za-z0-9._+-]/;
const ALPHA = /[A-Za-z]/;
/** Markers whose meaning depends on the character before them (or further back): see `plainHeadLength`. */
const REACHES_BACK = /@|:\/\/|www\./gi;

/**
 * How much of a long one-line paragraph's start is plain text the parser
 * would show exactly as typed, so only the rest needs it: a multiple of
 * `step`, or 0 (parse it all). A reply streams as one long paragraph, and one
 * `*` or `[` near its end would otherwise send all of it through the parser
 * on every frame. The cut is placed where parsing the rest on its own gives
 * what parsing the whole gives: before the first syntax character and before
 * what it looks back at (an email's local part, a `www.` or `http://` and the
 * character before it, the character before `*`, `_` or `~`), never before a
 * space or something that would start a block (`# `, `- `, `1. `, `<`, `>`).
 * @example
 * plainHeadLength('w000w001…w511' + '**END**'); // 1536 for a 2,055-character paragraph
 */
export function plainHeadLength(block: string, step: number = PLAIN_CHUNK, first: number = firstSyntax(block)): number {
  if (block.length <= step || first < 0 || /^\s/.test(block) || BLOCK_START.test(block)) return 0;
  // `\n` and `\r` are syntax characters: the head is on the first line. Lines after it could
  // make the first a table's head or a heading: the paragraph must be one line.
  if (block.indexOf('\n', first) >= 0 || block.indexOf('\r', first) >= 0) return 0;
  // The cut may not pass `bound`: everything a construct looks at stays in the parsed part.
  let bound = first - 1;
  // Only a marker reached from `first` through email characters can look back past it (an
  // address whose local part holds the `_` at `first`); later ones stop at `first` or after.
  let end = first;
  while (end < block.length && ATEXT.test(block[end]!)) end++;
  const region = block.slice(0, end + 4);
  REACHES_BACK.lastIndex = 0;
  for (let m = REACHES_BACK.exec(region); m; m = REACHES_BACK.exec(region)) {
    let start = m.index;
    if (m[0] === '@') while (start > 0 && ATEXT.test(block[start - 1]!)) start--;
    else if (m[0] === '://') while (start > 0 && ALPHA.test(block[start - 1]!)) start--;
    bound = Math.min(bound, start - 1);
  }
  for (let cut = Math.floor(bound / step) * step; cut > 0; cut -= step) {
    const rest = block.slice(cut, cut + 16);
    if (!/^\s/.test(rest) && !BLOCK_START.test(rest)) return cut;
  }
  return 0;
}
