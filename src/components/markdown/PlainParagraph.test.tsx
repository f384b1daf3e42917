import { act, render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LIVE_KEEP, LIVE_MAX, lineStartAt, PlainParagraph } from './PlainParagraph';

/** Lines of 80 characters, 20 px apart: the layout jsdom does not have. */
const LINE = 80;
const top = (i: number) => Math.floor(i / LINE) * 20;

describe('lineStartAt', () => {
  it('finds the first character of the line that holds a character', () => {
    expect(lineStartAt(top, 250, 0)).toBe(240);
    expect(lineStartAt(top, 240, 0)).toBe(240);
    expect(lineStartAt(top, 319, 100)).toBe(240);
  });

  it('steps over characters that draw nothing (a space hung at a line end)', () => {
    const spaced = (i: number) => (i === 239 || i === 240 ? null : top(i));
    expect(lineStartAt(spaced, 250, 0)).toBe(241);
    // A character that draws nothing counts on the line of the last one before it that does.
    expect(lineStartAt(spaced, 240, 0)).toBe(160);
  });

  it('reads a few boxes, not one per character of the line', () => {
    let reads = 0;
    const wide = (i: number) => {
      reads += 1;
      return Math.floor(i / 1_000) * 20;
    };
    expect(lineStartAt(wide, 5_990, 0)).toBe(5_000);
    expect(reads).toBeLessThan(40);
  });

  it('gives -1 when the line starts at or before the floor', () => {
    expect(lineStartAt(top, 250, 245)).toBe(-1);
    expect(lineStartAt(top, 250, 240)).toBe(-1);
    expect(lineStartAt(() => null, 250, 0)).toBe(-1);
  });
});

