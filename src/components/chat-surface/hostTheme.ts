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
