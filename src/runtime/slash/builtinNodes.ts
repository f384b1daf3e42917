import { modelNodes } from './models';
import { catalogNode, type CatalogNode } from '../catalogNodes';

/**
 * The platform's agents, models and harnesses: what the Pick skills list.
 * Models are every id the Anthropic SDK knows, the default first (or the
 * models a driver names, `models`), plus the offline model.
 * @example
 * createCatalog([...builtInSkills(), ...builtInNodes()]);
 */
export function builtInNodes(options: { defaultModel?: string; models?: readonly string[] } = {}): CatalogNode[] {
  return [
    catalogNode('Agent/assistant', { nodeType: 'Agent', name: 'Assistant', description: 'The general assistant of this workspace.', order: -1 }),
    catalogNode('Agent/researcher', { nodeType: 'Agent', name: 'Researcher', description: 'Finds and compares sources before it answers.', order: 1 }),
    catalogNode('Agent/analyst', { nodeType: 'Agent', name: 'Analyst', description: 'Works with records and numbers; prefers tables.', order: 2 }),
    ...modelNodes(options.defaultModel, options.models),
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
