import { useEffect, useReducer, useRef, type ReactNode } from 'react';
import { PLAIN_CHUNK } from './blocks';

/**
 * Characters the growing part of a streaming paragraph reaches before its finished lines are set
 * apart. Chromium lays a growing paragraph out in about 0.13 µs a character a frame (measured
 * 2026-12-04: 0.5 ms at 2,000 characters, 1.5 ms at 8,000, 4.3 ms at 32,000), while a cut costs a
 * pass over the text's boxes, new text nodes for the lines it sets apart, and about 1.2 ms of
 * layout a frame after it at 2,000. Cut at 2,000, a 2,000-delta reply (8,000 characters) in a fresh
 * browser took 2–10 ms longer than with no cut (A/Bs of 15–31 runs; its main thread 4–5 ms), and an
 * 8,000-delta one (32,000) gained nothing; cut at 10,000, a frame of a 32,000-character reply lays
 * out in at most about 2.3 ms.
 */
export const LIVE_MAX = 10_000;
/** Characters that stay in the growing part after a cut (the line being written and a few before it). */
export const LIVE_KEEP = 500;

/**
 * A paragraph's text as text nodes of PLAIN_CHUNK characters cut at fixed
 * offsets: as a reply streams, the earlier nodes keep their exact text, so
 * React leaves them alone and the browser keeps their shaped glyphs; only the
 * last node changes. Adjacent text nodes wrap as one text (no break at a cut).
 */
export function textChunks(text: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += PLAIN_CHUNK) out.push(text.slice(i, i + PLAIN_CHUNK));
  return out;
}

const NO_RUNS: readonly Run[] = [];

/** A run of finished lines: the text before `end`, laid out at `width` px. `check`: its last characters. */
interface Run {
  end: number;
  width: number;
  check: string;
}

/**
 * Where the line that holds character `at` starts (when `at` draws nothing:
 * the line of the last character before it that does), going back no further
 * than `floor` (exclusive): the first character after the last one drawn on an
 * earlier line. `topAt(i)` is the top of character i's box, or null when it
 * draws nothing (a space collapsed or hung at a line's end). -1 when the line
 * starts at or before `floor`, or nothing after `floor` draws.
 * @example
 * lineStartAt((i) => Math.floor(i / 80) * 20, 250, 0); // 240
 */
export function lineStartAt(topAt: (i: number) => number | null, at: number, floor: number): number {
  let line: number | null = null;
  let start = at;
  while (start > floor && line === null) line = topAt(start--);
  if (line === null) return -1;
  start++;
  const top = line;
  /** The top of the last character at or before `i` (after `floor`) that draws, and where it is. */
  const drawn = (i: number): { index: number; top: number } | null => {
    for (; i > floor; i--) {
      const t = topAt(i);
      if (t !== null) return { index: i, top: t };
    }
    return null;
  };
  const onLine = (i: number) => {
    const d = drawn(i);
    return d !== null && d.top >= top - 1;
  };
  // Lines only go down along the text, so the first character on this line is found by halving
  // (a few boxes read, not one per character of the line: each read asks the browser for rects).
  let lo = floor;
  let hi = start;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (onLine(mid)) hi = mid;
    else lo = mid;
  }
  // The last one drawn before it is on an earlier line, or nothing before it (after floor) draws.
  return drawn(hi - 1) === null ? -1 : hi;
}

/**
 * A paragraph of plain text (`children` follow it, inline: the parsed rest of
 * a paragraph whose start is plain). `live`: it is the growing end of a
 * streaming reply. Laying out a paragraph costs time in proportion to its
 * length, and a streamed paragraph is laid out again every frame, so once its
 * growing part passes LIVE_MAX characters the lines above the last few are set
 * apart in a block of their own (`data-part="markdown-run"`), cut where a line
 * starts in the current layout: they look the same and are not laid out again,
 * and each frame lays out only the growing part. When the paragraph's width changes (or a font loads) the
 * runs join again and are cut afresh. No cut is made while the user has text
 * selected in it. Once it is no longer live it is one text again.
 */
