import { CITATION_LIMITS, type Citation } from '../events';
import type { ModelMessage } from '../model';

/**
 * The MCP `resource_link` items of the capability results the model is about to answer from (the
 * tool results after its last message), as sources of its reply: a reply that draws on a result
 * lists what that result pointed to under "Sources". They have no span of the reply's text (the
 * model does not say which words came from them), so they get no marker. Any URI is kept as the
 * source's `url`; the surface makes a link only of an http(s) one.
 */
export function resourceSources(messages: readonly ModelMessage[]): Citation[] {
  let from = messages.length;
  while (from > 0 && messages[from - 1]!.role === 'tool') from--;
  const out: Citation[] = [];
  for (const m of messages.slice(from)) {
    if (m.role !== 'tool' || m.result.isError) continue;
    for (const block of m.result.content) {
      if (block.type !== 'resource_link') continue;
      const title = (block.title || block.name || block.uri).slice(0, CITATION_LIMITS.title);
      const url = block.uri.length <= CITATION_LIMITS.url ? { url: block.uri } : {};
      out.push({ source: { kind: 'resource', title, ...url }, cited_text: (block.description ?? '').slice(0, CITATION_LIMITS.citedText) });
    }
  }
  return out;
}
