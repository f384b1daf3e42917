import type { CatalogNode } from '../catalogNodes';
import type { SkillMessage } from '../skillField';

/** What typing `/word rest` should do; the surface acts on it without per-skill code. */
export type SlashOutcome =
  | { kind: 'none' }
  | { kind: 'harness'; harness: string; text: string }
  | { kind: 'unknown'; word: string; message: string }
  | { kind: 'pick'; skill: CatalogNode; query: string; field: 'harness' | 'agentName' | 'modelName'; title: string; filter: string }
  | { kind: 'open'; skill: CatalogNode; contentPath: string }
  | { kind: 'navigate'; skill: CatalogNode; target: string }
  | { kind: 'connect' | 'disconnect'; skill: CatalogNode; provider: string }
  | { kind: 'new-thread'; skill: CatalogNode }
  | { kind: 'connectors'; skill: CatalogNode }
  /** An instruction skill with a task: `message` is what to send, the task with the skill as a typed field. */
  | { kind: 'submit'; skill: CatalogNode; task: string; message: Required<SkillMessage> }
  /** A skill's help; for `/help` itself, `skills` lists what the user can run, each with its one-line help. */
  | { kind: 'help'; skill: CatalogNode; skills?: readonly { name: string; description: string }[] };

export interface DispatchContext {
  /** The skills discovered for this thread (already ordered and filtered by the query). */
  skills: readonly CatalogNode[];
  /** The thread's harness node, when one is picked. */
  harness?: CatalogNode | undefined;
}

/** The slash word and the rest of a message, or null when it is not a slash command. */
export function splitSlash(text: string): { word: string; rest: string } | null {
  const match = /^\/([a-z0-9][a-z0-9-]*)(?:\s+([\s\S]*))?$/i.exec(text.trim());
  return match ? { word: match[1]!.toLowerCase(), rest: (match[2] ?? '').trim() } : null;
}

/**
 * Dispatches a slash command: a harness-owned command goes to the harness;
 * otherwise the skill is resolved by its slash word and its action runs. An
 * instruction skill with text submits the task with the skill's slash name in the message's `skill`;
 * without text it shows its help. Under a command-line harness, an
 * instruction skill's raw text is forwarded to the harness unchanged.
 * @example
 * dispatchSlash('/agent', { skills }); // → { kind: 'pick', field: 'agentName', … }
 */
export function dispatchSlash(text: string, context: DispatchContext): SlashOutcome {
  const slash = splitSlash(text);
  if (!slash) return { kind: 'none' };
  const { harness } = context;
  if (harness?.commands?.includes(slash.word)) return { kind: 'harness', harness: harness.path, text: text.trim() };

  const skill = context.skills.find((s) => s.nodeType === 'Skill' && s.id === slash.word);
  if (!skill?.skill) {
    const near = context.skills.filter((s) => s.id.startsWith(slash.word.slice(0, 2))).map((s) => s.name);
    return {
      kind: 'unknown',
      word: slash.word,
      message: `There is no /${slash.word} here.${near.length ? ` Did you mean ${near.slice(0, 3).join(', ')}?` : ''} Type / to see every skill.`,
    };
  }
  const { action, instructions } = skill.skill;
  if (!action) {
    if (harness?.commands) return { kind: 'harness', harness: harness.path, text: text.trim() };
    if (skill.id === 'help' && !slash.rest) {
      const runnable = context.skills.filter((s) => s.nodeType === 'Skill' && s.skill && s.id !== 'help');
      return { kind: 'help', skill, skills: runnable.map((s) => ({ name: s.name, description: s.description })) };
    }
    if (!slash.rest || !instructions) return { kind: 'help', skill };
    return { kind: 'submit', skill, task: slash.rest, message: { text: slash.rest, skill: skill.name } };
  }
  switch (action.kind) {
    case 'Pick':
      return { kind: 'pick', skill, query: action.query, field: action.field, title: action.title, filter: slash.rest };
    case 'OpenContent':
      return { kind: 'open', skill, contentPath: action.contentPath };
    case 'Navigate': {
      const target = action.contentPath ?? slash.rest;
      if (!target) return { kind: 'help', skill };
      return { kind: 'navigate', skill, target };
    }
    case 'Connect':
      return { kind: 'connect', skill, provider: action.provider };
    case 'Disconnect':
      return { kind: 'disconnect', skill, provider: action.provider };
    case 'NewThread':
      return { kind: 'new-thread', skill };
    case 'Connectors':
      return { kind: 'connectors', skill };
    default:
      return action satisfies never;
  }
}
