import * as z from 'zod/mini';
import { formatIssues } from '../events';
import { catalogNode, SkillDefinitionSchema, type CatalogNode } from '../catalogNodes';

/** A slash skill that cannot be loaded or saved; the message names the file (or node) and the field. */
export class SkillFileError extends Error {
  override name = 'SkillFileError';
}

/** The slash word rule: 1–64 lowercase letters, digits or hyphens, starting with a letter or digit. */
export const SKILL_WORD = /^[a-z0-9][a-z0-9-]{0,63}$/;

/** A skill's header: the frontmatter of a skill file, or the fields of a saved skill. */
export const SkillHeaderSchema = z.object({
  nodeType: z._default(z.literal('Skill'), 'Skill'),
  /** The slash word with its slash, e.g. `/agent`. */
  name: z.string().check(z.regex(/^\/[a-z0-9][a-z0-9-]{0,63}$/, 'must be a slash and 1–64 lowercase letters, digits or hyphens, e.g. "/agent"')),
  description: z.string().check(z.trim(), z.minLength(1, 'must not be empty'), z.maxLength(1024)),
  action: z.optional(z.unknown()),
  autoMount: z.optional(z.boolean()),
  launchesSubThread: z.optional(z.boolean()),
  order: z.optional(z.number()),
  keywords: z.optional(z.array(z.string())),
});

/**
 * Builds a skill node from its header and instructions, validated the same
 * way for a skill file and for a skill saved at run time. Needs no YAML
 * parser, so the browser entry can save skills.
 * @example
 * skillNode('alice/Skill/weekly', { name: '/weekly', description: 'My weekly report' }, 'Group by week.', 'alice/Skill', 'alice');
 */
export function skillNode(source: string, header: unknown, body: string, namespace: string, owner?: string): CatalogNode {
  const front = SkillHeaderSchema.safeParse(header ?? {});
  if (!front.success) throw new SkillFileError(`${source}: ${formatIssues(front.error.issues)}.`);
  const instructions = body.trim();
  const definition = SkillDefinitionSchema.safeParse({
    ...(instructions ? { instructions } : {}),
    ...(front.data.action !== undefined ? { action: front.data.action } : {}),
    ...(front.data.autoMount !== undefined ? { autoMount: front.data.autoMount } : {}),
    ...(front.data.launchesSubThread !== undefined ? { launchesSubThread: front.data.launchesSubThread } : {}),
  });
  if (!definition.success) throw new SkillFileError(`${source}: ${formatIssues(definition.error.issues)}.`);
  if (!definition.data.action && !definition.data.instructions) {
    throw new SkillFileError(`${source}: a skill needs an action in its frontmatter, instructions in its body, or both.`);
  }
  const id = front.data.name.slice(1);
  return catalogNode(`${namespace}/${id}`, {
    nodeType: 'Skill',
    name: front.data.name,
    description: front.data.description,
    skill: definition.data,
    ...(front.data.order !== undefined ? { order: front.data.order } : {}),
    ...(front.data.keywords ? { keywords: front.data.keywords } : {}),
    ...(owner !== undefined ? { owner } : {}),
  });
}
