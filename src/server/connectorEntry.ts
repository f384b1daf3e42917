import { StreamableHTTPClientTransport, extractWWWAuthenticateParams } from '@modelcontextprotocol/client';
import type { CapabilityDescriptor } from '../runtime/capability';
import { defineMcpCapability } from '../runtime/sources/mcp';
import { createMcpConnection, type McpConnection } from '../runtime/sources/mcpConnection';
import type { McpElicitHandler } from '../runtime/sources/mcpClientRequests';
import type { Connector } from '../runtime/stores/connectorStore';
import type { ConnectorInfo } from '../workspace/connectorsProtocol';
import { explain, withTimeout, type Observed } from './connectorErrors';
import { guardedFetch, type NetworkPolicy } from './connectorNetwork';
import { grantOf, oauthFetch, oauthSession, type OAuthGrant, type OAuthSession } from './connectorOAuth';

/** One of a user's servers, as this process holds it: its connection, its tools as capabilities, what went wrong. */
export interface Entry {
  connector: Connector;
  connection: McpConnection;
  closeNetwork: () => Promise<void>;
  capabilities: CapabilityDescriptor[];
  problems: string[];
  /** `needs_auth`: an OAuth server the user must sign in to (first, or again); `problems` say so in words. */
  status: 'connected' | 'unavailable' | 'needs_auth';
}

/** How a server is opened: where it may be, how many tools it gives, how long to wait. */
export interface OpenLimits {
  network: NetworkPolicy;
  maxTools: number;
  connectTimeoutMs: number;
  callTimeoutMs: number;
  /** Keeps a connector's renewed OAuth grant (sealed, in the store). */
  saveGrant?(connector: Connector, grant: OAuthGrant): Promise<void>;
  /** Where the server's questions go (elicitation): the chat of the call, as for the host's servers. */
  elicit?: McpElicitHandler;
}

/** Opens a connection and lists the server's tools as capabilities; throws in plain words. */
export async function openServer(connector: Connector, limits: OpenLimits): Promise<Entry> {
  const grant = grantOf(connector);
  const network = guardedFetch(limits.network);
  const observed: Observed = {};
  const watch: typeof fetch = async (input, init) => {
    try {
      const response = await network.fetch(input, init);
      observed.status = response.status;
      observed.contentType = response.headers.get('content-type') ?? '';
      if (response.status === 401) observed.challenge = extractWWWAuthenticateParams(response);
      return response;
    } catch (error) {
      observed.failure = error;
      throw error;
    }
  };
  // What the list shows while the session runs: a refused renewal turns the entry to `needs_auth`.
  const live: { entry?: Entry; signInAgain?: string } = {};
  const session = grant
    ? oauthSession(connector.label, grant, {
        fetch: oauthFetch(network.fetch),
        save: async (next) => limits.saveGrant?.(connector, next),
        onSignInAgain: (message) => {
          live.signInAgain = message;
          if (live.entry) needsSignIn(live.entry, message);
        },
      })
    : null;
  if (session?.signInAgain) {
    await network.close().catch(() => undefined);
    return signInEntry(connector, session.signInAgain);
  }
  const headers: Record<string, string> = connector.token && !grant ? { authorization: `Bearer ${connector.token}` } : {};
  const url = new URL(connector.url);
  const connection = createMcpConnection({
    name: connector.label,
    transport: () => new StreamableHTTPClientTransport(url, { requestInit: { headers }, fetch: session ? signedFetch(session, watch) : watch }),
    timeoutMs: limits.callTimeoutMs,
    ...(limits.elicit ? { elicit: limits.elicit } : {}),
  });
  let tools;
  try {
    tools = await withTimeout(connection.listTools(), limits.connectTimeoutMs);
  } catch (error) {
    await connection.close().catch(() => undefined);
    await network.close().catch(() => undefined);
    // The sign-in could not be renewed: the server waits for its user, it is not down.
    if (live.signInAgain) return signInEntry(connector, live.signInAgain);
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
  const entry: Entry = { connector, connection: once, closeNetwork: () => network.close(), capabilities, problems, status: 'connected' };
  live.entry = entry;
  if (live.signInAgain) needsSignIn(entry, live.signInAgain);
  return entry;
}

/**
 * A fetch that sends the user's access token (renewed first when it is about to run out) and, when
 * the server answers 401 all the same, renews it once and sends the request again.
 */
function signedFetch(session: OAuthSession, next: typeof fetch): typeof fetch {
  const send = (input: Parameters<typeof fetch>[0], init: RequestInit | undefined, token: string) => {
    const headers = new Headers(init?.headers);
    headers.set('authorization', `Bearer ${token}`);
    return next(input, { ...init, headers });
  };
  return async (input, init) => {
    const token = await session.accessToken();
    const response = await send(input, init, token);
    if (response.status !== 401) return response;
    await response.body?.cancel().catch(() => undefined);
    return send(input, init, await session.renew(token));
  };
}

/** The entry of a server the user must sign in to: listed, its tools left out, saying so. */
function signInEntry(connector: Connector, message: string): Entry {
  const refuse = async (): Promise<never> => {
    throw new Error(message);
  };
  return {
    connector,
    connection: { name: connector.label, era: undefined, listTools: async () => [], callTool: refuse, readResource: refuse, close: async () => undefined },
    closeNetwork: async () => undefined,
    capabilities: [],
    problems: [message],
    status: 'needs_auth',
  };
}

function needsSignIn(entry: Entry, message: string): void {
  entry.status = 'needs_auth';
  if (!entry.problems.includes(message)) entry.problems.push(message);
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
  const grant = grantOf(connector);
  if (grant?.signInAgain) return signInEntry(connector, grant.signInAgain);
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
    ...(grantOf(e.connector) ? { signIn: 'oauth' as const } : {}),
    status: e.status,
    tools: e.capabilities.map((d) => ({ name: d.name, title: d.title, kind: d.kind, needsApproval: d.requires_user_confirmation === true })),
    problems: e.problems,
  };
}
