import { useLayoutEffect, type RefObject } from 'react';

/** Space between the popup and the element it is placed against (px). */
export const POPUP_OFFSET = 6;
/** Space kept between the popup and the viewport's edges (px). */
const EDGE = 8;

export type PopupSide = 'top' | 'bottom';

/**
 * Where a popup of `size` goes against `anchor` (viewport px, both): above it, aligned to its
 * start, unless there is more room below and not enough above; kept inside the viewport
 * sideways, and inside `bounds` (the surface's sides, in the viewport) when given.
 * @example
 * placePopup({ left: 20, top: 500, bottom: 540 }, { width: 300, height: 200 }, { width: 800, height: 600 });
 * // { side: 'top', left: 20, top: 294 }
 */
export function placePopup(
  anchor: { left: number; top: number; bottom: number },
  size: { width: number; height: number },
  viewport: { width: number; height: number },
  bounds: { left: number; right: number } = { left: 0, right: viewport.width },
): { side: PopupSide; left: number; top: number } {
  const above = anchor.top - POPUP_OFFSET;
  const below = viewport.height - anchor.bottom - POPUP_OFFSET;
  const side: PopupSide = above >= size.height || above >= below ? 'top' : 'bottom';
  const top = side === 'top' ? anchor.top - POPUP_OFFSET - size.height : anchor.bottom + POPUP_OFFSET;
  const { left: start, right: end } = sideways(bounds, viewport.width);
  const left = Math.max(start, Math.min(anchor.left, end - size.width));
  return { side, left, top };
}

/** The room a popup has sideways: the bounds within the viewport, less an edge's space on each side. */
function sideways(bounds: { left: number; right: number }, width: number): { left: number; right: number } {
  return { left: Math.max(0, bounds.left) + EDGE, right: Math.min(width, bounds.right) - EDGE };
}

/** How wide a popup may be inside `bounds` (see `placePopup`). */
export function popupMaxWidth(bounds: { left: number; right: number }, viewportWidth: number): number {
  const room = sideways(bounds, viewportWidth);
  return Math.max(0, room.right - room.left);
}

/**
 * Keeps `popup` (`position: fixed`) placed against `anchor`, and as wide as the surface around
 * the anchor allows, while it is shown: when it opens,
 * when the anchor changes size (a message box that grows a line), and after a resize of the page
 * or a scroll that moves the anchor (once a frame). The popup's `data-side` says which side it
 * took. Measured against the popup's own containing block, so a host that shows the surface in a
 * moved (transformed) drawer still gets it in place. Reads the layout only then: a keystroke that
 * filters the list moves nothing (the popup keeps a full list's height).
 *
 * Also closes it (`dismiss`) the way a popover does: a press or focus outside both the popup and
 * the anchor, or Escape anywhere (seen first, in the capture phase, and taken, so the message box
 * does not also stop a running turn).
 */
export function useAnchoredPopup(anchor: RefObject<HTMLElement | null>, popup: RefObject<HTMLElement | null>, dismiss: () => void): void {
  useLayoutEffect(() => {
    const el = popup.current;
    const target = anchor.current;
    if (!el || !target) return;
    const view = el.ownerDocument.defaultView;
    if (!view) return;
    let frame = 0;
    const rtl = view.getComputedStyle(target).direction === 'rtl';
    const place = () => {
      frame = 0;
      // The containing block's origin: where the popup lands at 0,0 (the viewport's, unless an
      // ancestor is transformed).
      // Inside the surface sideways (a narrow chat on a phone), not only inside the viewport.
      const surface = target.closest('[data-chat-surface]')?.getBoundingClientRect();
      const bounds = surface ? { left: surface.left, right: surface.right } : { left: 0, right: view.innerWidth };
      el.style.maxWidth = `${popupMaxWidth(bounds, view.innerWidth)}px`;
      el.style.left = '0px';
      el.style.top = '0px';
      const origin = el.getBoundingClientRect();
      const box = target.getBoundingClientRect();
      // Right to left, the popup lines up with the anchor's right edge, where its text starts.
      const start = rtl ? { left: box.right - origin.width, top: box.top, bottom: box.bottom } : box;
      const at = placePopup(start, { width: origin.width, height: origin.height }, { width: view.innerWidth, height: view.innerHeight }, bounds);
      el.style.left = `${at.left - origin.left}px`;
      el.style.top = `${at.top - origin.top}px`;
      el.setAttribute('data-side', at.side);
    };
    place();
    const later = () => {
      if (!frame) frame = view.requestAnimationFrame(place);
    };
    // Only a scroll that moves the anchor: the page's and its scrolling ancestors', listened to on
    // each, so the list's own scroll (every ↓ past its edge) and the transcript's as a reply streams
    // call nothing here.
    const scrollers = scrollParents(target, view);
    // (Its first report is the size the popup was just placed with.)
    let seen = false;
    const resized =
      typeof ResizeObserver === 'function'
        ? new ResizeObserver(() => {
            if (seen) later();
            seen = true;
          })
        : null;
    resized?.observe(target);
    view.addEventListener('resize', later);
    for (const scroller of scrollers) scroller.addEventListener('scroll', later, { passive: true });

    // (The page's own `Node`: a surface in a frame has nodes of that frame's realm.)
    const isNode = (value: EventTarget | null): value is Node => value instanceof view.Node;
    const outside = (node: EventTarget | null) => !isNode(node) || (!el.contains(node) && !target.contains(node));
    const onPointerDown = (event: PointerEvent) => {
      if (outside(event.target)) dismiss();
    };
    const onFocusIn = (event: FocusEvent) => {
      if (outside(event.target)) dismiss();
    };
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || event.defaultPrevented) return;
      event.preventDefault();
      dismiss();
    };
    const doc = el.ownerDocument;
    doc.addEventListener('pointerdown', onPointerDown, true);
    doc.addEventListener('focusin', onFocusIn, true);
    doc.addEventListener('keydown', onKeyDown, true);
    return () => {
      if (frame) view.cancelAnimationFrame(frame);
      resized?.disconnect();
      view.removeEventListener('resize', later);
      for (const scroller of scrollers) scroller.removeEventListener('scroll', later);
      doc.removeEventListener('pointerdown', onPointerDown, true);
      doc.removeEventListener('focusin', onFocusIn, true);
      doc.removeEventListener('keydown', onKeyDown, true);
    };
  }, [anchor, popup, dismiss]);
}

/**
 * What scrolling moves `node` on screen: the page (`view`) and each ancestor that clips its
 * overflow (and so can be scrolled, by the user or by script), across shadow roots. Read when a
 * popup opens; an ancestor that starts clipping later is not seen.
 */
export function scrollParents(node: Element, view: Window & typeof globalThis): EventTarget[] {
  const found: EventTarget[] = [view];
  let at: Node | null = node.parentNode;
  while (at) {
    if (at.nodeType === view.Node.ELEMENT_NODE) {
      const { overflow, overflowX, overflowY } = view.getComputedStyle(at as Element);
      if (CLIPS.test(`${overflow} ${overflowX} ${overflowY}`)) found.push(at);
      at = at.parentNode;
    } else at = at instanceof view.ShadowRoot ? at.host : null;
  }
  return found;
}
const CLIPS = /\b(auto|scroll|overlay|hidden)\b/;
