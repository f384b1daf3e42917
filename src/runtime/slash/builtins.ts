import agent from './builtins/agent.md?raw';
import clear from './builtins/clear.md?raw';
import harness from './builtins/harness.md?raw';
import help from './builtins/help.md?raw';
import model from './builtins/model.md?raw';
import summarize from './builtins/summarize.md?raw';
import { catalogNode, type CatalogNode } from './nodes';
import { parseSkillMarkdown } from './skillMarkdown';

/** The platform's skills, authored as Markdown with YAML frontmatter (namespace `Skill`). */
export function builtInSkills(): CatalogNode[] {
  const files: Record<string, string> = { agent, model, harness, clear, help, summarize };
  return Object.entries(files).map(([name, text]) => parseSkillMarkdown(`builtins/${name}.md`, text, 'Skill'));
}

/** The platform's agents, models and harnesses: what the Pick skills list. */
export function builtInNodes(): CatalogNode[] {
  return [
    catalogNode('Agent/assistant', { nodeType: 'Agent', name: 'Assistant', description: 'The general assistant of this workspace.', order: -1 }),
    catalogNode('Agent/researcher', { nodeType: 'Agent', name: 'Researcher', description: 'Finds and compares sources before it answers.', order: 1 }),
    catalogNode('Agent/analyst', { nodeType: 'Agent', name: 'Analyst', description: 'Works with records and numbers; prefers tables.', order: 2 }),
    catalogNode('Model/claude-sonnet-5', { nodeType: 'Model', name: 'Claude Sonnet 5', description: 'Balanced speed and depth (default with a key).', order: -1 }),
    catalogNode('Model/claude-opus-5', { nodeType: 'Model', name: 'Claude Opus 5', description: 'The most capable model, slower.', order: 1 }),
    catalogNode('Model/claude-haiku-4-5', { nodeType: 'Model', name: 'Claude Haiku 4.5', description: 'Fast and light.', order: 2 }),
    catalogNode('Model/offline', { nodeType: 'Model', name: 'Offline model', description: 'Deterministic, no key; runs in the page.', order: 3 }),
    catalogNode('Harness/chat', { nodeType: 'Harness', name: 'Chat', description: 'The built-in chat harness.', order: -1 }),
    catalogNode('Harness/claude-code', {
      nodeType: 'Harness',
      name: 'Claude Code',
      description: 'Hands the thread to the Claude Code command line.',
      order: 1,
      commands: ['login', 'logout'],
    }),
    catalogNode('Harness/copilot', {
      nodeType: 'Harness',
      name: 'Copilot',
      description: 'Hands the thread to the Copilot command line.',
      order: 2,
      commands: ['login', 'logout'],
    }),
  ];
}
