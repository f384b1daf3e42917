import { isAllowedOrigin, type McpAppCsp } from '../../runtime/mcpApp';

/**
 * The Content-Security-Policy a view runs under: inline script and style
 * (views are single HTML files), images, fonts and media from `data:`/`blob:`,
 * and no network at all unless the resource declared origins
 * (`connectDomains` for fetch/WebSocket, `resourceDomains` for scripts,
 * styles, images, fonts, media). No frames, forms, plugins or `<base>`.
 * @example
 * appCsp({}); // "default-src 'none'; script-src 'unsafe-inline'; … connect-src 'none'; …"
 */
export function appCsp(csp: McpAppCsp = {}): string {
  const resources = (csp.resourceDomains ?? []).filter(isAllowedOrigin);
  const connect = (csp.connectDomains ?? []).filter(isAllowedOrigin);
  const from = (...sources: string[]) => [...sources, ...resources].join(' ');
  return [
    "default-src 'none'",
    `script-src ${from("'unsafe-inline'")}`,
    `style-src ${from("'unsafe-inline'")}`,
    `img-src ${from('data:', 'blob:')}`,
    `font-src ${from('data:')}`,
    `media-src ${from('data:', 'blob:')}`,
    `connect-src ${connect.length ? connect.join(' ') : "'none'"}`,
    "frame-src 'none'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
}

/**
 * The view's HTML as the frame's `srcdoc`, with the policy as the very first
 * element, before anything of the view's own can run (the view's doctype is
 * dropped and one put first, so the page stays in standards mode). A policy
 * the view adds itself can only narrow this one.
 */
export function appSrcdoc(html: string, csp?: McpAppCsp): string {
  const body = html.replace(/^\uFEFF?\s*<!doctype[^>]*>/i, '');
  const policy = appCsp(csp).replace(/"/g, '&quot;');
  return `<!doctype html><meta http-equiv="Content-Security-Policy" content="${policy}">${body}`;
}
