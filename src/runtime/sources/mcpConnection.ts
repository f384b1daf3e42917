import {
  Client,
  ProtocolError,
  ProtocolErrorCode,
  SdkError,
  SdkErrorCode,
  SdkHttpError,
  RELATED_TASK_META_KEY,
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
import { clientCapabilitiesOf, installClientRequests, type McpCallInfo, type McpElicitHandler, type McpSamplingHandler } from './mcpClientRequests';
import { callToolAsTask, closeTaskSession, taskSessionOf } from './mcpTasks';

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
  /**
   * Lets the server ask the host's model for a message (`sampling/createMessage`): the client
   * declares `sampling` only when this is given. Without it a server that asks anyway gets an
   * error saying, in plain words, that this workspace does not let servers ask its model.
   * @example
   * sampling: async (request, { signal }) => ({ model: 'claude', role: 'assistant', content: { type: 'text', text: await ask(request.messages, signal) } })
   */
  sampling?: McpSamplingHandler;
  /**
   * Lets the server ask the user (`elicitation/create`): a form (`mode: 'form'`, fields by a
   * flat schema) or a page to open (`mode: 'url'`; only `https:` URLs without credentials reach
   * the handler, with their host name). The client declares `elicitation` (form and URL) only when this is given;
   * without it a server that asks anyway gets an error saying so in plain words. Accepted form
   * content is checked against the requested schema before it is sent back. `context.call`
   * names the call (tool, invocation) the question belongs to, when that is known; the call's
   * `timeoutMs` does not run while the handler waits for the user.
   * @example
   * elicit: async (request) => (request.mode === 'form' ? { action: 'accept', content: await showForm(request) } : { action: 'decline' })
   */
  elicit?: McpElicitHandler;
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
  /**
   * The tool's `execution.taskSupport` from its listing. `required` and `optional` run as an MCP
   * task when the server offers tasks (2025-11-25): created, polled with `tasks/get` at the
   * server's `pollInterval` (each new status message is an `onprogress` call), its result fetched
   * with `tasks/result`, and `tasks/cancel` sent when `signal` aborts.
   * @default 'forbidden' (a plain call)
   */
  // (Written out: the published types name nothing of ./mcpTasks, whose types come from the optional ext-tasks package.)
  taskSupport?: 'forbidden' | 'optional' | 'required';
  /** The capability invocation the call runs for: handed to the `sampling` and `elicit` handlers as `context.call`. */
  invocationId?: string;
  /** That invocation's thread key (`CapabilityContext.threadKey`). */
  threadKey?: string;
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
  const handlers = { ...(options.sampling ? { sampling: options.sampling } : {}), ...(options.elicit ? { elicit: options.elicit } : {}) };
  /** The calls in flight, so that a server's question can be tied to the call it belongs to. */
  const running = new Set<RunningCall>();
  const callOf = (taskId: string | undefined) => {
    const byTask = taskId ? [...running].find((entry) => entry.info.taskId === taskId) : undefined;
    return byTask ?? (running.size === 1 ? [...running][0] : undefined);
  };

  /** Connects; `onClose` forgets this connection when the transport closes. */
  const open = async (onClose: () => void): Promise<Client> => {
    const transport = options.transport
      ? await options.transport()
      : new StreamableHTTPClientTransport(new URL(options.url!), options.requestInit ? { requestInit: options.requestInit } : {});
    const client = new Client({ name: 'chatsurface', version: '0.1.0' }, { ...negotiation, capabilities: clientCapabilitiesOf(handlers) });
    installClientRequests(client, name, handlers, callOf);
    client.onclose = () => {
      void closeTaskSession(client);
      onClose();
    };
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
        const failure = error instanceof CapabilityFailure ? error : classify(name, what, error);
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
    async callTool(tool, args, call = {}) {
      const entry: RunningCall = {
        info: { tool, ...(call.invocationId ? { invocationId: call.invocationId } : {}), ...(call.threadKey ? { threadKey: call.threadKey } : {}) },
        signal: call.signal,
      };
      const asTask = call.taskSupport === 'required' || call.taskSupport === 'optional' ? call.taskSupport : undefined;
      running.add(entry);
      try {
        return await request(
          `run ${tool}`,
          async (c) => {
            const session = asTask ? await taskSessionOf(c, name, tool) : undefined;
            if (asTask && session) {
              const result = await callToolAsTask(c, session, {
                server: name,
                tool,
                args,
                taskSupport: asTask,
                timeoutMs: call.timeoutMs ?? timeoutMs,
                signal: call.signal,
                onStatus: (count, message) => call.onprogress?.({ progress: count, message }),
                onTask: (taskId) => (entry.info.taskId = taskId),
              });
              return toResult(result);
            }
            // The wait for an answer starts again on each progress and stops while the user answers the server's question.
            const idle = idleTimer(call.timeoutMs ?? timeoutMs);
            entry.hold = idle.hold;
            try {
              const result = await c.callTool({ name: tool, arguments: args }, {
                timeout: NO_SDK_TIMEOUT,
                signal: call.signal ? AbortSignal.any([call.signal, idle.signal]) : idle.signal,
                onprogress: (progress) => {
                  idle.touch();
                  call.onprogress?.(progress);
                },
              });
              return toResult(result);
            } catch (error) {
              if (idle.signal.aborted && !call.signal?.aborted) {
                throw new CapabilityFailure('timeout', `The MCP server "${name}" did not answer in time to run ${tool}.`, true);
              }
              throw error;
            } finally {
              idle.stop();
              delete entry.hold;
            }
          },
          // A task may have been made before the connection dropped: never sent twice.
          (call.idempotent ?? false) && !asTask,
          call.signal,
        );
      } finally {
        running.delete(entry);
      }
    },
    readResource: (uri) =>
      request(`read ${uri}`, async (c) => (await c.readResource({ uri }, { timeout: timeoutMs })).contents, true),
    async close() {
      if (current) await reset(current);
    },
  };
}

/** A call in flight: what a server's question is tied to, and how its wait for an answer pauses while the user answers. */
interface RunningCall {
  info: McpCallInfo;
  signal?: AbortSignal | undefined;
  hold?: () => () => void;
}

/** What the SDK is told to wait (a day): the connection keeps its own, pausable, wait. */
const NO_SDK_TIMEOUT = 86_400_000;

/**
 * Aborts its signal after `ms` without a `touch()`; `hold()` stops the clock until the returned
 * release is called (a question the user is answering is not the server being slow).
 */
function idleTimer(ms: number) {
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let holds = 0;
  const arm = () => {
    clearTimeout(timer);
    if (holds === 0 && !controller.signal.aborted) timer = setTimeout(() => controller.abort(new Error('timed out')), ms);
  };
  arm();
  return {
    signal: controller.signal,
    touch: arm,
    hold: () => {
      holds++;
      clearTimeout(timer);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        holds--;
        arm();
      };
    },
    stop: () => {
      clearTimeout(timer);
      holds = Number.POSITIVE_INFINITY;
    },
  };
}

/** A tool result as a capability result: the protocol's own stamps (`resultType`, the server's identity in `_meta`) left out. */
function toResult(result: CallToolResult): CapabilityResult {
  const { resultType: _type, _meta, ...rest } = result as CallToolResult & { resultType?: unknown };
  const { [SERVER_INFO_META_KEY]: _server, [RELATED_TASK_META_KEY]: _task, ...meta } = _meta ?? {};
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
