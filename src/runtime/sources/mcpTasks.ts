import type { CallToolResult, Client } from '@modelcontextprotocol/client';
import type { TaskEnabledSession, ToolExecution } from '@modelcontextprotocol/ext-tasks/client';
import { CapabilityFailure } from '../capability';
import { isMissingModule } from '../peers';

/**
 * Task-augmented tool calls (MCP 2025-11-25 tasks, SEP-1686) through the official requester
 * session of `@modelcontextprotocol/ext-tasks`: `tools/call` with `task`, then `tasks/get` at
 * the server's `pollInterval`, `tasks/result` when it is done, `tasks/cancel` on Stop. A task
 * that waits for input (`input_required`) gets a `tasks/result` at once, which is where the
 * server sends its elicitation (the session's own driver only asks for the result at the end).
 * The package is loaded the first time a server offers tasks, so hosts that never meet one do
 * not need it.
 */

type ExtTasks = typeof import('@modelcontextprotocol/ext-tasks/client');
const EXT_TASKS = '@modelcontextprotocol/ext-tasks';
let loading: Promise<ExtTasks> | undefined;

/** The requester session package, loaded once; without it a task call fails saying which package to install. */
function loadExtTasks(server: string, tool: string): Promise<ExtTasks> {
  loading ??= import('@modelcontextprotocol/ext-tasks/client').catch((error: unknown) => {
    loading = undefined;
    throw error;
  });
  return loading.catch((error: unknown) => {
    if (!isMissingModule(error, EXT_TASKS)) throw error;
    throw new CapabilityFailure(
      'missing_package',
      `${tool} of the MCP server "${server}" runs as an MCP task, which needs the package "${EXT_TASKS}" beside chatsurface: npm install ${EXT_TASKS}`,
      false,
    );
  });
}

/** A task session and the package it came from. */
export interface TaskSession {
  session: TaskEnabledSession;
  lib: ExtTasks;
}

/** How a tool says it runs as a task (`execution.taskSupport`). */
export type TaskSupport = 'forbidden' | 'optional' | 'required';

export interface TaskCall {
  /** The connection's name, for messages. */
  server: string;
  tool: string;
  args: Record<string, unknown>;
  taskSupport: 'optional' | 'required';
  /** Each request (the call, each poll, the result) may take this long. */
  timeoutMs: number;
  /** The user's Stop: cancels the task on the server (`tasks/cancel`). */
  signal?: AbortSignal | undefined;
  /** Each new status message of the task, numbered from 1. */
  onStatus?: ((count: number, message: string) => void) | undefined;
  /** The task's id once the server made it. */
  onTask?: ((taskId: string) => void) | undefined;
}

/** How long a `tasks/result` sent for a task that waits on the user may stay open. */
const INPUT_WAIT_MS = 30 * 60_000;
/** How long Stop waits for the server to confirm `tasks/cancel`. */
const CANCEL_WAIT_MS = 5_000;

const sessions = new WeakMap<Client, Promise<TaskSession>>();

/**
 * The task session of a connected client, made on first use; undefined when the server does
 * not offer task-augmented `tools/call` (2025-11-25 `capabilities.tasks.requests.tools.call`).
 * The 2026-07-28 Tasks extension is not declared by this client, so such a server answers inline.
 */
export async function taskSessionOf(client: Client, server: string, tool: string): Promise<TaskSession | undefined> {
  const tasks = client.getServerCapabilities()?.tasks as { requests?: { tools?: { call?: unknown } } } | undefined;
  if (client.getProtocolEra() !== 'legacy' || !tasks?.requests?.tools?.call) return undefined;
  let made = sessions.get(client);
  if (!made) {
    made = loadExtTasks(server, tool).then((lib) => ({
      lib,
      session: lib.createTaskSessionFromClient(client, {
        endpointId: `chatsurface:${server}`,
        // Requests it cannot tie to a call go on to the client's own handlers; nothing to log.
        onError: () => undefined,
      }),
    }));
    sessions.set(client, made);
    made.catch(() => sessions.delete(client));
  }
  return made;
}

/** Forgets (and closes) a client's task session, when the client is closed. */
export async function closeTaskSession(client: Client): Promise<void> {
  const made = sessions.get(client);
  sessions.delete(client);
  await made?.then(({ session }) => session.close()).catch(() => undefined);
}

/** Validates nothing: the result is a `CallToolResult` the caller reads as such. */
const anyResult = { '~standard': { version: 1 as const, vendor: 'chatsurface', validate: (value: unknown) => ({ value }) } };

/**
 * Runs one call as a task and resolves with the tool's result. Throws a `CapabilityFailure`:
 * `task_failed` (the task failed; its message in words), `task_cancelled` (the server cancelled
 * it), `unavailable` (the server went away mid-task; recoverable), `mcp_error` (it refused the
 * call). On abort it sends `tasks/cancel` and rejects with the signal's reason.
 */
