import { z } from 'zod';
import { defineCapability } from '../runtime/capability';
import { textResult } from '../runtime/results';
import { createWorkspaceServer, type WorkspaceServer } from '../server/createWorkspaceServer';
import { startAuthServer, type TestAuthServer } from './authServer';

/** An MCP server that signs its users in with OAuth, and the authorization server it trusts, both on 127.0.0.1. */
export interface OAuthMcpServer {
  /** Its MCP endpoint (the resource), e.g. `http://127.0.0.1:4180/mcp`. */
  url: string;
  auth: TestAuthServer;
  /** The users its tool ran for, in order. */
  seen: string[];
  stop(): Promise<void>;
}

/**
 * The kit's own MCP door behind OAuth (`mcpAuth`, `mcp:tools` required) with one read-only tool,
 * `notes.count` ("7 notes for <user>"), and a real authorization server (oidc-provider, see
 * `authServer.ts`) whose sign-in is scripted: it signs `alice` in and grants what is asked.
 * @example
 * const server = await startOAuthMcpServer();
 * // connect server.url as a user's own MCP server, sign in at server.auth …
 * await server.stop();
 */
export async function startOAuthMcpServer(ports: { mcp?: number; issuer?: number } = {}): Promise<OAuthMcpServer> {
  const auth = await startAuthServer({ scopes: ['mcp:tools'], ...(ports.issuer ? { port: ports.issuer } : {}) });
  const seen: string[] = [];
  const count = defineCapability({
    name: 'notes.count',
    title: 'Count notes',
    description: "Counts the caller's notes.",
    kind: 'read',
    input: z.object({}),
    handler: (_args, ctx) => {
      const user = ctx.threadKey.replace(/^mcp:/, '');
      seen.push(user);
      return textResult(`7 notes for ${user}`);
    },
  });
  let server: WorkspaceServer;
  try {
    server = await createWorkspaceServer({ capabilities: [count], database: ':memory:', mcpAuth: { issuer: auth.issuer, requiredScopes: ['mcp:tools'] } });
  } catch (error) {
    await auth.close();
    throw error;
  }
  const { url } = await server.listen(ports.mcp ? { port: ports.mcp } : {});
  return {
    url: `${url}/mcp`,
    auth,
    seen,
    async stop() {
      await server.close();
      await auth.close();
    },
  };
}
