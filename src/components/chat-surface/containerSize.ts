/**
 * Whether the surface's container gives it no height to fill, so `height: 100%` would not do:
 *  - the container's height follows its content (an ordinary block in a page that scrolls, an
 *    `auto` grid row): a surface that fills it would grow the page instead of scrolling inside;
 *  - or the container's height is not definite, so `height: 100%` resolves to nothing and the
 *    surface is only as tall as its header and composer: a flex column that only has a
 *    `min-height` (create-vite's `#root`, Next.js's `body`), or an `auto`-height parent of one.
 * Probed on the element itself, with its inline style put back afterwards: first two heights to
 * see whether the container follows, then `100%` against `100% + 2px` to see whether a percentage
 * resolves at all (with no flexing, min or max in the way).
 */
export function containerHasNoHeight(element: HTMLElement): boolean {
  const parent = boxedParent(element);
  if (!parent) return false;
  const style = element.style;
  const before = style.cssText;
  const prior = element.dataset.size;
  // A box of another height can clamp a scroll position: the transcript's, and the page's or a
  // scrolling ancestor's when the probe shortens what they scroll. Each is put back.
  const scrollers = [...element.querySelectorAll<HTMLElement>('[data-part="transcript"]')].map((el) => [el, el.scrollTop, el.scrollLeft] as const);
  for (let at: Element | null = element.parentElement; at; at = at.parentElement) if (at.scrollTop || at.scrollLeft) scrollers.push([at as HTMLElement, at.scrollTop, at.scrollLeft]);
  delete element.dataset.size;
  // content-box: 0 and 2 px are two different boxes even with the surface's padding and border.
  style.boxSizing = 'content-box';
  style.minHeight = '0px';
  style.maxHeight = 'none';
  style.flex = '0 0 auto';
  style.height = '0px';
  const low = parent.getBoundingClientRect().height;
  style.height = '2px';
  const high = parent.getBoundingClientRect().height;
  let none = high - low > 1;
  if (!none) {
    style.height = '100%';
    const filled = element.getBoundingClientRect().height;
    style.height = 'calc(100% + 2px)';
    none = element.getBoundingClientRect().height - filled < 1;
  }
  style.cssText = before;
  if (prior !== undefined) element.dataset.size = prior;
  for (const [el, top, left] of scrollers) {
    if (el.scrollTop !== top) el.scrollTop = top;
    if (el.scrollLeft !== left) el.scrollLeft = left;
  }
  return none;
}

/** The nearest ancestor that makes a box (a `display: contents` wrapper has none to measure). */
function boxedParent(element: HTMLElement): HTMLElement | null {
  const view = element.ownerDocument.defaultView;
  let parent = element.parentElement;
  while (parent && view && parent !== element.ownerDocument.documentElement && view.getComputedStyle(parent).display === 'contents') parent = parent.parentElement;
  return parent;
}
