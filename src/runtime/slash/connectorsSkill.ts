import { catalogNode, type CatalogNode } from '../catalogNodes';

/** The `/mcp` slash skill: opens the form of the user's own MCP servers (in the catalog when the server takes them). */
export function connectorsSkill(): CatalogNode {
  return catalogNode('Skill/mcp', {
    nodeType: 'Skill',
    name: '/mcp',
    description: 'Connect your own MCP server: its tools join your chats (only yours)',
    order: 6,
    keywords: ['mcp', 'server', 'connect', 'tools', 'connector'],
    skill: { action: { kind: 'Connectors' }, autoMount: false, launchesSubThread: false },
  });
}
