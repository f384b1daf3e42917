import { ProtocolError, ProtocolErrorCode, type GetPromptResult, type ListPromptsResult, type Prompt } from '@modelcontextprotocol/server';
import type { CatalogNode } from '../runtime/catalogNodes';
import type { Principal } from '../runtime/principal';
import { SKILL_DISCOVERY_QUERY, type SkillDirectory } from '../runtime/slash/skillDirectory';

/** The one argument every skill prompt takes: what the user would type after the slash word. */
export const PROMPT_TASK_ARGUMENT = 'task';

/**
 * The principal's slash instruction skills (those with instructions and no action: `/summarize`,
 * `/help`, their own and their space's saved ones), in the slash list's order. A word held twice
 * (a private skill over the space's) is the first, as `/word` in the chat loads it.
 */
export function instructionSkills(directory: SkillDirectory): CatalogNode[] {
  const seen = new Set<string>();
  return directory.query(SKILL_DISCOVERY_QUERY).filter((node) => {
    if (!node.skill?.instructions || node.skill.action || seen.has(node.id)) return false;
    seen.add(node.id);
    return true;
  });
}

/** A skill as an MCP prompt: the slash word without its slash is the prompt's name. */
export function promptOfSkill(node: CatalogNode): Prompt {
  return {
    name: node.id,
    title: node.name,
    description: node.description,
    arguments: [{ name: PROMPT_TASK_ARGUMENT, description: `What to do with ${node.name}, as you would type it after "${node.name} " in the chat (optional).`, required: false }],
  };
}

/** `prompts/list`: the principal's instruction skills. */
export function listPrompts(directory: SkillDirectory): ListPromptsResult {
  return { prompts: instructionSkills(directory).map(promptOfSkill) };
}

/**
 * `prompts/get`: the skill's instructions as a user message, then the task (when given) as a
 * second one, as the chat loads a skill and then takes the words after it. An unknown name (or
 * another principal's private skill) is -32602.
 */
export function getPrompt(directory: SkillDirectory, name: string, args: Record<string, string> | undefined): GetPromptResult {
  const node = instructionSkills(directory).find((skill) => skill.id === name);
  if (!node) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `No prompt "${name}" for this key: list them with prompts/list.`);
  const task = args?.[PROMPT_TASK_ARGUMENT]?.trim();
  const unknown = Object.keys(args ?? {}).filter((key) => key !== PROMPT_TASK_ARGUMENT);
  if (unknown.length) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `The prompt "${name}" takes only "${PROMPT_TASK_ARGUMENT}", not ${unknown.map((k) => `"${k}"`).join(', ')}.`);
  const instructions = `Follow the instructions of the ${node.name} skill (${node.description}):\n\n${node.skill!.instructions!}`;
  return {
    description: node.description,
    messages: [
      { role: 'user', content: { type: 'text', text: instructions } },
      ...(task ? [{ role: 'user' as const, content: { type: 'text' as const, text: task } }] : []),
    ],
  };
}

/**
 * Completion of a prompt's `task`: the skill's keywords, then its description's words, that start
 * with what was typed so far (case-insensitive), each once.
 */
export function completePromptArgument(directory: SkillDirectory, name: string, argument: string, value: string): string[] {
  if (argument !== PROMPT_TASK_ARGUMENT) return [];
  const node = instructionSkills(directory).find((skill) => skill.id === name);
  if (!node) return [];
  const typed = value.trim().toLowerCase();
  const words = [...(node.keywords ?? []), ...node.description.split(/[^\p{L}\p{N}-]+/u).filter((w) => w.length > 3)];
  const offered = new Set<string>();
  for (const word of words) {
    const lower = word.toLowerCase();
    if (lower.startsWith(typed) && lower !== typed) offered.add(lower);
  }
  return [...offered];
}

/** Where the MCP door finds a principal's skills: the workspace's own directory, saved skills loaded. */
export type SkillsOf = (principal: Principal) => SkillDirectory | Promise<SkillDirectory>;
