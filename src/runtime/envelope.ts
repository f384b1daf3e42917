import * as z from 'zod/mini';
import { ensureEnglishMessages } from './zodLocale';

ensureEnglishMessages();

/** MCP `Annotations` on a content block: who it is for and how important it is. */
export const ContentAnnotationsSchema = z.object({
  audience: z.optional(z.array(z.enum(['user', 'assistant']))),
  priority: z.optional(z.number().check(z.gte(0), z.lte(1))),
  lastModified: z.optional(z.string()),
});

const meta = z.optional(z.record(z.string(), z.unknown()));

export const TextContentSchema = z.object({
  type: z.literal('text'),
  text: z.string(),
  annotations: z.optional(ContentAnnotationsSchema),
  _meta: meta,
});

export const ImageContentSchema = z.object({
  type: z.literal('image'),
  data: z.string(),
  mimeType: z.string(),
  annotations: z.optional(ContentAnnotationsSchema),
  _meta: meta,
});

export const AudioContentSchema = z.object({
  type: z.literal('audio'),
  data: z.string(),
  mimeType: z.string(),
  annotations: z.optional(ContentAnnotationsSchema),
  _meta: meta,
});

export const ResourceLinkSchema = z.object({
  type: z.literal('resource_link'),
  uri: z.string(),
  name: z.string(),
  title: z.optional(z.string()),
  description: z.optional(z.string()),
  mimeType: z.optional(z.string()),
  size: z.optional(z.number()),
  annotations: z.optional(ContentAnnotationsSchema),
  _meta: meta,
});

export const EmbeddedResourceSchema = z.object({
  type: z.literal('resource'),
  resource: z.union([
    z.object({ uri: z.string(), mimeType: z.optional(z.string()), text: z.string(), _meta: meta }),
    z.object({ uri: z.string(), mimeType: z.optional(z.string()), blob: z.string(), _meta: meta }),
  ]),
  annotations: z.optional(ContentAnnotationsSchema),
  _meta: meta,
});

/** One block of a result, exactly MCP's `ContentBlock` union. */
export const ContentBlockSchema = z.discriminatedUnion('type', [
  TextContentSchema,
  ImageContentSchema,
  AudioContentSchema,
  ResourceLinkSchema,
  EmbeddedResourceSchema,
]);

/** How a surface may present a result; every field is a hint a renderer may ignore. */
export const DisplayHintSchema = z.object({
  /** Preferred presentation of `structuredContent`. */
  kind: z.optional(z.enum(['text', 'table', 'list', 'json', 'link'])),
  /** One-line summary shown on the collapsed card. */
  summary: z.optional(z.string()),
});

/**
 * What every capability returns, shaped like MCP `CallToolResult` so the
 * same value goes out unchanged on the chat, REST and MCP doors.
 */
export const CapabilityResultSchema = z.object({
  content: z.array(ContentBlockSchema),
  structuredContent: z.optional(z.record(z.string(), z.unknown())),
  isError: z.optional(z.boolean()),
  display_hint: z.optional(DisplayHintSchema),
  _meta: meta,
});

export type ContentBlock = z.infer<typeof ContentBlockSchema>;
export type TextContent = z.infer<typeof TextContentSchema>;
export type DisplayHint = z.infer<typeof DisplayHintSchema>;
export type CapabilityResult = z.infer<typeof CapabilityResultSchema>;


