import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { CapabilityDescriptor } from '../runtime/capability';
import type { Principal } from '../runtime/principal';
import { spaceOf } from '../runtime/principal';
import { createRegistry, type Registry } from '../runtime/registry';
import { defineMcpCapability } from '../runtime/sources/mcp';
import { createMcpConnection, type McpConnection } from '../runtime/sources/mcpConnection';
import type { ConnectorOwner, McpConnector, McpConnectorStore } from '../runtime/stores/mcpConnectorStore';
import type { UserMcpServer } from '../workspace/mcpServersProtocol';
import { BlockedAddressError, checkServerUrl, guardedFetch, type NetworkPolicy } from './userMcpNetwork';

/** The users' own MCP servers: where they may be, how many, how long to wait. */
export interface UserMcpOptions extends NetworkPolicy {
  /** Servers one user may connect. @default 5 */
  maxServersPerUser?: number;
  /** Tools taken from one server (the rest are left out, and the listing says so). @default 64 */
  maxToolsPerServer?: number;
  /** How long connecting and listing may take. @default 10000 */
  connectTimeoutMs?: number;
  /** How long one tool call may go without an answer or progress. @default 60000 */
  callTimeoutMs?: number;
  /** How often a user's requests re-read their servers from the database (another instance may have connected or removed one). @default 2000 */
  refreshMs?: number;
}

