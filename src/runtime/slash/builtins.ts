import agent from './builtins/agent.md?raw';
import clear from './builtins/clear.md?raw';
import harness from './builtins/harness.md?raw';
import help from './builtins/help.md?raw';
import model from './builtins/model.md?raw';
import summarize from './builtins/summarize.md?raw';
import type { CatalogNode } from '../catalogNodes';
import { parseSkillMarkdown } from './skillMarkdown';

export { builtInNodes } from './builtinNodes';

/** The built-in skill files by slash word, in the order they are listed. */
export const BUILT_IN_SKILL_FILES: Readonly<Record<string, string>> = { agent, model, harness, clear, help, summarize };

/**
 * The platform's skills, authored as Markdown with YAML frontmatter (namespace `Skill`).
 * The browser entry uses `BUILT_IN_SKILL_NODES`, the same nodes parsed ahead of time.
 */
export function builtInSkills(): CatalogNode[] {
  return Object.entries(BUILT_IN_SKILL_FILES).map(([name, text]) => parseSkillMarkdown(`builtins/${name}.md`, text, 'Skill'));
}
