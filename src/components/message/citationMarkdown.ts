import type { ReplySource } from '../../runtime/fold';
import { CITATION_HREF } from '../markdown/citationMarker';

/**
 * The reply's markdown with a marker link `[n](#chatsurface-source-n)` after each span a source
 * cites (see `CitationMarker`): the least the text can change for the parser to place a marker
 * anywhere a span can end. The text itself is kept as it is (copying a reply copies `row.text`).
 * A span that ends inside code (a fenced block, an inline code span) has its marker after the
 * code; one that ends right after a bare URL gets a space first (an autolink would run on into
 * it); one after `!` or `\` gets a zero-width space first (an image, an escape).
 * @example
 * citationMarkdown('Grass is green.', [{ n: 1, ranges: [{ start: 0, end: 14 }], … }]); // 'Grass is green[1](#chatsurface-source-1).'
 */
export function citationMarkdown(text: string, sources: readonly ReplySource[]): string {
  const marks = new Map<number, number[]>();
  for (const source of sources) {
    for (const range of source.ranges) {
      if (range.end > text.length || range.end <= 0) continue; // not streamed yet
      const at = outsideCode(text, trimmedEnd(text, range));
      const ns = marks.get(at) ?? [];
      if (!ns.includes(source.n)) ns.push(source.n);
      marks.set(at, ns);
    }
  }
  if (!marks.size) return text;
  let out = '';
  let from = 0;
  for (const at of [...marks.keys()].sort((a, b) => a - b)) {
    const before = text.slice(from, at);
    out += before + guard(text.slice(0, at)) + marks.get(at)!.sort((a, b) => a - b).map((n) => `[${n}](${CITATION_HREF}${n})`).join('');
    from = at;
  }
  return out + text.slice(from);
}

/** A span's end with its trailing whitespace left out, so the marker stands right after the last word. */
function trimmedEnd(text: string, range: { start: number; end: number }): number {
  let end = range.end;
  while (end > range.start && /\s/.test(text[end - 1]!)) end--;
  return end;
}

/** `at`, or the end of the code it falls in: after a fenced block's closing fence, an inline code span's closing backtick. */
function outsideCode(text: string, at: number): number {
  const lineStart = text.lastIndexOf('\n', at - 1) + 1;
  const fences = text.slice(0, lineStart).match(/^ {0,3}(```|~~~)/gm)?.length ?? 0;
  if (fences % 2 === 1) {
    const close = /^ {0,3}(```|~~~)[^\n]*$/m.exec(text.slice(at));
    if (!close) return text.length;
    return at + close.index + close[0].length;
  }
  const ticks = text.slice(lineStart, at).split('`').length - 1;
  if (ticks % 2 === 1) {
    const close = text.indexOf('`', at);
    const lineEnd = text.indexOf('\n', at);
    if (close >= 0 && (lineEnd < 0 || close < lineEnd)) return close + 1;
  }
  return at;
}

/** What goes before a marker so the text before it stays what it was. */
function guard(before: string): string {
  if (/(^|\s)(https?:\/\/|www\.)\S*$/i.test(before)) return ' ';
  if (/[!\\]$/.test(before)) return '\u200b';
  return '';
}
