/**
 * Citations as the service treats them: the citable sources a request carries (`document`
 * blocks and `search_result` blocks, top level or in tool results, each counted in request order),
 * the rules on them (citations only on documents and search results; enabled on all documents or
 * none, and on all search results or none, as the citations and search-results docs say), and the
 * citations a scripted text block makes, resolved against the request's sources exactly as the API
 * would quote them (`cited_text` taken from the source).
 */

const DOCS = 'https://docs.claude.com/en/docs/build-with-claude/citations';

/** What a scripted text block cites: a document or search result of the request, by index, and where. */
export type FakeCitation =
  /** A document: characters of a plain-text one, pages of a PDF (1-based, end exclusive), blocks of a custom-content one. Default: its first sentence, page or block. */
  | { document: number; chars?: [number, number]; pages?: [number, number]; blocks?: [number, number]; cited_text?: string }
  /** A search result: a range of its content blocks (end exclusive). Default: its first block. */
  | { search_result: number; blocks?: [number, number] }
  /** A citation exactly as given (a web search result's, whose source the fake does not run). */
  | { raw: Record<string, unknown> };

/** A citable source of a request. */
interface Source {
  block: any;
  enabled: boolean;
}

/** The request's documents and search results, each in request order (top level, then within each tool result, message by message). */
export function sourcesOf(body: any): { documents: Source[]; searchResults: Source[] } {
  const documents: Source[] = [];
  const searchResults: Source[] = [];
  const visit = (block: any) => {
    if (block?.type === 'document') documents.push({ block, enabled: block.citations?.enabled === true });
    if (block?.type === 'search_result') searchResults.push({ block, enabled: block.citations?.enabled === true });
    if (block?.type === 'tool_result' && Array.isArray(block.content)) block.content.forEach(visit);
  };
  for (const message of Array.isArray(body?.messages) ? body.messages : []) {
    if (message?.role === 'user' && Array.isArray(message.content)) message.content.forEach(visit);
  }
  return { documents, searchResults };
}

/** Where a content block is: message `m`, block `b`, and (inside a tool result) its inner index. */
type Placed = { block: any; m: number; b: number };

/**
 * A `citations` setting where the API takes none (an image, a tool result; a text block's is a list), a malformed one,
 * a malformed document or search result, or sources whose settings are mixed; null when fine.
 */
export function citationProblem(blocks: readonly Placed[], body: any): string | null {
  for (const { block, m, b } of blocks) {
    const inner = block?.type === 'tool_result' && Array.isArray(block.content) ? block.content.map((x: any, i: number) => [x, `messages.${m}.content.${b}.tool_result.content.${i}`]) : [];
    for (const [x, where] of [[block, `messages.${m}.content.${b}`], ...inner] as [any, string][]) {
      const problem = sourceProblem(x, where);
      if (problem) return problem;
    }
  }
  const { documents, searchResults } = sourcesOf(body);
  if (documents.some((d) => d.enabled) && documents.some((d) => !d.enabled)) {
    return `Citations must be enabled on all or none of the documents in a request: ${documents.filter((d) => d.enabled).length} of ${documents.length} documents have them. Please consult our documentation at ${DOCS}`;
  }
  if (searchResults.some((d) => d.enabled) && searchResults.some((d) => !d.enabled)) {
    return `Citations must be enabled on all or none of the search results in a request: ${searchResults.filter((d) => d.enabled).length} of ${searchResults.length} search results have them.`;
  }
  return null;
}

