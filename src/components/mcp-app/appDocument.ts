import { appCsp } from '../../runtime/mcpAppFrame';
import type { McpAppCsp } from '../../runtime/mcpApp';

/** The view's policy (see `appCsp` in runtime/mcpAppFrame, where the served frame document's headers are built too). */
export { appCsp };

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
