import { randomBytes } from 'node:crypto';
import { Hono } from 'hono';
import { MCP_SIGN_IN_MESSAGE } from '../workspace/connectorsProtocol';
import { clientMetadataOf } from './connectorOAuth';

/**
 * The two pages of a user's OAuth sign-in that other sites reach, mounted before the cross-site
 * guard (a sign-in page sends the browser back from its own site; an authorization server reads
 * the client document server to server). Neither reads a session nor changes anything:
 *
 * - `GET /v1/mcp-servers/oauth/callback`: where the sign-in comes back. A static page whose
 *   script posts `state`, `code` and `iss` to `POST /v1/mcp-servers/oauth/complete` (same
 *   origin, behind the guard and the user's sign-in, which checks `state` against the session),
 *   says the outcome in words, and tells the page that opened it (`postMessage` to that page's
 *   exact origin). No framing, no referrer, not cached.
 * - `GET /v1/mcp-servers/oauth/client`: the kit's client ID metadata document (SEP-991).
 */
export function connectorLandingRoutes(options: { publicOrigin?: string | undefined }): Hono {
  const app = new Hono();
  const originOf = (url: string) => options.publicOrigin ?? new URL(url).origin;
  app.get('/v1/mcp-servers/oauth/callback', (c) => {
    const nonce = randomBytes(16).toString('base64');
    return c.html(landingPage(nonce), 200, {
      'content-security-policy': `default-src 'none'; script-src 'nonce-${nonce}'; style-src 'nonce-${nonce}'; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`,
      'referrer-policy': 'no-referrer',
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
      'x-frame-options': 'DENY',
    });
  });
  app.get('/v1/mcp-servers/oauth/client', (c) => {
    const origin = originOf(c.req.url);
    return c.json(
      { client_id: `${origin}/v1/mcp-servers/oauth/client`, ...clientMetadataOf(`${origin}/v1/mcp-servers/oauth/callback`), token_endpoint_auth_method: 'none' },
      200,
      { 'cache-control': 'public, max-age=300' },
    );
  });
  return app;
}

/** The landing page: one status line, filled by its script. */
function landingPage(nonce: string): string {
  const script = `(async () => {
  const line = document.getElementById('outcome');
  const say = (text) => { line.textContent = text; };
  const query = new URLSearchParams(location.search);
  history.replaceState(null, '', location.pathname);
  const body = {};
  for (const key of ['state', 'code', 'iss', 'error', 'error_description']) { const value = query.get(key); if (value !== null) body[key] = value; }
  if (!body.state) return say('This page is where a sign-in to one of your MCP servers comes back to. Start signing in from your list of MCP servers (/mcp in the chat).');
  try {
    const response = await fetch('/v1/mcp-servers/oauth/complete', { method: 'POST', credentials: 'same-origin', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const answer = await response.json().catch(() => ({}));
    if (!response.ok) return say((answer.error && answer.error.message) || 'Signing in did not finish (HTTP ' + response.status + '). Close this window and try again.');
    say(answer.message + (answer.status === 'connected' ? ' You can close this window.' : ''));
    if (window.opener && answer.openerOrigin) {
      window.opener.postMessage({ type: ${JSON.stringify(MCP_SIGN_IN_MESSAGE)}, label: answer.label, status: answer.status }, answer.openerOrigin);
      if (answer.status === 'connected') setTimeout(() => window.close(), 1500);
    }
  } catch (error) {
    say('Signing in did not finish: ' + (error && error.message ? error.message : error) + '. Close this window and try again.');
  }
})();`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Signing in to your MCP server</title>
<style nonce="${nonce}">body{font:16px/1.5 system-ui,sans-serif;margin:0;padding:2rem 1rem;color:#1a1a1a;background:#fff}main{max-width:32rem;margin:0 auto}@media (prefers-color-scheme:dark){body{color:#eee;background:#161616}}</style>
</head>
<body>
<main>
<h1>Signing in to your MCP server</h1>
<p id="outcome" role="status">Finishing signing in…</p>
</main>
<script nonce="${nonce}">${script}</script>
</body>
</html>`;
}
