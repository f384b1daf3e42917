import { CITATION_LIMITS, type Citation } from '../events';

/**
 * The Messages API's citations, both ways: a streamed citation (`citations_delta`) as the kit's
 * provider-neutral `Citation`, and a capability's result as the `search_result` blocks the model
 * can cite (when the driver's `citations` option is on).
 */

/** A citation as the API streams it (`citations_delta.citation`); fields read defensively. */
export interface ApiCitation {
  type: string;
  cited_text?: unknown;
  document_index?: unknown;
  document_title?: unknown;
  start_char_index?: unknown;
  end_char_index?: unknown;
  start_page_number?: unknown;
  end_page_number?: unknown;
  start_block_index?: unknown;
  end_block_index?: unknown;
  search_result_index?: unknown;
  source?: unknown;
  title?: unknown;
  url?: unknown;
}

const count = (v: unknown): number | undefined => (typeof v === 'number' && Number.isInteger(v) && v >= 0 ? v : undefined);
const text = (v: unknown, max: number): string | undefined => (typeof v === 'string' && v ? (v.length > max ? `${v.slice(0, max - 1)}…` : v) : undefined);

/**
 * The kit's citation for one the API streamed, citing `range` of the reply's text; null for a
 * citation type this driver does not know (added to the API later), which is then left out.
 */
export function citationOf(c: ApiCitation, range: { start: number; end: number }): Citation | null {
  const cited_text = text(c.cited_text, CITATION_LIMITS.citedText) ?? '';
  const location = (unit: 'char' | 'page' | 'block', start: unknown, end: unknown) => {
    const s = count(start);
    const e = count(end);
    return s !== undefined && e !== undefined ? { location: { unit, start: s, end: Math.max(s, e) } } : {};
  };
  const title = (v: unknown) => {
    const t = text(v, CITATION_LIMITS.title);
    return t ? { title: t } : {};
  };
  const url = (v: unknown) => (typeof v === 'string' && v && v.length <= CITATION_LIMITS.url ? { url: v } : {});
  const index = (v: unknown) => {
    const i = count(v);
    return i === undefined ? {} : { index: i };
  };
  const document = { kind: 'document' as const, ...title(c.document_title), ...index(c.document_index) };
  switch (c.type) {
    case 'char_location':
      return { source: document, cited_text, ...location('char', c.start_char_index, c.end_char_index), range };
    case 'page_location':
      return { source: document, cited_text, ...location('page', c.start_page_number, c.end_page_number), range };
    case 'content_block_location':
      return { source: document, cited_text, ...location('block', c.start_block_index, c.end_block_index), range };
    case 'search_result_location':
      return {
        source: { kind: 'search_result', ...title(c.title), ...url(c.source), ...index(c.search_result_index) },
        cited_text,
        ...location('block', c.start_block_index, c.end_block_index),
        range,
      };
    case 'web_search_result_location':
      return { source: { kind: 'web', ...title(c.title), ...url(c.url) }, cited_text, range };
    default:
      return null;
  }
}

/** A `search_result` block the model can cite, as the API takes it (in a tool result or a user message). */
export interface SearchResultBlock {
  type: 'search_result';
  source: string;
  title: string;
  content: { type: 'text'; text: string }[];
  citations: { enabled: true };
  cache_control?: { type: 'ephemeral' };
}

/**
 * A capability's result as one citable search result: titled with the capability's title, its
 * source the capability's name, its parts (text, structured content, failed checks) in
 * paragraphs, a block each: the API cites whole blocks, so a paragraph is the passage a citation
 * quotes.
 */
export function searchResultOf(capability: string, title: string, parts: readonly string[]): SearchResultBlock {
  const paragraphs = parts.flatMap((part) => part.split(/\n\s*\n/)).filter((p) => p.trim());
  return {
    type: 'search_result',
    source: capability,
    title: title || capability,
    content: (paragraphs.length ? paragraphs : ['Done.']).map((p) => ({ type: 'text', text: p })),
    citations: { enabled: true },
  };
}
