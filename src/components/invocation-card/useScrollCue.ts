import { useCallback, useRef } from 'react';

/** Which sides of a sideways scroll region have more to see: its `data-scroll` (none when it all fits). */
export type ScrollSides = 'start' | 'end' | 'both' | null;

/** Which sides of a box scrolled to `left` have more to see (1 px of rounding is no more). */
export function scrollSides(left: number, scrollWidth: number, clientWidth: number): ScrollSides {
  const before = left > 1;
  const after = scrollWidth - clientWidth - left > 1;
  return before && after ? 'both' : before ? 'start' : after ? 'end' : null;
}

/**
 * A ref for a region that scrolls sideways (a wide table): keeps its `data-scroll` saying which
 * sides have more to see, so the stylesheet fades them out, a cue that it scrolls. Read when it
 * mounts, scrolls or is resized.
 */
export function useScrollCue<T extends HTMLElement>(): (node: T | null) => void {
  const stop = useRef<(() => void) | null>(null);
  return useCallback((node: T | null) => {
    stop.current?.();
    stop.current = null;
    if (!node) return;
    const read = () => {
      const sides = scrollSides(Math.abs(node.scrollLeft), node.scrollWidth, node.clientWidth);
      if (sides) node.setAttribute('data-scroll', sides);
      else node.removeAttribute('data-scroll');
    };
    read();
    node.addEventListener('scroll', read, { passive: true });
    const resized = typeof ResizeObserver === 'function' ? new ResizeObserver(read) : null;
    resized?.observe(node);
    stop.current = () => {
      node.removeEventListener('scroll', read);
      resized?.disconnect();
    };
  }, []);
}
