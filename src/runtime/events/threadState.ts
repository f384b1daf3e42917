import * as z from 'zod/mini';
import { ensureEnglishMessages } from '../zodLocale';
import { stamp } from './fields';

ensureEnglishMessages();

/** The thread's state beside the transcript: what the user is looking at, and the composer's selections. */

/** What the user is looking at in the host app; keys the anticipation map. */
export const ActiveViewSchema = z.object({ kind: z.string().check(z.minLength(1)), id: z.optional(z.string()), title: z.optional(z.string()) });

export const ViewChangedSchema = z.object({
  type: z.literal('view.changed'),
  ...stamp,
  view: ActiveViewSchema,
});

/** The thread's selections (the composer is their single source of truth). */
export const ComposerSchema = z.object({
  harness: z.optional(z.string()),
  agentName: z.optional(z.string()),
  modelName: z.optional(z.string()),
});

export const ComposerChangedSchema = z.object({
  type: z.literal('composer.changed'),
  ...stamp,
  composer: ComposerSchema,
});

export type ActiveView = z.infer<typeof ActiveViewSchema>;
export type Composer = z.infer<typeof ComposerSchema>;
