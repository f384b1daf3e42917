/**
 * The workspace protocol's routes by method and path, the half of the table
 * (`routes.ts`) a page needs before it sends: no schemas, so a page that has
 * not called the server yet carries none. `routes.ts` adds each route's body,
 * query and answer schemas to these, by the same names.
 */
export const paths = {
  manifest: { method: 'GET', path: '/v1/manifest' },
  send: { method: 'POST', path: '/v1/threads/:threadId/turns' },
  events: { method: 'GET', path: '/v1/threads/:threadId/events', stream: true },
  setView: { method: 'POST', path: '/v1/threads/:threadId/view' },
  decide: { method: 'POST', path: '/v1/threads/:threadId/decisions' },
  feedback: { method: 'POST', path: '/v1/threads/:threadId/feedback' },
  regenerate: { method: 'POST', path: '/v1/threads/:threadId/regenerations' },
  showVersion: { method: 'POST', path: '/v1/threads/:threadId/versions' },
  setComposer: { method: 'POST', path: '/v1/threads/:threadId/composer' },
  /** Connect and disconnect, told apart by the body's `action`. */
  provider: { method: 'POST', path: '/v1/threads/:threadId/providers' },
  invoke: { method: 'POST', path: '/v1/invocations' },
  /** `:id` is an invocation id or a turn id. */
  cancel: { method: 'POST', path: '/v1/invocations/:id/cancel' },
  query: { method: 'GET', path: '/v1/nodes' },
  saveSkill: { method: 'POST', path: '/v1/skills' },
  readApp: { method: 'GET', path: '/v1/threads/:threadId/invocations/:invocationId/app' },
  callAppTool: { method: 'POST', path: '/v1/threads/:threadId/invocations/:invocationId/app/calls' },
  listConnectors: { method: 'GET', path: '/v1/mcp-servers' },
  connectConnector: { method: 'POST', path: '/v1/mcp-servers' },
  disconnectConnector: { method: 'DELETE', path: '/v1/mcp-servers/:label' },
  /** Signing in to a user's OAuth-protected MCP server: the page to open, then what its redirect brought back. */
  authorizeConnector: { method: 'POST', path: '/v1/mcp-servers/:label/authorize' },
  completeConnectorSignIn: { method: 'POST', path: '/v1/mcp-servers/oauth/complete' },
  /** The caller's threads, newest activity first (`q` searches, `archived=true` lists the archived ones). */
  listThreads: { method: 'GET', path: '/v1/threads' },
  renameThread: { method: 'POST', path: '/v1/threads/:threadId/title' },
  archiveThread: { method: 'POST', path: '/v1/threads/:threadId/archived' },
  /** Stops what runs in the thread, then removes its events for good. */
  deleteThread: { method: 'DELETE', path: '/v1/threads/:threadId' },
} as const;

/** A route's name in the table. */
export type RouteName = keyof typeof paths;

/** The `:name` parameters of a path, as an object of strings. */
export type ParamsOf<Path extends string> = Path extends `${string}:${infer Name}/${infer Rest}`
  ? { [K in Name]: string } & ParamsOf<`/${Rest}`>
  : Path extends `${string}:${infer Name}`
    ? { [K in Name]: string }
    : Record<never, string>;

/** The names of a path's `:name` parameters, in order. */
export function paramNames(path: string): string[] {
  return [...path.matchAll(/:([A-Za-z]+)/g)].map((match) => match[1]!);
}

/** A route's path with its parameters filled in (each one URI-encoded). */
export function pathOf<Path extends string>(path: Path, params: ParamsOf<Path>): string {
  const values = new Map<string, string>(Object.entries(params));
  return path.replace(/:([A-Za-z]+)/g, (_, name: string) => encodeURIComponent(values.get(name) ?? ''));
}
