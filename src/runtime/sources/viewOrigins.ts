import { getDomain } from 'tldts';
import type { McpAppCsp, McpAppResource } from '../mcpApp';

/**
 * A view's declared origins without the wildcards over a public suffix: `https://*.co.uk` or
 * `https://*.github.io` would let the view reach any site under it, each someone else's. The public
 * suffix list (ICANN and private sections) is tldts's; a wildcard is kept only over a registrable
 * domain (`https://*.cdn.example.com`). What is left out is said in the view's problems.
 * @example
 * withoutPublicSuffixWildcards(view).csp.connectDomains; // 'https://*.co.uk' left out, 'https://*.maps.example' kept
 */
export function withoutPublicSuffixWildcards(view: McpAppResource): McpAppResource {
  const problems = [...view.problems];
  const csp: McpAppCsp = {};
  for (const key of ['connectDomains', 'resourceDomains'] as const) {
    const kept = (view.csp[key] ?? []).filter((origin) => {
      const wildcard = /^[a-z]+:\/\/\*\.([^:/]+)/i.exec(origin);
      if (!wildcard || getDomain(wildcard[1]!, { allowPrivateDomains: true }) !== null) return true;
      problems.push(`The view asked for ${JSON.stringify(origin)} in ${key}: a wildcard over a public suffix (${wildcard[1]}) would reach every site under it; it was left out.`);
      return false;
    });
    if (kept.length) csp[key] = kept;
  }
  return { ...view, csp, problems };
}
