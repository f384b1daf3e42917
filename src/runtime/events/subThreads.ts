import * as z from 'zod/mini';
import { ensureEnglishMessages } from '../zodLocale';
import { id, stamp } from './fields';

ensureEnglishMessages();

/** Sub-threads (issue 15): a child thread opened for a skill, its link back, and its outcome in the parent. */

/**
 * A skill with `launchesSubThread` was started in a child thread (issue 15): the parent's row
 * "Opened a sub-thread: …" links to it. `subthread_id` is the child's thread id, of the same principal.
 */
export const SubThreadOpenedSchema = z.object({
  type: z.literal('subthread.opened'),
  ...stamp,
  subthread_id: id,
  /** The skill it runs: a slash node path (`Skill/research`) or a SKILL.md capability name. */
  skill: id,
  /** The skill's title as the row says it, e.g. `/research`. */
  title: z.string(),
  /** What the child was asked to do. */
  task: z.string(),
  turn_id: z.optional(id),
});

/** How a sub-thread's turn ended, as the parent's row and summary say it. */
export const SubThreadOutcomeSchema = z.enum(['done', 'failed', 'cancelled', 'interrupted']);

/** The sub-thread's turn ended: its outcome in plain words, back in the parent. */
export const SubThreadDoneSchema = z.object({
  type: z.literal('subthread.done'),
  ...stamp,
  subthread_id: id,
  outcome: SubThreadOutcomeSchema,
  /** The child's final assistant text, trimmed, or its error. */
  summary: z.string(),
  /** The skill's title again, so a done that arrives before its opened still names the row. */
  title: z.optional(z.string()),
});

/** The first event of a sub-thread: which thread opened it and for what (the link survives restarts and instances). */
export const SubThreadLinkedSchema = z.object({
  type: z.literal('subthread.linked'),
  ...stamp,
  parent_id: id,
  skill: id,
  title: z.string(),
  task: z.string(),
});

export type SubThreadOutcome = z.infer<typeof SubThreadOutcomeSchema>;
