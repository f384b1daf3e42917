import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { CapabilityDescriptor } from '../runtime/capability';
import { defineMcpCapability } from '../runtime/sources/mcp';
import { createMcpConnection, type McpConnection } from '../runtime/sources/mcpConnection';
import type { Connector } from '../runtime/stores/connectorStore';
import type { ConnectorInfo } from '../workspace/connectorsProtocol';
import { explain, withTimeout, type Observed } from './connectorErrors';
import { guardedFetch, type NetworkPolicy } from './connectorNetwork';

/** One of a user's servers, as this process holds it: its connection, its tools as capabilities, what went wrong. */
export interface Entry {
  connector: Connector;
  connection: McpConnection;
  closeNetwork: () => Promise<void>;
  capabilities: CapabilityDescriptor[];
  problems: string[];
  status: 'connected' | 'unavailable';
}

/** How a server is opened: where it may be, how many tools it gives, how long to wait. */
export interface OpenLimits {
  network: NetworkPolicy;
  maxTools: number;
  connectTimeoutMs: number;
  callTimeoutMs: number;
}

/** Opens a connection and lists the server's tools as capabilities; throws in plain words. */
export async function openServer(connector: Connector, limits: OpenLimits): Promise<Entry> {
  const network = guardedFetch(limits.network);
  const observed: Observed = {};
  const watch: typeof fetch = async (input, init) => {
    try {
      const response = await network.fetch(input, init);
      observed.status = response.status;
      observed.contentType = response.headers.get('content-type') ?? '';
      return response;
    } catch (error) {
      observed.failure = error;
      throw error;
    }
  };
  const headers: Record<string, string> = connector.token ? { authorization: `Bearer ${connector.token}` } : {};
  const url = new URL(connector.url);
  const connection = createMcpConnection({
    name: connector.label,
    transport: () => new StreamableHTTPClientTransport(url, { requestInit: { headers }, fetch: watch }),
    timeoutMs: limits.callTimeoutMs,
  });
  let tools;
  try {
    tools = await withTimeout(connection.listTools(), limits.connectTimeoutMs);
  } catch (error) {
    await connection.close().catch(() => undefined);
    await network.close().catch(() => undefined);
    throw explain(connector, observed, error);
  }
  const problems: string[] = [];
  if (tools.length > limits.maxTools) problems.push(`It lists ${tools.length} tools; the first ${limits.maxTools} are offered.`);
  // The listing is read once: each tool's capability is made from it, not from a listing of its own.
  const listed = tools.slice(0, limits.maxTools);
  const once: McpConnection = {
    name: connection.name,
    get era() {
      return connection.era;
    },
    listTools: async () => listed,
    callTool: (tool, args, call) => connection.callTool(tool, args, call),
    readResource: (uri) => connection.readResource(uri),
    close: () => connection.close(),
  };
  const capabilities = await toolCapabilities(connector, once, listed, problems);
  return { connector, connection: once, closeNetwork: () => network.close(), capabilities, problems, status: 'connected' };
}

/** The listed tools as capabilities named `<label>.<tool>`; one that cannot be made is a problem, not a failure. */
async function toolCapabilities(
  connector: Connector,
  connection: McpConnection,
  listed: Awaited<ReturnType<McpConnection['listTools']>>,
  problems: string[],
): Promise<CapabilityDescriptor[]> {
  const capabilities: CapabilityDescriptor[] = [];
  for (const tool of listed) {
    const readOnly = tool.annotations?.readOnlyHint === true;
    try {
      capabilities.push(
        await defineMcpCapability(connection, {
          tool: tool.name,
          name: `${connector.label}.${tool.name}`,
          title: `${tool.title ?? tool.annotations?.title ?? tool.name} (${connector.label})`,
          description: tool.description?.trim() || `The tool "${tool.name}" of your MCP server ${connector.label}.`,
          // Only a tool that says it is read-only runs without asking: everything else waits for the user's approval.
          ...(readOnly ? {} : { requires_user_confirmation: true }),
        }),
      );
    } catch (error) {
      problems.push(error instanceof Error ? error.message : String(error));
    }
  }
  return capabilities;
}

/** A stored server, connected again; one that is down stays listed, without tools, saying why. */
export async function reopenServer(connector: Connector, limits: OpenLimits): Promise<Entry> {
  try {
    return await openServer(connector, limits);
  } catch (error) {
    return {
      connector,
      connection: { name: connector.label, era: undefined, listTools: async () => [], callTool: async () => { throw error; }, readResource: async () => { throw error; }, close: async () => undefined },
      closeNetwork: async () => undefined,
      capabilities: [],
      problems: [error instanceof Error ? error.message : String(error)],
      status: 'unavailable',
    };
  }
}

/** Closes the connection and its guarded network; never throws. */
export async function closeEntry(e: Entry): Promise<void> {
  await e.connection.close().catch(() => undefined);
  await e.closeNetwork().catch(() => undefined);
}

/** The server as the list route shows it (no token). */
export function describeEntry(e: Entry): ConnectorInfo {
  return {
    label: e.connector.label,
    url: e.connector.url,
    hasToken: e.connector.token !== undefined,
    status: e.status,
    tools: e.capabilities.map((d) => ({ name: d.name, title: d.title, kind: d.kind, needsApproval: d.requires_user_confirmation === true })),
    problems: e.problems,
  };
}
