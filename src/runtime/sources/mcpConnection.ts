import {
  Client,
  ProtocolError,
  ProtocolErrorCode,
  SdkError,
  SdkErrorCode,
  SdkHttpError,
  SERVER_INFO_META_KEY,
  StreamableHTTPClientTransport,
  type CallToolResult,
  type ProtocolEra,
  type ReadResourceResult,
  type Tool,
  type Transport,
} from '@modelcontextprotocol/client';
import { CapabilityFailure } from '../capability';
import type { CapabilityResult } from '../envelope';

export interface McpConnectionOptions {
  /** Short name of the server, e.g. `corpus`: prefixes its capabilities and names it in messages. */
  name: string;
  /** A Streamable HTTP endpoint, e.g. `http://127.0.0.1:8788/mcp`. */
  url?: string | URL;
  /** Headers and other fetch options for `url` (e.g. an Authorization header). */
  requestInit?: RequestInit;
  /** Or any other transport (in-memory, …): called on every (re)connect. */
  transport?: () => Transport | Promise<Transport>;
  /** How long a call may go without an answer or progress. @default 60000 */
  timeoutMs?: number;
  /**
   * Which protocol era to speak: `auto` probes with `server/discover` and
   * speaks 2026-07-28 to a server that offers it, else falls back to the
   * 2025 `initialize` handshake; `legacy` always uses the handshake.
   * @default 'auto'
   */
  protocol?: 'auto' | 'legacy';
}

export interface McpCallOptions {
  /** Aborting sends MCP `notifications/cancelled` to the server. */
  signal?: AbortSignal;
  /** MCP progress notifications of this call. */
  onprogress?: (progress: { progress: number; total?: number; message?: string }) => void;
  /** @default the connection's `timeoutMs` */
  timeoutMs?: number;
  /** Safe to send twice (a read-only or idempotent tool): a dropped connection is retried once on a fresh one. @default false */
  idempotent?: boolean;
}

/** One MCP server, connected on first use and again after a failure. */
export interface McpConnection {
  readonly name: string;
  /** The era the last connection landed on (`modern` is 2026-07-28), or undefined before the first connect. */
  readonly era: ProtocolEra | undefined;
  /** Every tool the server lists (all pages). */
  listTools(): Promise<Tool[]>;
  /**
   * Calls a tool. A server that is down or does not answer in time throws a
   * recoverable `CapabilityFailure` (`unavailable`, `timeout`); an `isError`
   * result comes back as a result.
   */
  callTool(tool: string, args: Record<string, unknown>, options?: McpCallOptions): Promise<CapabilityResult>;
  /** Reads one resource (e.g. an MCP App's `ui://` view); failures throw a `CapabilityFailure` like `callTool`. */
  readResource(uri: string): Promise<ReadResourceResult['contents']>;
  close(): Promise<void>;
}

/**
 * Creates a lazy MCP client connection over Streamable HTTP (`url`) or any
 * transport (`transport`).
 * @example
 * const corpus = createMcpConnection({ name: 'corpus', url: 'http://127.0.0.1:8788/mcp' });
 * const search = await defineMcpCapability(corpus, { tool: 'search', pinned: { collection: 'acme' } });
 */
