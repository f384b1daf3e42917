import * as z from 'zod/mini';

/**
 * The user's own MCP servers (BYO MCP) on the workspace protocol: the connect
 * body and what the browser sees of a server. Their routes are in
 * `protocol/routes.ts` (`listConnectors`, `connectConnector`,
 * `disconnectConnector`). A token goes up in the connect body and never comes
 * back down.
 */

export { CONNECTORS_FEATURE } from './protocol/features';

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
  /** `oauth`: the user signs in to it on its own page (a pop-up), not with a pasted token. */
  signIn?: 'oauth';
  /**
   * `unavailable`: stored, but it could not be reached the last time it was tried (`problems` say why).
   * `needs_auth`: it signs users in with OAuth and needs this user to sign in (first, or again when
   * the sign-in ran out); `authorize` starts it.
   */
  status: 'connected' | 'unavailable' | 'needs_auth';
  /** Its tools, as capabilities of this user's threads: `<label>.<tool>`. */
  tools: { name: string; title: string; kind: 'read' | 'mutate'; needsApproval: boolean }[];
  problems: string[];
}

/** `POST /v1/mcp-servers/{label}/authorize`: nothing to send; the answer is the page to sign in on. */
export const AuthorizeMcpBody = z.object({});
export const AuthorizeMcpAnswer = z.object({ url: z.string() });

/**
 * `POST /v1/mcp-servers/oauth/complete`: what the sign-in page's redirect brought back (the kit's
 * landing page at `/v1/mcp-servers/oauth/callback` posts it, same-origin). `state` must be one this
 * user's session started.
 */
export const CompleteMcpSignInBody = z.object({
  state: z.string().check(z.minLength(1), z.maxLength(512)),
  code: z.optional(z.string().check(z.maxLength(4096))),
  iss: z.optional(z.string().check(z.maxLength(2048))),
  error: z.optional(z.string().check(z.maxLength(256))),
  error_description: z.optional(z.string().check(z.maxLength(2048))),
});
export type CompleteMcpSignInRequest = z.infer<typeof CompleteMcpSignInBody>;
/** The server as it is now, and the exact origin of the page that opened the sign-in (the landing page tells it there). */
export const CompleteMcpSignInAnswer = z.object({ label: z.string(), status: z.string(), openerOrigin: z.string(), message: z.string() });

/** What the landing page posts to the page that opened it (to that page's exact origin). */
export const MCP_SIGN_IN_MESSAGE = 'chatsurface:mcp-sign-in';

/** The adapter's view of the user's own MCP servers (`WorkspaceAdapter.connectors`). */
export interface ConnectorsApi {
  list(): Promise<ConnectorInfo[]>;
  /**
   * Connects and lists its tools; rejects saying why not (unreachable, token refused, not MCP, name taken, …).
   * A server that signs users in with OAuth resolves as `status: 'needs_auth'`: call `authorize` next.
   */
  connect(request: ConnectMcpRequest): Promise<ConnectorInfo>;
  disconnect(label: string): Promise<void>;
  /** Starts signing in to an OAuth server (`status: 'needs_auth'`): the page to open in a pop-up. */
  authorize?(label: string): Promise<{ url: string }>;
}
