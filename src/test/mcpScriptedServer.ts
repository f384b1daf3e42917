import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/client';

/**
 * A 2025-11-25 MCP server scripted by a test, behind an in-memory transport: it answers
 * `initialize` with the given capabilities, `tools/list` with the given tools, and every other
 * request through `handle`. It can send requests to the client (`ask`) and go away (`goAway`).
 * For what the SDK v2 server no longer speaks (the 2025-11-25 task vocabulary) and for server
 * behaviour a real server would not show (asking for a capability the client did not declare).
 * @example
 * const server = scriptedServer({ tools: [{ name: 'slow', inputSchema: { type: 'object' } }], handle: () => ({ content: [] }) });
 * const connection = createMcpConnection({ name: 'lab', transport: server.transport, protocol: 'legacy' });
 */
export interface ScriptedServer {
  /** A fresh transport to the server (pass as `createMcpConnection({ transport })`). */
  transport: () => Promise<Transport>;
  /** Every request the client sent (method and params), in order. */
  received: { method: string; params: Record<string, unknown> }[];
  /** Sends a request to the client on the live transport and resolves with its answer (`result` or `error`). */
  ask(method: string, params: Record<string, unknown>): Promise<{ result?: Record<string, unknown>; error?: { code: number; message: string } }>;
  /** The server goes away: the client's transport closes, and every later request fails. */
  goAway(): void;
}

export interface ScriptedServerOptions {
  capabilities?: Record<string, unknown>;
  tools: Record<string, unknown>[];
  /** Answers a request: a result, or throw `{ code, message }` for a JSON-RPC error. */
  handle: (method: string, params: Record<string, unknown>) => unknown;
}

export function scriptedServer(options: ScriptedServerOptions): ScriptedServer {
  const received: ScriptedServer['received'] = [];
  let live: ScriptedTransport | undefined;
  let gone = false;
  let asked = 0;
  const pending = new Map<string | number, (answer: { result?: Record<string, unknown>; error?: { code: number; message: string } }) => void>();

  class ScriptedTransport implements Transport {
    onclose?: () => void;
    onerror?: (error: Error) => void;
    onmessage?: Transport['onmessage'];
    async start(): Promise<void> {
      if (gone) throw new Error('connect ECONNREFUSED (the scripted server is gone)');
    }
    async send(message: JSONRPCMessage): Promise<void> {
      if (gone) throw new Error('fetch failed (the scripted server is gone)');
      const m = message as { id?: string | number; method?: string; params?: Record<string, unknown>; result?: Record<string, unknown>; error?: { code: number; message: string } };
      if (m.method === undefined) {
        pending.get(m.id!)?.(m.error ? { error: m.error } : { result: m.result ?? {} });
        pending.delete(m.id!);
        return;
      }
      if (m.id === undefined) return; // a notification
      const params = m.params ?? {};
      received.push({ method: m.method, params });
      const reply = (body: Record<string, unknown>) => queueMicrotask(() => !gone && this.onmessage?.({ jsonrpc: '2.0', id: m.id!, ...body } as JSONRPCMessage));
      try {
        let result: unknown;
        if (m.method === 'initialize') {
          result = { protocolVersion: params.protocolVersion, capabilities: { tools: {}, ...options.capabilities }, serverInfo: { name: 'scripted', version: '1.0.0' } };
        } else if (m.method === 'tools/list') {
          result = { tools: options.tools };
        } else if (m.method === 'ping') {
          result = {};
        } else {
          result = await options.handle(m.method, params);
        }
        reply({ result });
      } catch (error) {
        const { code = -32603, message = String(error) } = error as { code?: number; message?: string };
        reply({ error: { code, message } });
      }
    }
    async close(): Promise<void> {
      if (live === this) live = undefined;
      this.onclose?.();
    }
  }

  return {
    received,
    transport: async () => {
      const transport = new ScriptedTransport();
      live = transport;
      return transport;
    },
    ask: (method, params) =>
      new Promise((resolve, reject) => {
        if (!live?.onmessage) return reject(new Error('No client is connected.'));
        const id = `server-${++asked}`;
        pending.set(id, resolve);
        live.onmessage({ jsonrpc: '2.0', id, method, params } as JSONRPCMessage);
      }),
    goAway: () => {
      gone = true;
      const transport = live;
      live = undefined;
      transport?.onclose?.();
    },
  };
}

/** A 2025-11-25 task as the scripted server keeps it. */
export interface ScriptedTask {
  taskId: string;
  status: 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';
  statusMessage?: string;
  createdAt: string;
  lastUpdatedAt: string;
  ttl: number | null;
  pollInterval?: number;
}

/** A task with the fields 2025-11-25 requires. */
export function newTask(taskId: string, pollInterval: number): ScriptedTask {
  const now = new Date().toISOString();
  return { taskId, status: 'working', createdAt: now, lastUpdatedAt: now, ttl: 60_000, pollInterval };
}
