import { Hono } from 'hono';
import { APP_FRAME_PATH, appFrameCspOf, appFrameResponse } from '../runtime/mcpAppFrame';
import { withoutPublicSuffixWildcards } from '../runtime/sources/viewOrigins';

/**
 * `GET /v1/app-frame`: the document an MCP App view runs in (runtime/mcpAppFrame), with the headers
 * that hold it: `Content-Security-Policy` with `sandbox allow-scripts` and the view's declared origins,
 * and `Connection-Allowlist` naming those origins only (no WebRTC, no navigation elsewhere). Public and
 * the same for everyone: it carries no data (the view's HTML reaches it by `postMessage` from the
 * card), and the origins in its query are checked again here (plain origins only; no wildcard over a
 * public suffix). Mount it before the cross-site guard when the page and this server are on different
 * sites: a frame's navigation is a cross-site request then.
 */
export function viewFrameRoutes(): Hono {
  const app = new Hono();
  app.get(APP_FRAME_PATH, async (c) => {
    const query = new URL(c.req.url).searchParams;
    const asked = appFrameCspOf(query);
    const { csp } = await withoutPublicSuffixWildcards({ uri: '', server: '', html: '', csp: asked, permissions: [], problems: [] });
    return appFrameResponse(query, csp);
  });
  return app;
}
