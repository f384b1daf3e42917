import type { Element } from 'hast';

/** The opening fence at the start of the block (no indent): its run of backticks or tildes, then the info string. */
const OPENING = /^(`{3,}|~{3,})([^\n]*)$/;
/** A closing fence: up to three spaces, a run of the opening's character, spaces or tabs. */
const CLOSING = /^ {0,3}(`{3,}|~{3,})[ \t]*$/;

/** A block's leading fenced code block: the `pre` element the parser makes of it, and the block's text after it. */
export interface LeadingFence {
  pre: Element;
  /** What follows the closing fence's line (it is parsed on its own: a fence ends its block); '' when nothing does. */
  rest: string;
}

/**
 * The fenced code block (``` or ~~~, open or closed) that `source` starts with, as the parser would
 * make it, and the text after it; null when the block does not start with one. A streaming code
 * block is the growing end of a reply, re-rendered every frame: parsing it each time (micromark
 * over the whole code, microseconds a character) would grow with the code, while its code is its
 * text. So `ParsedBlock` renders this element through its own components and parses only the rest.
 *
 * Only the plain form is taken (anything else: null, and the parser decides): the fence at the
 * block's first column (an indented one strips that indent from its lines), an info string with no
 * backslash or `&` (escapes and character references are decoded there) and, for backticks, no
 * backtick (then it is no fence), and no CR or NUL in the block (the parser rewrites them).
 * `$$` math blocks are the parser's (remark-math).
 * @example
 * leadingFence('```ts\nconst a = 1;\n```'); // { pre: <pre><code class="language-ts">const a = 1;\n</code></pre>, rest: '' }
 * leadingFence('```ts\nconst a = 1;\n```\nmore'); // { pre: …, rest: 'more' }
 */
export function leadingFence(source: string): LeadingFence | null {
  if (!source.startsWith('```') && !source.startsWith('~~~')) return null;
  if (source.includes('\r') || source.includes('\0')) return null;
  const firstEnd = source.indexOf('\n');
  const opening = OPENING.exec(firstEnd < 0 ? source : source.slice(0, firstEnd));
  if (!opening) return null;
  const fence = opening[1]!;
  const info = opening[2]!;
  if ((fence[0] === '`' && info.includes('`')) || /[\\&]/.test(info)) return null;
  let code = '';
  let end = source.length;
  let rest = '';
  if (firstEnd >= 0) {
    const closing = closingLine(source, firstEnd + 1, fence);
    if (closing < 0) code = source.slice(firstEnd + 1).replace(/\n$/, ''); // an open fence's last line break is not code (yet)
    else {
      code = source.slice(firstEnd + 1, Math.max(firstEnd + 1, closing - 1));
      const lineEnd = source.indexOf('\n', closing);
      if (lineEnd >= 0) {
        end = lineEnd;
        rest = source.slice(lineEnd + 1);
        if (!rest.trim()) rest = '';
      }
    }
  }
  // The info string: the language up to the first space or tab, the rest (trailing spaces kept) its meta.
  const [, language = '', meta = ''] = /^[ \t]*([^ \t]*)[ \t]*(.*)$/.exec(info)!;
  const position = { start: { line: 1, column: 1, offset: 0 }, end: pointAt(source, end) };
  const codeElement: Element = {
    type: 'element',
    tagName: 'code',
    properties: language ? { className: [`language-${language}`] } : {},
    children: [{ type: 'text', value: code ? `${code}\n` : '' }],
    position,
    ...(meta ? { data: { meta } } : {}),
  };
  return { pre: { type: 'element', tagName: 'pre', properties: {}, children: [codeElement], position }, rest };
}

/** Where the first line from `from` on that closes the fence starts, else -1. */
function closingLine(source: string, from: number, fence: string): number {
  for (let at = from; at <= source.length; ) {
    const next = source.indexOf('\n', at);
    const lineEnd = next < 0 ? source.length : next;
    const closing = CLOSING.exec(source.slice(at, lineEnd));
    if (closing && closing[1]![0] === fence[0] && closing[1]!.length >= fence.length) return at;
    if (next < 0) return -1;
    at = next + 1;
  }
  return -1;
}

/** The line, column and offset of `offset` in `source`, as the parser's positions give them. */
function pointAt(source: string, offset: number): { line: number; column: number; offset: number } {
  let line = 1;
  for (let i = source.indexOf('\n'); i >= 0 && i < offset; i = source.indexOf('\n', i + 1)) line++;
  return { line, column: offset - source.lastIndexOf('\n', offset - 1), offset };
}