export function PlainParagraph({ text, live = false, children = null }: { text: string; live?: boolean; children?: ReactNode }) {
  // The runs cut so far. A cut is made after a frame's layout (the ResizeObserver) and shown with
  // the next text the paragraph is given, so it costs no render of its own: a streaming reply
  // brings new text every frame, and a cut that waits while the reply pauses changes nothing the
  // reader sees. Joining the runs again (the width changed, a font loaded) renders at once.
  const cuts = useRef<readonly Run[]>(NO_RUNS);
  const [, rejoined] = useReducer((n: number) => n + 1, 0);
  const runs = live ? cuts.current : NO_RUNS;
  // Runs that no longer fit the text (not an extension of what was cut) are left out; none once it is done.
  let kept = 0;
  while (kept < runs.length && fits(runs[kept]!, text)) kept++;
  const valid = kept === runs.length ? runs : runs.slice(0, kept);
  const paragraph = useRef<HTMLParagraphElement>(null);
  const latest = useRef({ text, runs: valid });
  latest.current = { text, runs: valid };

  useEffect(() => {
    const p = paragraph.current;
    if (!live || !p || typeof ResizeObserver !== 'function') return;
    // Called after the frame's layout (a ResizeObserver callback), so reading boxes forces none.
    const observer = new ResizeObserver((entries) => {
      const width = entries[entries.length - 1]!.contentRect.width;
      const { text: now, runs: have } = latest.current;
      const last = have[have.length - 1];
      if (last && last.width !== width) {
        cuts.current = NO_RUNS;
        rejoined();
        return;
      }
      const from = last?.end ?? 0;
      if (now.length - from <= LIVE_MAX || selectedIn(p)) return;
      const cut = lineStartAt(topOf(p, from, now.length), now.length - LIVE_KEEP, from + LIVE_KEEP);
      if (cut < 0) return;
      // Cut from the runs as last rendered (a cut not shown yet is made again from them).
      cuts.current = [...have, { end: cut, width, check: now.slice(Math.max(from, cut - 16), cut) }];
    });
    observer.observe(p);
    const rejoin = () => {
      cuts.current = NO_RUNS;
      rejoined();
    };
    const fonts = p.ownerDocument.fonts;
    fonts?.addEventListener?.('loadingdone', rejoin);
    return () => {
      observer.disconnect();
      fonts?.removeEventListener?.('loadingdone', rejoin);
      cuts.current = NO_RUNS;
    };
  }, [live]);

  let start = 0;
  const parts = valid.map((run) => {
    const part = (
      <span key={run.end} data-part="markdown-run">
        {textChunks(text.slice(start, run.end))}
      </span>
    );
    start = run.end;
    return part;
  });
  return (
    <p ref={paragraph}>
      {parts}
      {textChunks(text.slice(start))}
      {children}
    </p>
  );
}

/** Whether the user has text selected in `p` (a cut would move the text nodes the selection is in). */
function selectedIn(p: HTMLElement): boolean {
  const selection = p.ownerDocument.getSelection();
  if (!selection || selection.isCollapsed) return false;
  for (let i = 0; i < selection.rangeCount; i++) if (selection.getRangeAt(i).intersectsNode(p)) return true;
  return false;
}

const fits = (run: Run, text: string): boolean => text.length > run.end && text.startsWith(run.check, run.end - run.check.length);

/**
 * `topAt` over the growing part of paragraph `p`: its text nodes after the last run, each
 * PLAIN_CHUNK characters of the text from `from` on (`textChunks`), `length` characters in all.
 */
function topOf(p: HTMLParagraphElement, from: number, length: number): (i: number) => number | null {
  const nodes: Text[] = [];
  const count = Math.ceil((length - from) / PLAIN_CHUNK);
  // The runs come first, then the growing part's text nodes (then anything parsed that follows).
  let node = p.firstChild;
  while (node?.nodeType === Node.ELEMENT_NODE && (node as Element).getAttribute('data-part') === 'markdown-run') node = node.nextSibling;
  for (; node?.nodeType === Node.TEXT_NODE && nodes.length < count; node = node.nextSibling) nodes.push(node as Text);
  const range = p.ownerDocument.createRange();
  return (i) => {
    const at = i - from;
    const text = nodes[Math.floor(at / PLAIN_CHUNK)];
    const offset = at % PLAIN_CHUNK;
    if (!text || offset >= text.length) return null;
    range.setStart(text, offset);
    range.setEnd(text, offset + 1);
    const box = range.getClientRects()[0];
    return box && box.width > 0 ? box.top : null;
  };
}
