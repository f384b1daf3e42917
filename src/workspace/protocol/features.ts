/**
 * The manifest's `features` the protocol names beyond the optional adapter
 * methods (`OPTIONAL_METHODS`): what a page checks before it offers a part.
 * Without schemas, so a page reads them before it has called its server.
 */

/** The manifest feature a server lists when it takes users' own MCP servers. */
export const CONNECTORS_FEATURE = 'mcpServers';

/** The manifest feature a server lists when its store keeps a thread list. */
export const THREADS_FEATURE = 'threads';

/** The manifest feature of a server that takes files (`POST /v1/threads/{id}/attachments`). */
export const ATTACHMENTS_FEATURE = 'attachments';
