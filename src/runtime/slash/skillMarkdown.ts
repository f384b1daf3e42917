import { parse as parseYaml } from 'yaml';
import type { CatalogNode } from '../catalogNodes';
import { SkillFileError, skillNode } from './skillNode';

export { SkillFileError } from './skillNode';

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
  return skillNode(file, raw, match[2]!, namespace, owner);
}