export async function callToolAsTask(client: Client, { session, lib }: TaskSession, call: TaskCall): Promise<CallToolResult> {
  const { server, tool, signal } = call;
  const failureOf = (error: unknown) => failureIn(lib, server, tool, error);
  signal?.throwIfAborted();
  let execution: ToolExecution<CallToolResult>;
  try {
    const starting = session.callTool<CallToolResult>(tool, call.args as never, {
      declaration: lib.toolDeclaration({ name: tool, inputSchema: { type: 'object' }, taskSupport: call.taskSupport }),
      task: { preference: 'prefer' },
      requestTimeoutMs: call.timeoutMs,
    });
    execution = await untilAborted(starting, signal, (late) => void late.then((e) => e.cancel().catch(() => undefined).finally(() => e.close())));
  } catch (error) {
    throw signal?.aborted ? signal.reason : failureOf(error);
  }
  if (execution.kind !== 'task') {
    // The server answered at once (an optional tool it chose to run inline).
    const { outcome } = await execution.settle();
    if (outcome.status === 'completed') return outcome.result;
    throw failureOf(outcome.status === 'failed' ? outcome.error : new lib.TaskCancelledError());
  }
  call.onTask?.(execution.handle.taskId);

  const local = new AbortController();
  let statuses = 0;
  let lastMessage: string | undefined;
  let early: Promise<CallToolResult> | undefined;
  let answered!: (result: CallToolResult) => void;
  /** The early `tasks/result`'s answer, when one was sent (never settles otherwise). */
  const earlyResult = new Promise<CallToolResult>((resolve) => (answered = resolve));
  const settled = execution.settle({
    signal: local.signal,
    onEvent: (event) => {
      if (event.type !== 'task') return;
      const { status, statusMessage } = event.task;
      if (statusMessage && statusMessage !== lastMessage) {
        lastMessage = statusMessage;
        call.onStatus?.(++statuses, statusMessage);
      }
      // The server's questions for this task come with `tasks/result`: ask for it now.
      if (status === 'input_required' && !early) {
        early = client.request({ method: 'tasks/result', params: { taskId: execution.handle!.taskId } }, anyResult, { timeout: INPUT_WAIT_MS, signal: local.signal }) as Promise<CallToolResult>;
        early.then(answered, () => undefined);
      }
    },
  });
  const outcome = settled.then(({ outcome }) => {
    if (outcome.status === 'completed') return outcome.result;
    if (outcome.status === 'cancelled') {
      throw new CapabilityFailure('task_cancelled', `The MCP server "${server}" cancelled ${tool} before it finished.`, true);
    }
    // The task's own `failed` status, or a request about it that failed (an error answer, the server gone).
    if (outcome.task?.status === 'failed') throw taskFailed(server, tool, outcome.task.statusMessage);
    throw failureOf(outcome.error.cause ?? outcome.error);
  });
  outcome.catch(() => undefined);
  const stopped = new Promise<never>((_, reject) => {
    if (!signal) return;
    const stop = () => {
      const cancelling = execution.cancel().catch(() => undefined);
      void Promise.race([cancelling, new Promise((resolve) => setTimeout(resolve, CANCEL_WAIT_MS))]).finally(() => {
        local.abort();
        void execution.close().catch(() => undefined);
      });
      reject(signal.reason);
    };
    if (signal.aborted) stop();
    else signal.addEventListener('abort', stop, { once: true });
    void outcome.catch(() => undefined).finally(() => signal.removeEventListener('abort', stop));
  });
  stopped.catch(() => undefined);
  try {
    return await Promise.race([outcome, stopped, earlyResult]);
  } catch (error) {
    if (signal?.aborted) throw signal.reason;
    throw error instanceof CapabilityFailure ? error : failureOf(error);
  } finally {
    if (!signal?.aborted) {
      local.abort();
      void execution.close().catch(() => undefined);
    }
  }
}

/** A promise raced with an abort signal; a promise that settles after the abort is handed to `late`. */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal | undefined, late: (promise: Promise<T>) => void): Promise<T> {
  if (!signal) return promise;
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => {
      late(promise);
      reject(signal.reason);
    };
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

/** A task the server marked failed, with its status message. */
function taskFailed(server: string, tool: string, message: string | undefined): CapabilityFailure {
  const why = message && message !== 'Task failed' ? `: ${message}` : '.';
  return new CapabilityFailure('task_failed', `The MCP server "${server}" could not finish ${tool}${why}`, false);
}

/** A task's failure in words, and whether trying again may help. */
function failureIn(lib: ExtTasks, server: string, tool: string, error: unknown): CapabilityFailure {
  if (error instanceof CapabilityFailure) return error;
  if (error instanceof lib.TaskCancelledError) {
    return new CapabilityFailure('task_cancelled', `The MCP server "${server}" cancelled ${tool} before it finished.`, true);
  }
  if (error instanceof lib.TaskFailedError && error.code === undefined) return taskFailed(server, tool, error.message);
  const code = (error as { code?: unknown } | null)?.code;
  const message = error instanceof Error ? error.message : String(error);
  if (typeof code === 'number') {
    return new CapabilityFailure('mcp_error', `The MCP server "${server}" refused to run ${tool}: ${message}`, code === -32602);
  }
  return new CapabilityFailure(
    'unavailable',
    `The MCP server "${server}" went away while ${tool} ran as a task, so its result is not known. Try again when it is back.`,
    true,
  );
}
