/** Schemes a link in the transcript may use; anything else (javascript:, data:, vbscript:, …) is dropped. */
const SAFE_SCHEME = /^(https?|mailto|tel):/i;

/**
 * The URL when it is safe to put in an `href`, else `''`. Relative paths,
 * queries and fragments pass; a scheme must be http, https, mailto or tel.
 * Control characters and spaces a browser would ignore are ignored here too,
 * so `java\tscript:` is caught.
 * @example
 * safeUrl('javascript:alert(1)'); // ''
 * safeUrl('https://example.com'); // 'https://example.com'
 */
export function safeUrl(url: string): string {
  const compact = url.replace(/[\u0000-\u0020\u007f]/g, '');
  const colon = compact.indexOf(':');
  if (colon === -1) return url.trim();
  const beforeColon = compact.slice(0, colon);
  if (/[/?#]/.test(beforeColon)) return url.trim();
  return SAFE_SCHEME.test(compact) ? url.trim() : '';
}
