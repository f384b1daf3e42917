/** Revisions whose clients take an event with empty data (2025-11-25 made the priming event part of Streamable HTTP). */
const PRIMING_REVISIONS = new Set(['2025-11-25', '2026-07-28']);

/** The protocol revision a POST speaks: its `MCP-Protocol-Version` header, or an `initialize` request's own. */
export function revisionOf(request: Request, body: unknown): string | null {
  const header = request.headers.get('mcp-protocol-version');
  if (header) return header;
  const message = body as { method?: unknown; params?: { protocolVersion?: unknown } } | null;
  return message?.method === 'initialize' && typeof message.params?.protocolVersion === 'string' ? message.params.protocolVersion : null;
}

/**
 * An SSE answer with a priming event first (MCP 2025-11-25, Streamable HTTP, "Resumability and
 * Redelivery"): an event with an `id` and empty data, and a `retry` field saying how long a
 * client waits before it reconnects. Only for revisions whose clients read an empty event
 * (older ones may try to parse it); a JSON answer is left as it is. The door keeps no stream to
 * resume (it is stateless: a reconnecting `GET` is answered 405), so a client whose stream broke
 * follows the call's job instead (`tasks/get`, `chatsurface://jobs/{id}`, `GET /v1/jobs/{id}`).
 */
export function primed(response: Response, revision: string | null, retryMs: number): Response {
  const type = response.headers.get('content-type') ?? '';
  if (!response.body || !type.includes('text/event-stream') || revision === null || !PRIMING_REVISIONS.has(revision)) return response;
  // `data:` with nothing after it: an empty event for SSE parsers, and no line a `data: ` splitter mistakes for JSON.
  const priming = new TextEncoder().encode(`id: ${crypto.randomUUID()}\nretry: ${Math.max(0, Math.round(retryMs))}\ndata:\n\n`);
  const body = response.body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      start(controller) {
        controller.enqueue(priming);
      },
    }),
  );
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
}
