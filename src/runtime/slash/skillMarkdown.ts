import { parse as parseYaml } from 'yaml';
import { formatIssues } from '../events';
import { catalogNode, SkillDefinitionSchema, type CatalogNode } from './nodes';
import { z } from 'zod';

/** A slash-skill file that cannot be loaded; the message names the file and the field. */
export class SkillFileError extends Error {
  override name = 'SkillFileError';
}

const FrontmatterSchema = z.object({
  nodeType: z.literal('Skill').default('Skill'),
  /** The slash word with its slash, e.g. `/agent`. */
  name: z.string().regex(/^\/[a-z0-9][a-z0-9-]{0,63}$/, 'must be a slash and 1–64 lowercase letters, digits or hyphens, e.g. "/agent"'),
  description: z.string().min(1).max(1024),
  action: z.unknown().optional(),
  autoMount: z.boolean().optional(),
  launchesSubThread: z.boolean().optional(),
  order: z.number().optional(),
  keywords: z.array(z.string()).optional(),
});

/**
 * Reads a slash skill authored as Markdown with YAML frontmatter: the
 * frontmatter holds name, description and an optional `action`; the body is
 * the skill's instructions.
 * @example
 * parseSkillMarkdown('builtins/agent.md', '---\nname: /agent\ndescription: Switch the agent\naction: { kind: Pick, … }\n---\n', 'Skill');
 */
export function parseSkillMarkdown(file: string, text: string, namespace: string, owner?: string): CatalogNode {
  const match = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?([\s\S]*)$/.exec(text);
  if (!match) throw new SkillFileError(`${file}: missing YAML frontmatter between "---" lines.`);
  let raw: unknown;
  try {
    raw = parseYaml(match[1]!);
  } catch (error) {
    throw new SkillFileError(`${file}: the frontmatter is not valid YAML (${(error as Error).message.split('\n')[0]}).`);
  }
  const front = FrontmatterSchema.safeParse(raw ?? {});
  if (!front.success) throw new SkillFileError(`${file}: ${formatIssues(front.error.issues)}.`);
  const body = match[2]!.trim();
  const definition = SkillDefinitionSchema.safeParse({
    ...(body ? { instructions: body } : {}),
    ...(front.data.action !== undefined ? { action: front.data.action } : {}),
    ...(front.data.autoMount !== undefined ? { autoMount: front.data.autoMount } : {}),
    ...(front.data.launchesSubThread !== undefined ? { launchesSubThread: front.data.launchesSubThread } : {}),
  });
  if (!definition.success) throw new SkillFileError(`${file}: ${formatIssues(definition.error.issues)}.`);
  if (!definition.data.action && !definition.data.instructions) {
    throw new SkillFileError(`${file}: a skill needs an action in its frontmatter, instructions in its body, or both.`);
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
