/** The colour scheme a surface shows with theme="host": what the page around it declares. */
export type ResolvedTheme = 'light' | 'dark' | 'system';

/**
 * Reads the host's `color-scheme` where the surface sits (the CSS property, which
 * inherits, else `<meta name="color-scheme">`): only dark → dark; light and dark →
 * follow the user (system); light, or nothing declared → light.
 */
export function hostTheme(element: Element | null): ResolvedTheme {
  const doc = element?.ownerDocument;
  const view = doc?.defaultView;
  if (!doc || !view) return 'light';
  const at = element.parentElement ?? doc.documentElement;
  const declared = view.getComputedStyle(at).colorScheme || '';
  const scheme = declared && declared !== 'normal' ? declared : (doc.querySelector('meta[name="color-scheme"]')?.getAttribute('content') ?? '');
  const words = scheme.toLowerCase().split(/\s+/);
  const light = words.includes('light');
  const dark = words.includes('dark');
  if (dark && light) return 'system';
  if (dark) return 'dark';
  return 'light';
}

/**
 * Whether the element's container gives it no height of its own (its height follows its
 * content): then a `height: 100%` surface would grow the page instead of scrolling. Probed by
 * setting the element's height to two values and seeing whether the container's height follows.
 */
export function containerHasNoHeight(element: HTMLElement): boolean {
  const parent = element.parentElement;
  if (!parent) return false;
  const before = element.style.height;
  const prior = element.dataset.size;
  // Only ever smaller than it is (0 and 2 px): a taller box would clamp the transcript's scroll
  // position; positions are put back all the same.
  const scrollers = [...element.querySelectorAll<HTMLElement>('[data-part="transcript"]')].map((el) => [el, el.scrollTop] as const);
  const sizing = element.style.boxSizing;
  delete element.dataset.size;
  // content-box: 0 and 2 px are two different boxes even with the surface's padding and border.
  element.style.boxSizing = 'content-box';
  element.style.height = '0px';
  const low = parent.getBoundingClientRect().height;
  element.style.height = '2px';
  const high = parent.getBoundingClientRect().height;
  element.style.height = before;
  element.style.boxSizing = sizing;
  if (prior !== undefined) element.dataset.size = prior;
  for (const [el, top] of scrollers) if (el.scrollTop !== top) el.scrollTop = top;
  return high - low > 1;
}
