/**
 * The packages only some features need. They are optional peer dependencies of
 * chatsurface (package.json `peerDependencies` + `peerDependenciesMeta.optional`,
 * and `devDependencies` for this repository's own tests), so a browser-only host
 * installs none of them. This list is the one place that says which they are;
 * `peers.test.ts` holds package.json to it and `scripts/install-check.mjs`
 * checks a fresh install pulls none of them.
 */
export const OPTIONAL_PEERS = {
  'better-sqlite3': 'The SQLite stores of chatsurface/server',
  pg: 'The PostgreSQL stores of chatsurface/server',
  hono: 'The workspace server of chatsurface/server',
  '@hono/node-server': 'The workspace server of chatsurface/server',
  '@anthropic-ai/sdk': 'The Anthropic model driver (chatsurface/anthropic)',
  openai: 'The OpenAI-compatible model driver (chatsurface/openai: OpenAI, llama.cpp, Ollama, vLLM, LM Studio)',
  '@modelcontextprotocol/client': 'MCP sources (chatsurface/mcp)',
  '@modelcontextprotocol/server': 'The /mcp door of chatsurface/server',
  undici: "Users' own MCP servers (the connectors option of chatsurface/server)",
  'ipaddr.js': "Users' own MCP servers (the connectors option of chatsurface/server: which addresses are private)",
  jose: 'OAuth 2.1 on the MCP door (the mcpAuth option of chatsurface/server: checking access tokens)',
  tldts: 'Wildcard origins of MCP App views from MCP servers (chatsurface/mcp, chatsurface/server: the public suffix list); without it a wildcard is left out',
  '@modelcontextprotocol/ext-tasks': "MCP servers' task-augmented tools (chatsurface/mcp, chatsurface/server: loaded the first time a server offers tasks)",
  '@modelcontextprotocol/ext-apps': 'MCP App views in invocation cards (loaded the first time a card shows one)',
  '@ag-ui/client': 'The AG-UI workspace of chatsurface/ag-ui',
  '@ag-ui/core': 'AG-UI (the workspace of chatsurface/ag-ui, the /v1/ag-ui endpoint of chatsurface/server)',
  '@ag-ui/encoder': 'The /v1/ag-ui endpoint of chatsurface/server',
  mermaid: 'Diagrams in replies (```mermaid fences, drawn the first time a reply shows one)',
} as const satisfies Record<string, string>;

export type OptionalPeer = keyof typeof OPTIONAL_PEERS;

/** A feature was used whose optional peer package is not installed. */
export class MissingPeerError extends Error {
  readonly package: OptionalPeer;
  constructor(name: OptionalPeer, cause?: unknown) {
    super(`${OPTIONAL_PEERS[name]} needs the package "${name}", which is not installed. Install it beside chatsurface: npm install ${name}`, { cause });
    this.name = 'MissingPeerError';
    this.package = name;
  }
}

/**
 * Whether `error` says the module `name` (or a file of it) could not be found, as Node and bundlers word it
 * (Vite builds a missing package's `import()` into a chunk that throws `Could not resolve "name"`).
 */
export function isMissingModule(error: unknown, name: string): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (code !== 'MODULE_NOT_FOUND' && code !== 'ERR_MODULE_NOT_FOUND' && !/cannot find (module|package)|could not resolve/i.test(error.message)) return false;
  return error.message.includes(`'${name}'`) || error.message.includes(`"${name}"`) || error.message.includes(`'${name}/`) || error.message.includes(`"${name}/`);
}
