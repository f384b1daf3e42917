import type { ThreadHost } from '../runtime/host/threadHost';
import type { McpElicitHandler } from '../runtime/sources/mcpClientRequests';

/**
 * The workspace server's default answer to a consumed MCP server's question (elicitation): a row
 * in the chat thread whose card runs the tool (`ThreadHost.elicit`), answered there by the
 * thread's principal. The MCP clients connect before the thread host exists, so the handler is
 * made first and given the host once it is there.
 */
export function chatElicitation(): { handler: McpElicitHandler; attach(host: ThreadHost): void } {
  let host: ThreadHost | null = null;
  const handler: McpElicitHandler = async (request, { server, call, signal }) => {
    if (!host) throw new Error(`"${server}" asked a question before this workspace had started, so nobody could answer it.`);
    if (!call?.threadKey) {
      throw new Error(`"${server}" asked a question while several of its calls were running and named none of them, so it could not be shown in the right chat.`);
    }
    const where = { server, tool: call.tool, ...(call.invocationId ? { invocationId: call.invocationId } : {}) };
    return request.mode === 'form'
      ? host.elicit(call.threadKey, { ...where, mode: 'form', message: request.message, requestedSchema: request.requestedSchema as Record<string, unknown> }, signal)
      : host.elicit(call.threadKey, { ...where, mode: 'url', message: request.message, url: request.url, host: request.host }, signal);
  };
  return {
    handler,
    attach(next) {
      host = next;
    },
  };
}
