import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { Hono } from 'hono';
import type { Door, DoorResponse } from '../runtime/doors/door';
import { boundResult, mcpTools } from '../runtime/doors/mcpTools';
import { errorResult } from '../runtime/envelope';
import type { ThreadEvent } from '../runtime/events';
import type { Principal } from '../runtime/principal';
import type { Registry } from '../runtime/registry';
import { errorResponse } from './http';

export interface McpRoutesOptions {
  door: Door;
  registry: Registry;
  /** The caller, as the host's `authenticate` said; null answers 401 before any JSON-RPC is read. */
  principal(request: Request): Promise<Principal | null>;
  /** Mutates the host opts in; reads are always served. */
  mutates: readonly string[];
  /** Characters of JSON a tool result may take. */
  outputLimit: number;
  /** Bytes a request body may take. */
  bodyBytes: number;
  serverInfo: { name: string; version: string };
}

/**
 * The MCP door: Streamable HTTP at `/mcp`, stateless (a fresh SDK server and
 * transport per request, no session), bearer keys checked before any JSON-RPC
 * is read. Tools are generated from the registry: reads, plus the mutates the
 * host opted in. Calls go through the same door adapter as REST; progress
 * becomes `notifications/progress` when the client sent a progress token;
 * results are bounded.
 */
export function mcpRoutes(options: McpRoutesOptions): Hono {
  const { door, registry, mutates, outputLimit, serverInfo } = options;
  const app = new Hono();

  app.all('/mcp', async (c) => {
    const principal = await options.principal(c.req.raw);
    if (!principal) {
      const sent = c.req.header('authorization') !== undefined;
      return errorResponse(401, 'unauthorized', sent ? 'The API key is not valid.' : 'Send an API key as "Authorization: Bearer <key>".', undefined, {
        'www-authenticate': 'Bearer',
      });
    }
    // Low-level Server rather than McpServer: the tool list must carry the registry's own JSON Schemas, byte for byte.
    const server = new Server(serverInfo, { capabilities: { tools: {} } });
    server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: mcpTools(registry.describe(), mutates) }));
    server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
      const progressToken = request.params._meta?.progressToken;
      const observe =
        progressToken === undefined
          ? undefined
          : (event: ThreadEvent) => {
              if (event.type !== 'capability.progress') return;
              const params = { progressToken, progress: event.progress, ...(event.total !== undefined ? { total: event.total } : {}), ...(event.message !== undefined ? { message: event.message } : {}) };
              extra.sendNotification({ method: 'notifications/progress', params }).catch(() => undefined);
            };
      const response = await door.call({ capability: request.params.name, args: request.params.arguments ?? {}, principal, ...(observe ? { observe } : {}) });
      return mcpResult(response, outputLimit);
    });
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, maxRequestBodySize: options.bodyBytes });
    await server.connect(transport);
    const response = await transport.handleRequest(c.req.raw);
    const cleanup = () => {
      void transport.close().catch(() => undefined);
      void server.close().catch(() => undefined);
    };
    if (!response.body) {
      cleanup();
      return response;
    }
    return new Response(closeWhenDone(response.body, cleanup), { status: response.status, headers: response.headers });
  });

  return app;
}

/** A door response as an MCP `CallToolResult`; unknown tools are JSON-RPC errors, other refusals tool errors (SEP-1303). */
export function mcpResult(response: DoorResponse, outputLimit: number): CallToolResult {
  switch (response.kind) {
    case 'refused': {
      if (response.error.code === 'unknown_capability') throw new McpError(ErrorCode.InvalidParams, response.error.message);
      const result = errorResult(response.error.message);
      return { ...result, _meta: { 'chatsurface/error': response.error } } as CallToolResult;
    }
    case 'running':
      return errorResult(
        `Still running after the wait: job ${response.jobId}. Poll GET /v1/jobs/${response.jobId} with the same key for its result.`,
      ) as CallToolResult;
    case 'done':
      return boundResult(response.result, outputLimit, response.jobId) as CallToolResult;
    default:
      return response satisfies never;
  }
}

function closeWhenDone(body: ReadableStream<Uint8Array>, done: () => void): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { value, done: finished } = await reader.read();
        if (finished) {
          controller.close();
          done();
        } else controller.enqueue(value);
      } catch (error) {
        controller.error(error);
        done();
      }
    },
    cancel(reason) {
      done();
      return reader.cancel(reason);
    },
  });
}
