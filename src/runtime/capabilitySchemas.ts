import * as z from 'zod/mini';
import { ensureEnglishMessages } from './zodLocale';

ensureEnglishMessages();

/** MCP `ToolAnnotations`: hints about a capability's effects. Absent fields take MCP's defaults. */
export const ToolAnnotationsSchema = z.object({
  title: z.optional(z.string()),
  /** @default false */
  readOnlyHint: z.optional(z.boolean()),
  /** @default true (meaningful only when readOnlyHint is false) */
  destructiveHint: z.optional(z.boolean()),
  /** @default false */
  idempotentHint: z.optional(z.boolean()),
  /** @default true */
  openWorldHint: z.optional(z.boolean()),
});
export type ToolAnnotations = z.infer<typeof ToolAnnotationsSchema>;

/** The character shown in the cast row while a capability runs. */
export const ActorSchema = z.object({
  /** Stable id, e.g. `enricher`. */
  id: z.string().check(z.minLength(1)),
  /** Name read out to users, e.g. `Enricher`. */
  name: z.string().check(z.minLength(1)),
  /** A short glyph (emoji or initials) drawn in the cast row. */
  glyph: z.optional(z.string()),
});
export type Actor = z.infer<typeof ActorSchema>;
