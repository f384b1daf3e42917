import * as z from 'zod/mini';
import { ensureEnglishMessages } from '../zodLocale';
import { id, stamp } from './fields';

ensureEnglishMessages();

/**
 * A source a reply cites (the Messages API's citations; an MCP `resource_link` a capability
 * returned before the reply): keyed by the reply's `message_id`. Provider-neutral: what a reader
 * needs to find the passage again. Every field is plain text, capped; the surface shows it as
 * text, never as HTML, and makes a link only of an http(s) `url`.
 */

/** Upper bounds of the strings a citation carries (a model's or a tool's words, kept short). */
export const CITATION_LIMITS = { title: 500, url: 2048, citedText: 4000 } as const;

const count = z.int().check(z.gte(0));

/** Where in its document the cited passage is: characters (plain text), pages (PDF) or content blocks. */
export const CitationLocationSchema = z.object({
  unit: z.enum(['char', 'page', 'block']),
  /** First character (0-based), first page (1-based) or first block (0-based). */
  start: count,
  /** End, exclusive for characters and blocks, inclusive for pages (as the API says them). */
  end: count,
});

export const CitedSourceSchema = z.object({
  /**
   * What was cited: a `document` of the request (plain text, PDF, custom content), a
   * `search_result` block, a `web` search result, or a `resource` link (MCP).
   */
  kind: z.enum(['document', 'search_result', 'web', 'resource']),
  title: z.optional(z.string().check(z.maxLength(CITATION_LIMITS.title))),
  /** A search result's `source`, a web result's URL, a resource link's URI: a link only when http(s). */
  url: z.optional(z.string().check(z.maxLength(CITATION_LIMITS.url))),
  /**
   * The document's index among the request's documents (or the search result's among its
   * search results): what an attachment opened at the page will be found by.
   */
  index: z.optional(count),
});

export const CitationSchema = z.object({
  source: CitedSourceSchema,
  /** The passage, as the provider quoted it. */
  cited_text: z.string().check(z.maxLength(CITATION_LIMITS.citedText)),
  location: z.optional(CitationLocationSchema),
  /**
   * The span of the reply's text that cites it, as UTF-16 offsets of the reply's text (`end`
   * exclusive); absent for a source of the reply as a whole (a resource link).
   */
  range: z.optional(z.object({ start: count, end: count })),
});

export const MessageCitedSchema = z.object({
  type: z.literal('message.cited'),
  ...stamp,
  /** The assistant message that cites it. */
  message_id: id,
  citation: CitationSchema,
});

export type Citation = z.infer<typeof CitationSchema>;
export type CitedSource = z.infer<typeof CitedSourceSchema>;
export type CitationLocation = z.infer<typeof CitationLocationSchema>;
export type MessageCited = z.infer<typeof MessageCitedSchema>;
