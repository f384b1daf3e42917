import * as z from 'zod/mini';

/**
 * The user's own MCP servers (BYO MCP) on the workspace protocol: the connect
 * body and what the browser sees of a server. Their routes are in
 * `protocol/routes.ts` (`listConnectors`, `connectConnector`,
 * `disconnectConnector`). A token goes up in the connect body and never comes
 * back down.
 */

/** The manifest feature a server lists when it takes users' own MCP servers. */
export const CONNECTORS_FEATURE = 'mcpServers';

export const ConnectMcpBody = z.object({
  label: z.string().check(z.trim(), z.minLength(1, 'Give the server a short name.'), z.maxLength(32, 'A name is at most 32 characters.')),
  url: z.string().check(z.trim(), z.minLength(1, "Give the server's URL."), z.maxLength(2048)),
  token: z.optional(z.string().check(z.maxLength(8192, 'That token is longer than 8192 characters.'))),
});
export type ConnectMcpRequest = z.infer<typeof ConnectMcpBody>;

/** One of the user's servers as the browser sees it: never its token, only whether it has one. */
export interface ConnectorInfo {
  label: string;
  url: string;
  hasToken: boolean;
  /** `unavailable`: stored, but it could not be reached the last time it was tried (`problems` say why). */
  status: 'connected' | 'unavailable';
  /** Its tools, as capabilities of this user's threads: `<label>.<tool>`. */
  tools: { name: string; title: string; kind: 'read' | 'mutate'; needsApproval: boolean }[];
  problems: string[];
}

/** The adapter's view of the user's own MCP servers (`WorkspaceAdapter.connectors`). */
export interface ConnectorsApi {
  list(): Promise<ConnectorInfo[]>;
  /** Connects and lists its tools; rejects saying why not (unreachable, token refused, not MCP, name taken, …). */
  connect(request: ConnectMcpRequest): Promise<ConnectorInfo>;
  disconnect(label: string): Promise<void>;
}
