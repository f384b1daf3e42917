import type { CapabilityDescriptor, ToolAnnotations } from '../runtime/capability';
import { defineMcpCapability } from '../runtime/sources/mcp';
import type { McpElicitHandler, McpSamplingHandler } from '../runtime/sources/mcpClientRequests';
import { createMcpConnection, type McpConnection } from '../runtime/sources/mcpConnection';

/** One of the host's own MCP servers whose tools become capabilities. */
export interface McpServerConfig {
  /** The namespace of its capabilities: tool `search` of server `corpus` is `corpus.search`. Letters, digits, `_`, `-`. */
  name: string;
  /** Its Streamable HTTP endpoint, e.g. `http://127.0.0.1:8788/mcp`. */
  url: string;
  /** Sent as `Authorization: Bearer <token>` (kept on this server). */
  token?: string;
  /** Only these tools. @default every tool it lists */
  tools?: readonly string[];
  /** Arguments the host fixes per tool (e.g. `{ search: { collection: 'acme' } }`): hidden from callers, who cannot change them. */
  pinned?: Readonly<Record<string, Record<string, unknown>>>;
  /** How long a call may go without an answer or progress. @default 60000 */
  timeoutMs?: number;
  /** Hints the host knows better than the server, per tool (e.g. `{ 'get-time': { readOnlyHint: true } }`: a read runs without approval). */
  annotations?: Readonly<Record<string, ToolAnnotations>>;
  /**
   * Lets this server ask the host's model for a message (MCP sampling, `sampling/createMessage`),
   * for example with the workspace's own driver. Without it the client does not declare
   * `sampling`, and a server that asks anyway is told in plain words that this workspace does
   * not let servers ask its model.
   */
  sampling?: McpSamplingHandler;
  /**
   * Lets this server ask a question while one of its tools runs (MCP elicitation): a form
   * (`mode: 'form'`) or an `https:` page to open (`mode: 'url'`, with its host name).
   * `context.call` says which invocation (and thread key) the question belongs to; accepted form
   * content is checked against the server's schema before it goes back. Without it a workspace
   * server asks in the chat: a row in the thread of the call, answered by its user
   * (docs/protocols.md, "Elicitation in the chat"). `false`: the client does not declare
   * `elicitation`, servers list no tools that need it, and one that asks anyway is told in plain
   * words that this workspace does not pass its questions on.
   */
  elicit?: McpElicitHandler | false;
}

/** How connecting to one MCP server went. */
export interface McpServerStatus {
  name: string;
  url: string;
  /** The capabilities it contributed. */
  capabilities: string[];
  /** Why it contributed none, or some tools were left out. */
  problems: string[];
  /** The protocol it speaks once reached: `modern` is MCP 2026-07-28, `legacy` the 2025 handshake. */
  era?: 'modern' | 'legacy';
}

const NAMESPACE = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * Lists each MCP server's tools through the MCP client source and turns them
 * into `mcp` capabilities named `<server>.<tool>` (consuming MCP, a path
 * separate from serving our registry at `/mcp`). A server that cannot be
 * reached, or a tool that cannot be described, is reported in the status and
 * left out; the workspace starts without it.
 */
export async function consumeMcpServers(
  configs: readonly McpServerConfig[],
  defaults: { elicit?: McpElicitHandler } = {},
): Promise<{ capabilities: CapabilityDescriptor[]; status: McpServerStatus[]; connections: McpConnection[] }> {
  const names = new Set<string>();
  for (const config of configs) {
    if (!NAMESPACE.test(config.name)) {
      throw new Error(`MCP server name "${config.name}" must be 1–64 letters, digits, "_" or "-": it becomes the namespace of its tools.`);
    }
    if (names.has(config.name)) throw new Error(`Two MCP servers are named "${config.name}"; give each its own namespace.`);
    names.add(config.name);
  }
  const results = await Promise.all(configs.map((config) => connect(config.elicit !== undefined || !defaults.elicit ? config : { ...config, elicit: defaults.elicit })));
  return {
    capabilities: results.flatMap((r) => r.capabilities),
    status: results.map((r) => r.status),
    connections: results.map((r) => r.connection),
  };
}

async function connect(config: McpServerConfig) {
  const connection = createMcpConnection({
    name: config.name,
    url: config.url,
    ...(config.token ? { requestInit: { headers: { authorization: `Bearer ${config.token}` } } } : {}),
    ...(config.timeoutMs !== undefined ? { timeoutMs: config.timeoutMs } : {}),
    ...(config.sampling ? { sampling: config.sampling } : {}),
    ...(config.elicit ? { elicit: config.elicit } : {}),
  });
  const status: McpServerStatus = { name: config.name, url: config.url, capabilities: [], problems: [] };
  const capabilities: CapabilityDescriptor[] = [];
  let listed: string[];
  try {
    listed = (await connection.listTools()).map((tool) => tool.name);
    if (connection.era) status.era = connection.era;
  } catch (error) {
    status.problems.push(error instanceof Error ? error.message : String(error));
    return { capabilities, status, connection };
  }
  const wanted = config.tools ?? listed;
  for (const tool of wanted) {
    if (!listed.includes(tool)) {
      status.problems.push(`It lists no tool "${tool}" (it offers: ${listed.join(', ') || 'none'}).`);
      continue;
    }
    try {
      const pinned = config.pinned?.[tool];
      const annotations = config.annotations?.[tool];
      const descriptor = await defineMcpCapability(connection, { tool, ...(pinned ? { pinned } : {}), ...(annotations ? { annotations } : {}) });
      capabilities.push(descriptor);
      status.capabilities.push(descriptor.name);
    } catch (error) {
      status.problems.push(error instanceof Error ? error.message : String(error));
    }
  }
  return { capabilities, status, connection };
}
