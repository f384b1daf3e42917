import * as z from 'zod/mini';
import { ensureEnglishMessages } from '../zodLocale';
import { id, stamp } from './fields';

ensureEnglishMessages();

/** Skills in a thread: one activated, a repeated request offered as a slash skill, saved or dismissed. */

/** A skill's instructions were loaded into the active-skills prompt slab. */
export const SkillActivatedSchema = z.object({
  type: z.literal('skill.activated'),
  ...stamp,
  skill: id,
  title: z.string(),
  invocation_id: z.optional(id),
});

/**
 * The assistant noticed the same multi-step request twice and offers to save
 * it as a slash skill. `name` is the proposed slash word (without the slash).
 */
export const SkillOfferedSchema = z.object({
  type: z.literal('skill.offered'),
  ...stamp,
  offer_id: id,
  turn_id: z.optional(id),
  /** Capability names, in the order they ran. */
  sequence: z.array(z.string()).check(z.minLength(2)),
  /** Their titles, for the offer's wording. */
  titles: z.array(z.string()),
  name: z.string(),
  description: z.string(),
  /** The instructions the skill would hold, so the offer can show them. */
  instructions: z.optional(z.string()),
});

/** A skill node was saved (from an offer, or directly through the workspace); it is discoverable at once. */
export const SkillSavedSchema = z.object({
  type: z.literal('skill.saved'),
  ...stamp,
  offer_id: z.optional(id),
  /** The node's path, e.g. `alice/Skill/import-and-enrich`. */
  path: id,
  /** The slash name, e.g. `/import-and-enrich`. */
  name: z.string(),
});

/** The user dismissed a skill offer; the same sequence is not offered again. */
export const SkillOfferDismissedSchema = z.object({
  type: z.literal('skill.offer_dismissed'),
  ...stamp,
  offer_id: id,
});