describe('PlainParagraph', () => {
  let observers: { callback: ResizeObserverCallback; target: Element | null }[] = [];
  const realRO = globalThis.ResizeObserver;
  const realRects = Range.prototype.getClientRects;

  beforeEach(() => {
    observers = [];
    globalThis.ResizeObserver = class {
      entry: { callback: ResizeObserverCallback; target: Element | null };
      constructor(callback: ResizeObserverCallback) {
        this.entry = { callback, target: null };
        observers.push(this.entry);
      }
      observe(target: Element) {
        this.entry.target = target;
      }
      unobserve() {}
      disconnect() {
        observers = observers.filter((o) => o !== this.entry);
      }
    } as unknown as typeof ResizeObserver;
    // A character's box: its offset in the paragraph's whole text decides its line.
    Range.prototype.getClientRects = function (this: Range) {
      const p = (this.startContainer as Node).parentElement!.closest('p')!;
      const walker = document.createTreeWalker(p, NodeFilter.SHOW_TEXT);
      let at = 0;
      for (let node = walker.nextNode(); node && node !== this.startContainer; node = walker.nextNode()) at += node.textContent!.length;
      const i = at + this.startOffset;
      return [{ top: top(i), width: 7, height: 18, left: 0, right: 7, bottom: top(i) + 18 }] as unknown as DOMRectList;
    };
  });
  afterEach(() => {
    globalThis.ResizeObserver = realRO;
    Range.prototype.getClientRects = realRects;
  });

  /** The paragraph was laid out at `width` px: what its ResizeObserver is told after a frame. */
  const laidOut = (width: number) =>
    act(() => {
      for (const o of [...observers]) o.callback([{ target: o.target!, contentRect: { width } } as unknown as ResizeObserverEntry], {} as ResizeObserver);
    });
  const text = (n: number) => Array.from({ length: n }, (_, i) => String.fromCharCode(97 + (i % 26))).join('');

  /** The paragraph is given `more` text (a streaming reply's next frame), and renders the cut made meanwhile. */
  const grow = (rerender: (ui: ReactElement) => void, now: string, more = 'z'.repeat(LINE)) => {
    rerender(<PlainParagraph text={now + more} live />);
    return now + more;
  };

  it('sets apart the finished lines of a long live paragraph where a line starts, with its next text, and keeps its text', () => {
    let long = text(LIVE_MAX + 1_000);
    const { container, rerender } = render(<PlainParagraph text={long} live />);
    const p = container.querySelector('p')!;
    expect(p.querySelectorAll('[data-part="markdown-run"]')).toHaveLength(0);
    laidOut(600);
    // The cut costs no render of its own: it shows with the next text.
    expect(p.querySelectorAll('[data-part="markdown-run"]')).toHaveLength(0);
    const before = long.length;
    long = grow(rerender, long);
    const runs = p.querySelectorAll('[data-part="markdown-run"]');
    expect(runs).toHaveLength(1);
    const end = runs[0]!.textContent!.length;
    expect(end % LINE).toBe(0);
    expect(end).toBeLessThanOrEqual(before - LIVE_KEEP);
    expect(end).toBeGreaterThan(before - LIVE_KEEP - LINE);
    expect(p.textContent).toBe(long);

    // It grows: the run stays; a second one is cut once the growing part is long again.
    const longer = long + text(LIVE_MAX);
    rerender(<PlainParagraph text={longer} live />);
    expect(p.querySelectorAll('[data-part="markdown-run"]')).toHaveLength(1);
    laidOut(600);
    const longest = grow(rerender, longer);
    expect(p.querySelectorAll('[data-part="markdown-run"]')).toHaveLength(2);
    expect(p.textContent).toBe(longest);
  });

  it('joins its runs again when its width changes, when the text is not the one it cut, and once it is done', () => {
    let long = text(LIVE_MAX + 1_000);
    const { container, rerender } = render(<PlainParagraph text={long} live />);
    const p = container.querySelector('p')!;
    laidOut(600);
    long = grow(rerender, long);
    expect(p.querySelectorAll('[data-part="markdown-run"]')).toHaveLength(1);
    // A new width joins them at once, without waiting for more text.
    laidOut(500);
    expect(p.querySelectorAll('[data-part="markdown-run"]')).toHaveLength(0);
    expect(p.textContent).toBe(long);

    laidOut(500);
    long = grow(rerender, long);
    expect(p.querySelectorAll('[data-part="markdown-run"]')).toHaveLength(1);
    const other = 'Z'.repeat(long.length);
    rerender(<PlainParagraph text={other} live />);
    expect(p.querySelectorAll('[data-part="markdown-run"]')).toHaveLength(0);
    expect(p.textContent).toBe(other);

    rerender(<PlainParagraph text={long} live />);
    laidOut(500);
    long = grow(rerender, long);
    expect(p.querySelectorAll('[data-part="markdown-run"]')).toHaveLength(1);
    rerender(<PlainParagraph text={long} />);
    expect(p.querySelectorAll('[data-part="markdown-run"]')).toHaveLength(0);
    expect(p.textContent).toBe(long);
    expect(observers).toHaveLength(0);
  });

  it('makes no cut while the user has text selected in it', () => {
    let long = text(LIVE_MAX + 1_000);
    const { container, rerender } = render(<PlainParagraph text={long} live />);
    const p = container.querySelector('p')!;
    const selection = document.getSelection()!;
    selection.setBaseAndExtent(p.firstChild!, 10, p.firstChild!, 40);
    laidOut(600);
    long = grow(rerender, long);
    expect(p.querySelectorAll('[data-part="markdown-run"]')).toHaveLength(0);
    selection.removeAllRanges();
    laidOut(600);
    grow(rerender, long);
    expect(p.querySelectorAll('[data-part="markdown-run"]')).toHaveLength(1);
  });

  it('leaves a short live paragraph and a finished one as one text', () => {
    const { container } = render(
      <>
        <PlainParagraph text={text(LIVE_MAX - 10)} live />
        <PlainParagraph text={text(LIVE_MAX * 3)} />
      </>,
    );
    laidOut(600);
    expect(container.querySelectorAll('[data-part="markdown-run"]')).toHaveLength(0);
    expect(observers).toHaveLength(1);
  });
});