/** Why a connect was refused; `code` is what the route answers. */
export class ConnectRefusedError extends Error {
  override name = 'ConnectRefusedError';
  constructor(
    readonly code: 'invalid_label' | 'duplicate_label' | 'too_many_servers' | 'blocked_address' | 'unreachable' | 'auth_refused' | 'not_mcp' | 'timeout',
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

const MAX_OWNERS = 4_096;

/** A label: the namespace of the server's tools in this user's chat. */
export const LABEL = /^[a-z0-9][a-z0-9_-]{0,31}$/;

interface Entry {
  connector: McpConnector;
  connection: McpConnection;
  closeNetwork: () => Promise<void>;
  capabilities: CapabilityDescriptor[];
  problems: string[];
  status: 'connected' | 'unavailable';
}

interface Owned {
  entries: Map<string, Entry>;
  registry: Registry;
  /** A read of the store in flight. */
  loading: Promise<void> | null;
  /** When the store was last read for this owner (0: never). */
  checkedAt: number;
}

/**
 * What the network said while connecting: the facts a plain-words error is
 * made of (the MCP client's own errors are wrapped too deeply to read).
 */
interface Observed {
  status?: number;
  contentType?: string;
  failure?: unknown;
}

/** The per-principal MCP servers of `createWorkspaceServer({ userMcp })`. */
export interface UserMcp {
  /** The principal's own capabilities (sync: loaded by `ensure`), or undefined when they have none. */
  registryOf(principal: Principal): Registry | undefined;
  /** Loads (once) and connects the principal's stored servers; a server that is down is listed as unavailable. */
  ensure(principal: Principal): Promise<void>;
  list(principal: Principal): Promise<UserMcpServer[]>;
  /** Checks, connects, lists its tools, then stores it; throws `ConnectRefusedError` saying why not. */
  connect(principal: Principal, request: { label: string; url: string; token?: string }): Promise<UserMcpServer>;
  /** Removes it, its tools and its stored token; false when there was none by that label. */
  disconnect(principal: Principal, label: string): Promise<boolean>;
  close(): Promise<void>;
}

const ownerOf = (principal: Principal): ConnectorOwner => ({ user: principal.user, space: spaceOf(principal) });
const keyOf = (owner: ConnectorOwner) => `${owner.space}\u0000${owner.user}`;

/**
 * @param reserved true for a label the workspace's own tools already use as a namespace (`records`, `corpus`).
 * @example
 * const userMcp = createUserMcp(store, { allowHosts: ['127.0.0.1'] }, (label) => registry.list().some((d) => d.name.startsWith(`${label}.`)));
 */
export function createUserMcp(store: McpConnectorStore, options: UserMcpOptions, reserved: (label: string) => boolean): UserMcp {
  const maxServers = options.maxServersPerUser ?? 5;
  const maxTools = options.maxToolsPerServer ?? 64;
  const connectTimeoutMs = options.connectTimeoutMs ?? 10_000;
  const callTimeoutMs = options.callTimeoutMs ?? 60_000;
  const refreshMs = options.refreshMs ?? 2_000;
  const owners = new Map<string, Owned>();
  /** Connects in flight per owner and label (two quick clicks are one connect). */
  const connecting = new Set<string>();

  const owned = (owner: ConnectorOwner): Owned => {
    const key = keyOf(owner);
    let o = owners.get(key);
    if (!o) {
      owners.set(key, (o = { entries: new Map(), registry: createRegistry(), loading: null, checkedAt: 0 }));
      // One small record per user who asked; past a few thousand, the oldest with no server connected go first.
      if (owners.size > MAX_OWNERS) {
        for (const [k, other] of owners) {
          if (owners.size <= MAX_OWNERS) break;
          if (other !== o && other.entries.size === 0 && !other.loading) owners.delete(k);
        }
      }
    }
    return o;
  };
  const rebuild = (o: Owned) => {
    o.registry = createRegistry([...o.entries.values()].flatMap((e) => e.capabilities));
  };

  /** Opens a connection and lists the server's tools as capabilities; throws in plain words. */
  const open = async (connector: McpConnector): Promise<Entry> => {
    const network = guardedFetch(options);
    const observed: Observed = {};
    const watch: typeof fetch = async (input, init) => {
      try {
        const response = await network.fetch(input, init);
        observed.status = response.status;
        observed.contentType = response.headers.get('content-type') ?? '';
        return response;
      } catch (error) {
        observed.failure = error;
        throw error;
      }
    };
    const headers: Record<string, string> = connector.token ? { authorization: `Bearer ${connector.token}` } : {};
    const url = new URL(connector.url);
    const connection = createMcpConnection({
      name: connector.label,
      transport: () => new StreamableHTTPClientTransport(url, { requestInit: { headers }, fetch: watch }),
      timeoutMs: callTimeoutMs,
    });
    let tools;
    try {
      tools = await withTimeout(connection.listTools(), connectTimeoutMs);
    } catch (error) {
      await connection.close().catch(() => undefined);
      await network.close().catch(() => undefined);
      throw explain(connector, observed, error);
    }
    const problems: string[] = [];
    if (tools.length > maxTools) problems.push(`It lists ${tools.length} tools; the first ${maxTools} are offered.`);
    // The listing is read once: each tool's capability is made from it, not from a listing of its own.
    const listed = tools.slice(0, maxTools);
    const once: McpConnection = {
      name: connection.name,
      get era() {
        return connection.era;
      },
      listTools: async () => listed,
      callTool: (tool, args, call) => connection.callTool(tool, args, call),
      readResource: (uri) => connection.readResource(uri),
      close: () => connection.close(),
    };
    const capabilities: CapabilityDescriptor[] = [];
    for (const tool of listed) {
      const readOnly = tool.annotations?.readOnlyHint === true;
      try {
        capabilities.push(
          await defineMcpCapability(once, {
            tool: tool.name,
            name: `${connector.label}.${tool.name}`,
            title: `${tool.title ?? tool.annotations?.title ?? tool.name} (${connector.label})`,
            description: tool.description?.trim() || `The tool "${tool.name}" of your MCP server ${connector.label}.`,
            // Only a tool that says it is read-only runs without asking: everything else waits for the user's approval.
            ...(readOnly ? {} : { requires_user_confirmation: true }),
          }),
        );
      } catch (error) {
        problems.push(error instanceof Error ? error.message : String(error));
      }
    }
    return {
      connector,
      connection: once,
      closeNetwork: () => network.close(),
      capabilities,
      problems,
      status: 'connected',
    };
  };

  const closeEntry = async (e: Entry) => {
    await e.connection.close().catch(() => undefined);
    await e.closeNetwork().catch(() => undefined);
  };

  /** A stored server, connected again; one that is down stays listed, without tools, saying why. */
  const reopen = async (connector: McpConnector): Promise<Entry> => {
    try {
      return await open(connector);
    } catch (error) {
      return {
        connector,
        connection: { name: connector.label, era: undefined, listTools: async () => [], callTool: async () => { throw error; }, readResource: async () => { throw error; }, close: async () => undefined },
        closeNetwork: async () => undefined,
        capabilities: [],
        problems: [error instanceof Error ? error.message : String(error)],
        status: 'unavailable',
      };
    }
  };

  const describe = (e: Entry): UserMcpServer => ({
    label: e.connector.label,
    url: e.connector.url,
    hasToken: e.connector.token !== undefined,
    status: e.status,
    tools: e.capabilities.map((d) => ({ name: d.name, title: d.title, kind: d.kind, needsApproval: d.requires_user_confirmation === true })),
    problems: e.problems,
  });

  const userMcp: UserMcp = {
    registryOf(principal) {
      const o = owners.get(keyOf(ownerOf(principal)));
      return o && o.entries.size ? o.registry : undefined;
    },
    ensure(principal) {
      const owner = ownerOf(principal);
      const o = owned(owner);
      if (o.loading) return o.loading;
      if (o.checkedAt && Date.now() - o.checkedAt < refreshMs) return Promise.resolve();
      // The database is the truth (several instances may serve one user): connect what is new there, drop what is gone.
      const loading = (async () => {
        const stored = await store.list(owner);
        const wanted = new Map(stored.map((c) => [c.label, c]));
        for (const [label, e] of [...o.entries]) {
          if (wanted.get(label)?.createdAt !== e.connector.createdAt) {
            o.entries.delete(label);
            void closeEntry(e);
          }
        }
        const fresh = await Promise.all(stored.filter((c) => !o.entries.has(c.label)).map(reopen));
        for (const e of fresh) if (!o.entries.has(e.connector.label)) o.entries.set(e.connector.label, e);
        rebuild(o);
        o.checkedAt = Date.now();
      })().finally(() => {
        if (o.loading === loading) o.loading = null;
      });
      o.loading = loading;
      return loading;
    },
    async list(principal) {
      owned(ownerOf(principal)).checkedAt = 0;
      await userMcp.ensure(principal);
      const o = owned(ownerOf(principal));
      // Opening the list tries the servers that were down again.
      const down = [...o.entries.values()].filter((e) => e.status === 'unavailable');
      if (down.length) {
        for (const e of await Promise.all(down.map((d) => reopen(d.connector)))) {
          if (o.entries.get(e.connector.label)?.status === 'unavailable') o.entries.set(e.connector.label, e);
        }
        rebuild(o);
      }
      return [...o.entries.values()].map(describe);
    },
    async connect(principal, request) {
      const owner = ownerOf(principal);
      const label = request.label.trim().toLowerCase();
      if (!LABEL.test(label)) throw new ConnectRefusedError('invalid_label', 'A name is 1–32 characters: lowercase letters, digits, "-" or "_", starting with a letter or digit (e.g. "notes").', 400);
      if (reserved(label)) throw new ConnectRefusedError('duplicate_label', `The name "${label}" is taken by this workspace's own tools; pick another name.`, 409);
      let url: URL;
      try {
        url = checkServerUrl(request.url.trim(), options);
      } catch (error) {
        throw new ConnectRefusedError('blocked_address', (error as Error).message, 400);
      }
      await userMcp.ensure(principal);
      const o = owned(owner);
      const flight = `${keyOf(owner)}\u0000${label}`;
      if (o.entries.has(label) || connecting.has(flight)) throw new ConnectRefusedError('duplicate_label', `You already have a server named "${label}"; disconnect it first or pick another name.`, 409);
      if (o.entries.size + [...connecting].filter((k) => k.startsWith(`${keyOf(owner)}\u0000`)).length >= maxServers) {
        throw new ConnectRefusedError('too_many_servers', `You can connect at most ${maxServers} MCP servers here; disconnect one first.`, 429);
      }
      connecting.add(flight);
      try {
        const token = request.token?.trim();
        const connector: McpConnector = { ...owner, label, url: url.href, ...(token ? { token } : {}), createdAt: Date.now() };
        const entry = await open(connector);
        if (!(await store.add(connector))) {
          await closeEntry(entry);
          throw new ConnectRefusedError('duplicate_label', `You already have a server named "${label}"; disconnect it first or pick another name.`, 409);
        }
        // A read of the store that raced this connect may have opened it too: keep one connection.
        const raced = o.entries.get(label);
        if (raced) void closeEntry(raced);
        o.entries.set(label, entry);
        rebuild(o);
        return describe(entry);
      } finally {
        connecting.delete(flight);
      }
    },
    async disconnect(principal, label) {
      const owner = ownerOf(principal);
      await userMcp.ensure(principal);
      const o = owned(owner);
      const removed = await store.remove(owner, label);
      const entry = o.entries.get(label);
      if (entry) {
        o.entries.delete(label);
        rebuild(o);
        await closeEntry(entry);
      }
      return removed || entry !== undefined;
    },
    async close() {
      const all = [...owners.values()].flatMap((o) => [...o.entries.values()]);
      owners.clear();
      await Promise.all(all.map(closeEntry));
    },
  };
  return userMcp;
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new ConnectRefusedError('timeout', '', 504)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** What went wrong connecting, in words the user can act on. */
function explain(connector: McpConnector, observed: Observed, error: unknown): ConnectRefusedError {
  const where = connector.url;
  const failure = observed.failure ?? error;
  const blocked = findCause(failure, (e) => e instanceof BlockedAddressError || (e as { code?: string }).code === 'EBLOCKED');
  if (blocked) return new ConnectRefusedError('blocked_address', (blocked as Error).message, 400);
  if (error instanceof ConnectRefusedError && error.code === 'timeout') {
    return new ConnectRefusedError('timeout', `${where} did not answer in time; check that it is an MCP server that is up, then try again.`, 504);
  }
  if (observed.status === 401 || observed.status === 403) {
    return new ConnectRefusedError(
      'auth_refused',
      connector.token
        ? `${where} refused the token (${observed.status}); check it, or make a new one on that server.`
        : `${where} needs a token (it answered ${observed.status}); paste one in the token field.`,
      400,
    );
  }
  if (observed.status !== undefined) {
    const type = (observed.contentType ?? '').split(';')[0]!.trim();
    const mcpLike = type === 'application/json' || type === 'text/event-stream';
    if (observed.status >= 400 || !mcpLike) {
      return new ConnectRefusedError(
        'not_mcp',
        `${where} answered, but not as an MCP server (HTTP ${observed.status}${type ? `, ${type}` : ''}); give the server's MCP endpoint (often ending in /mcp).`,
        400,
      );
    }
    const detail = error instanceof Error ? error.message : String(error);
    return new ConnectRefusedError('not_mcp', `${where} did not speak MCP as expected: ${detail}`, 400);
  }
  const code = (findCause(failure, (e) => typeof (e as { code?: unknown }).code === 'string' && /^E[A-Z_]+$/.test((e as { code: string }).code)) as { code?: string } | null)?.code;
  const why =
    code === 'ECONNREFUSED' ? 'nothing is listening there' : code === 'ENOTFOUND' || code === 'EAI_AGAIN' ? 'that host name does not resolve' : code ? `the connection failed (${code})` : 'the connection failed';
  return new ConnectRefusedError('unreachable', `Could not reach ${where}: ${why}. Check the address, and that the server is running.`, 400);
}

function findCause(error: unknown, test: (e: object) => boolean): object | null {
  for (let e = error, depth = 0; e && typeof e === 'object' && depth < 6; e = (e as { cause?: unknown }).cause, depth++) {
    if (test(e)) return e;
    const errors = (e as { errors?: unknown }).errors;
    if (Array.isArray(errors)) for (const inner of errors) if (inner && typeof inner === 'object' && test(inner)) return inner;
  }
  return null;
}
