import { isMissingModule } from '../peers';
import type { McpAppCsp, McpAppResource } from '../mcpApp';

/** What tells a registrable domain from a public suffix: tldts's `getDomain`, or null when tldts is not installed. */
type GetDomain = (host: string, options: { allowPrivateDomains: boolean }) => string | null;
let loading: Promise<GetDomain | null> | null = null;
const loadGetDomain = (): Promise<GetDomain | null> =>
  (loading ??= import('tldts').then(
    (tldts) => tldts.getDomain as GetDomain,
    (error: unknown) => {
      if (isMissingModule(error, 'tldts')) return null;
      loading = null; // another failure may pass: the next view asks again
      throw error;
    },
  ));

/**
 * A view's declared origins without the wildcards over a public suffix: `https://*.co.uk` or
 * `https://*.github.io` would let the view reach any site under it, each someone else's. The public
 * suffix list (ICANN and private sections) is tldts's, an optional peer; a wildcard is kept only over
 * a registrable domain (`https://*.cdn.example.com`), and without tldts no wildcard is kept (it
 * cannot be told safe). What is left out is said in the view's problems.
 * @example
 * (await withoutPublicSuffixWildcards(view)).csp.connectDomains; // 'https://*.co.uk' left out, 'https://*.maps.example.com' kept
 */
export async function withoutPublicSuffixWildcards(view: McpAppResource, getDomain?: GetDomain | null): Promise<McpAppResource> {
  const domainOf = getDomain === undefined ? await loadGetDomain() : getDomain;
  const problems = [...view.problems];
  const csp: McpAppCsp = {};
  for (const key of ['connectDomains', 'resourceDomains'] as const) {
    const kept = (view.csp[key] ?? []).filter((origin) => {
      const wildcard = /^[a-z]+:\/\/\*\.([^:/]+)/i.exec(origin);
      if (!wildcard) return true;
      if (!domainOf) {
        problems.push(`The view asked for ${JSON.stringify(origin)} in ${key}: a wildcard is kept only when the server can tell it is not over a public suffix (install the package "tldts" beside chatsurface); it was left out.`);
        return false;
      }
      if (domainOf(wildcard[1]!, { allowPrivateDomains: true }) !== null) return true;
      problems.push(`The view asked for ${JSON.stringify(origin)} in ${key}: a wildcard over a public suffix (${wildcard[1]}) would reach every site under it; it was left out.`);
      return false;
    });
    if (kept.length) csp[key] = kept;
  }
  return { ...view, csp, problems };
}
