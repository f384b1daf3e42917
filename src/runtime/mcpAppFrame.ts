import { isAllowedOrigin, type McpAppCsp } from './mcpApp';

/**
 * The document an MCP App view runs in, when a server serves it: an empty
 * page whose response headers hold the view in (a Content-Security-Policy
 * with `sandbox allow-scripts`, and a `Connection-Allowlist` that names only
 * the view's declared origins and leaves WebRTC off), which then writes the
 * view's HTML into itself. Headers are the one place a browser takes these
 * from: a `<meta>` policy cannot stop WebRTC (Chromium does not know CSP's
 * `webrtc` directive) nor a frame's own navigations (`navigate-to` is gone),
 * and `Connection-Allowlist` is read from response headers only. Whatever
 * the view does next (writes, navigates to `data:`/`blob:`, makes frames)
 * inherits the same policy. Browser-safe: no DOM, no node:*.
 */

/** Where the workspace server serves the frame document (`GET`, public: it carries no data). */
export const APP_FRAME_PATH = '/v1/app-frame';

/** The frame document says it is listening: `{ type }`, posted to its parent once. */
export const APP_FRAME_READY = 'chatsurface/app-frame-ready';
/** The view's HTML for the frame document to write into itself: `{ type, html }`, from the parent only, taken once. */
export const APP_FRAME_VIEW = 'chatsurface/app-frame-view';

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
 * The `Connection-Allowlist` value for a view: every origin it declared
 * (`connectDomains` and `resourceDomains`, `ws`/`wss` as `http`/`https`, any
 * path), nothing else: not the server that served the frame document, and
 * no WebRTC (the header blocks it unless it says `webrtc=allow`). It governs
 * every connection the document starts, its own navigations included.
 * @example
 * appConnectionAllowlist({ connectDomains: ['https://api.example.com'] }); // '("https://api.example.com")'
 */
export function appConnectionAllowlist(csp: McpAppCsp = {}): string {
  const origins = [...(csp.connectDomains ?? []), ...(csp.resourceDomains ?? [])].filter(isAllowedOrigin);
  const patterns = [...new Set(origins.map((origin) => origin.replace(/^ws(s?):/i, 'http$1:').replace(/\/$/, '')))];
  return `(${patterns.map((pattern) => `"${pattern}"`).join(' ')})`;
}

/**
 * The frame document's URL query: the view's declared origins (each checked
 * again by the server that answers it).
 * @example
 * appFrameQuery({ connectDomains: ['https://api.example.com'] }); // 'connect=https%3A%2F%2Fapi.example.com'
 */
export function appFrameQuery(csp: McpAppCsp = {}): string {
  const query = new URLSearchParams();
  for (const origin of csp.connectDomains ?? []) if (isAllowedOrigin(origin)) query.append('connect', origin);
  for (const origin of csp.resourceDomains ?? []) if (isAllowedOrigin(origin)) query.append('resource', origin);
  return query.toString();
}

/** The declared origins a frame document's URL asks for: only those that are plain origins; at most 64 of each. */
export function appFrameCspOf(query: URLSearchParams): McpAppCsp {
  const csp: McpAppCsp = {};
  const connect = query.getAll('connect').filter(isAllowedOrigin).slice(0, 64);
  const resource = query.getAll('resource').filter(isAllowedOrigin).slice(0, 64);
  if (connect.length) csp.connectDomains = connect;
  if (resource.length) csp.resourceDomains = resource;
  return csp;
}

/**
 * The frame document's response headers for a view's declared origins:
 * the view's policy with `sandbox allow-scripts` (an opaque origin however
 * the document is opened, top-level included), the connection allowlist, no
 * referrer, no sniffing.
 */
export function appFrameHeaders(csp: McpAppCsp = {}): Record<string, string> {
  return {
    'content-type': 'text/html; charset=utf-8',
    'content-security-policy': `sandbox allow-scripts; ${appCsp(csp)}`,
    'connection-allowlist': appConnectionAllowlist(csp),
    'referrer-policy': 'no-referrer',
    'x-content-type-options': 'nosniff',
    'cache-control': 'public, max-age=300',
  };
}

/**
 * The frame document: in a frame only, it tells its parent it listens, takes
 * the first `{ type: APP_FRAME_VIEW, html }` its parent posts and writes it
 * into itself (its own script and listener are gone then); anything else is
 * ignored. Opened top-level it does nothing.
 */
export const APP_FRAME_HTML = `<!doctype html><meta charset="utf-8"><title>MCP App view</title><script>
(function (doc) {
  if (parent === self) return;
  function take(event) {
    var data = event.data;
    if (event.source !== parent || !data || data.type !== '${APP_FRAME_VIEW}' || typeof data.html !== 'string') return;
    removeEventListener('message', take);
    doc.open();
    doc.write(data.html);
    doc.close();
  }
  addEventListener('message', take);
  parent.postMessage({ type: '${APP_FRAME_READY}' }, '*');
})(self.document);
</script>`;

/**
 * The frame document as a `Response`, for the query its URL carries: what a
 * host serves at {@link APP_FRAME_PATH} (the workspace server does), or on a
 * separate origin of its own.
 * @example
 * app.get('/v1/app-frame', (c) => appFrameResponse(new URL(c.req.url).searchParams));
 */
export function appFrameResponse(query: URLSearchParams, csp: McpAppCsp = appFrameCspOf(query)): Response {
  return new Response(APP_FRAME_HTML, { status: 200, headers: appFrameHeaders(csp) });
}