/** One block's citation setting and, for a document or search result, its shape. */
function sourceProblem(block: any, where: string): string | null {
  if (!block || typeof block !== 'object') return null;
  const type = String(block.type);
  // Citations are asked for on documents and search results only: a text block's `citations` is
  // the list of citations it already makes (sent back from a reply), and an image takes none.
  if (block.citations !== undefined && type === 'text' && block.citations !== null && !Array.isArray(block.citations)) return `${where}.text.citations: Input should be a valid list`;
  if (block.citations !== undefined && type !== 'document' && type !== 'search_result' && type !== 'text') return `${where}.${type}.citations: Extra inputs are not permitted`;
  if (block.citations !== undefined && block.citations !== null && type !== 'text') {
    if (typeof block.citations !== 'object' || Array.isArray(block.citations)) return `${where}.${type}.citations: Input should be a valid dictionary`;
    if (block.citations.enabled !== undefined && typeof block.citations.enabled !== 'boolean') return `${where}.${type}.citations.enabled: Input should be a valid boolean`;
  }
  if (type === 'search_result') {
    if (typeof block.source !== 'string') return `${where}.search_result.source: Field required`;
    if (typeof block.title !== 'string') return `${where}.search_result.title: Field required`;
    if (!Array.isArray(block.content) || !block.content.length) return `${where}.search_result.content: List should have at least 1 item after validation, not 0`;
    for (const [i, x] of block.content.entries()) {
      if (x?.type !== 'text' || typeof x.text !== 'string' || !x.text.trim()) return `${where}.search_result.content.${i}: search result content must be non-empty text blocks`;
    }
  }
  if (type === 'document') {
    const source = block.source;
    const kind = source?.type;
    if (kind === 'text' && (source.media_type !== 'text/plain' || typeof source.data !== 'string')) return `${where}.document.source.text.media_type: Input should be 'text/plain'`;
    if (kind === 'base64' && source.media_type !== 'application/pdf') return `${where}.document.source.base64.media_type: Input should be 'application/pdf'`;
    if (kind === 'content' && !Array.isArray(source.content) && typeof source.content !== 'string') return `${where}.document.source.content.content: Input should be a valid string or list`;
    if (!['text', 'base64', 'content', 'url', 'file'].includes(kind)) {
      return `${where}.document.source: Input tag '${String(kind)}' found using 'type' does not match any of the expected tags: 'base64', 'text', 'content', 'url', 'file'`;
    }
  }
  return null;
}

/**
 * The citations a scripted block makes, as the API streams them; a citation of a source the
 * request does not carry, or carries without citations, is left out (the model could not make it).
 */
export function resolveCitations(cites: readonly FakeCitation[] | undefined, body: any): Record<string, unknown>[] {
  if (!cites?.length) return [];
  const { documents, searchResults } = sourcesOf(body);
  return cites.flatMap((cite): Record<string, unknown>[] => {
    if ('raw' in cite) return [cite.raw];
    if ('search_result' in cite) {
      const found = searchResults[cite.search_result];
      if (!found?.enabled) return [];
      const [start, end] = cite.blocks ?? [0, 1];
      const texts = (found.block.content as { text: string }[]).slice(start, end).map((x) => x.text);
      return [{ type: 'search_result_location', cited_text: texts.join(''), search_result_index: cite.search_result, source: found.block.source, title: found.block.title ?? null, start_block_index: start, end_block_index: end }];
    }
    const found = documents[cite.document];
    if (!found?.enabled) return [];
    const doc = found.block;
    const base = { document_index: cite.document, document_title: typeof doc.title === 'string' ? doc.title : null };
    const kind = doc.source?.type;
    if (kind === 'text') {
      const data: string = doc.source.data;
      const [start, end] = cite.chars ?? [0, firstSentenceEnd(data)];
      return [{ type: 'char_location', cited_text: cite.cited_text ?? data.slice(start, end), ...base, start_char_index: start, end_char_index: end, file_id: null }];
    }
    if (kind === 'content') {
      const blocks: { text?: string }[] = typeof doc.source.content === 'string' ? [{ text: doc.source.content }] : doc.source.content;
      const [start, end] = cite.blocks ?? [0, 1];
      return [{ type: 'content_block_location', cited_text: cite.cited_text ?? blocks.slice(start, end).map((x) => x.text ?? '').join(''), ...base, start_block_index: start, end_block_index: end }];
    }
    const [start, end] = cite.pages ?? [1, 2];
    return [{ type: 'page_location', cited_text: cite.cited_text ?? `Text of page ${start}.`, ...base, start_page_number: start, end_page_number: end, file_id: null }];
  });
}

/** Where the text's first sentence ends (the API chunks plain text into sentences). */
function firstSentenceEnd(text: string): number {
  const match = /[.!?](\s|$)/.exec(text);
  return match ? match.index + 1 : text.length;
}
