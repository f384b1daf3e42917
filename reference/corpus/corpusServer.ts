import { McpServer } from '@modelcontextprotocol/server';
import MiniSearch from 'minisearch';
import { z } from 'zod';
import { corpus, type CorpusDocument } from './documents';

/**
 * An MCP server over the bundled corpus with real full-text search
 * (MiniSearch: BM25 ranking, prefix and fuzzy matching). Its one tool,
 * `search`, searches a single collection: the host pins that
 * argument to the tenant so no caller reaches another tenant's notes.
 * @example
 * const server = createCorpusServer();
 * await server.connect(transport);
 */
export function createCorpusServer(documents: readonly CorpusDocument[] = corpus): McpServer {
  const index = new MiniSearch<CorpusDocument>({
    fields: ['title', 'text'],
    storeFields: ['title', 'text', 'collection'],
    searchOptions: { boost: { title: 2 }, prefix: true, fuzzy: 0.2 },
  });
  index.addAll([...documents]);
  const collections = [...new Set(documents.map((d) => d.collection))];

  const server = new McpServer({ name: 'corpus', version: '1.0.0' });
  server.registerTool(
    'search',
    {
      title: 'Search the notes',
      description: 'Full-text search over one collection of notes; returns the best matches with a snippet.',
      inputSchema: z.object({
        collection: z.string().min(1).describe('The collection (tenant) to search.'),
        query: z.string().min(1).max(500).describe('Words to look for.'),
        limit: z.number().int().min(1).max(10).default(3).describe('How many results.'),
      }),
      outputSchema: z.object({
        results: z.array(z.object({ id: z.string(), title: z.string(), snippet: z.string(), score: z.number() })),
      }),
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async ({ collection, query, limit }) => {
      if (!collections.includes(collection)) {
        return { content: [{ type: 'text', text: `There is no collection named "${collection}".` }], isError: true };
      }
      const results = index
        .search(query, { filter: (r) => r.collection === collection })
        .slice(0, limit)
        .map((r) => ({ id: String(r.id), title: String(r.title), snippet: snippet(String(r.text), r.terms), score: Math.round(r.score * 100) / 100 }));
      const text = results.length
        ? results.map((r, i) => `${i + 1}. ${r.title}: ${r.snippet}`).join('\n')
        : `No notes in "${collection}" match "${query}".`;
      return { content: [{ type: 'text', text }], structuredContent: { results } };
    },
  );
  return server;
}

/** The sentence around the first matched term, at most ~160 characters. */
function snippet(text: string, terms: readonly string[]): string {
  const lower = text.toLowerCase();
  const at = Math.max(0, Math.min(...terms.map((t) => lower.indexOf(t.toLowerCase())).filter((i) => i >= 0), text.length));
  const start = Math.max(0, text.lastIndexOf('. ', at) + (text.lastIndexOf('. ', at) === -1 ? 0 : 2));
  const out = text.slice(start, start + 160);
  return out.length < text.length - start ? `${out.trimEnd()}…` : out;
}