export function createMcpConnection(options: McpConnectionOptions): McpConnection {
  const { name, timeoutMs = 60_000 } = options;
  if (!options.url === !options.transport) {
    throw new TypeError(`createMcpConnection("${name}"): give either url or transport.`);
  }
  let current: Promise<Client> | null = null;
  let era: ProtocolEra | undefined;
  const negotiation = options.protocol === 'legacy' ? {} : { versionNegotiation: { mode: 'auto' as const } };

  /** Connects; `onClose` forgets this connection when the transport closes. */
  const open = async (onClose: () => void): Promise<Client> => {
    const transport = options.transport
      ? await options.transport()
      : new StreamableHTTPClientTransport(new URL(options.url!), options.requestInit ? { requestInit: options.requestInit } : {});
    const client = new Client({ name: 'chatsurface', version: '0.1.0' }, negotiation);
    client.onclose = onClose;
    await client.connect(transport, { timeout: timeoutMs });
    era = client.getProtocolEra();
    return client;
  };
  const client = (): Promise<Client> => {
    if (current) return current;
    const forget = () => {
      if (current === attempt) current = null;
    };
    const attempt = open(forget);
    attempt.catch(forget);
    current = attempt;
    return attempt;
  };
  const reset = async (stale: Promise<Client>) => {
    if (current === stale) current = null;
    await stale.then((c) => c.close()).catch(() => undefined);
  };

  /**
   * Runs one request. A stale HTTP session (404: the server never ran it) is
   * retried once on a fresh connection, and so is a dropped connection when
   * the request is safe to send twice.
   */
  const request = async <T>(what: string, run: (c: Client) => Promise<T>, retrySafe: boolean, signal?: AbortSignal): Promise<T> => {
    for (let attempt = 0; ; attempt++) {
      const connection = client();
      try {
        return await run(await connection);
      } catch (error) {
        if (signal?.aborted) throw error;
        const failure = classify(name, what, error);
        if (failure.code !== 'unavailable') throw failure;
        await reset(connection);
        const staleSession = error instanceof SdkHttpError && error.status === 404;
        if (attempt === 0 && (staleSession || retrySafe)) continue;
        throw failure;
      }
    }
  };

  return {
    name,
    get era() {
      return era;
    },
    listTools: () =>
      request('list its tools', async (c) => {
        const tools: Tool[] = [];
        let cursor: string | undefined;
        do {
          const page = await c.listTools(cursor ? { cursor } : {}, { timeout: timeoutMs });
          tools.push(...page.tools);
          cursor = page.nextCursor;
        } while (cursor);
        return tools;
      }, true),
    callTool: (tool, args, call = {}) =>
      request(
        `run ${tool}`,
        async (c) => {
          const result = await c.callTool({ name: tool, arguments: args }, {
            timeout: call.timeoutMs ?? timeoutMs,
            resetTimeoutOnProgress: true,
            ...(call.signal ? { signal: call.signal } : {}),
            ...(call.onprogress ? { onprogress: call.onprogress } : {}),
          });
          return toResult(result);
        },
        call.idempotent ?? false,
        call.signal,
      ),
    readResource: (uri) =>
      request(`read ${uri}`, async (c) => (await c.readResource({ uri }, { timeout: timeoutMs })).contents, true),
    async close() {
      if (current) await reset(current);
    },
  };
}

/** A tool result as a capability result: the protocol's own stamps (`resultType`, the server's identity in `_meta`) left out. */
function toResult(result: CallToolResult): CapabilityResult {
  const { resultType: _type, _meta, ...rest } = result as CallToolResult & { resultType?: unknown };
  const { [SERVER_INFO_META_KEY]: _server, ...meta } = _meta ?? {};
  return (Object.keys(meta).length ? { ...rest, _meta: meta } : rest) as CapabilityResult;
}

function classify(server: string, what: string, error: unknown): CapabilityFailure {
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof SdkError && error.code === SdkErrorCode.RequestTimeout) {
    return new CapabilityFailure('timeout', `The MCP server "${server}" did not answer in time to ${what}.`, true);
  }
  if (error instanceof ProtocolError) {
    return new CapabilityFailure('mcp_error', `The MCP server "${server}" refused to ${what}: ${message}`, error.code === ProtocolErrorCode.InvalidParams);
  }
  const cause = error instanceof Error && error.cause instanceof Error ? ` (${error.cause.message})` : '';
  return new CapabilityFailure('unavailable', `The MCP server "${server}" is unavailable, so it could not ${what}: ${message}${cause}. Try again when it is back.`, true);
}
