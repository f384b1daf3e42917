import { sealedConnectorStore, tokenKeyOf } from './connectorTokens';
import type { McpElicitHandler } from '../runtime/sources/mcpClientRequests';
import type { Principal } from '../runtime/principal';
import type { Registry } from '../runtime/registry';
import type { Connector, ConnectorStore } from '../runtime/stores/connectorStore';
import type { ConnectorInfo } from '../workspace/connectorsProtocol';
import { ConnectRefusedError } from './connectorErrors';
import { checkServerUrl, type NetworkPolicy } from './connectorNetwork';
import { createOwnerTable, keyOf, ownerOf, rebuild, syncWithStore } from './connectorOwners';
import { closeEntry, describeEntry, openServer, reopenServer, type OpenLimits } from './connectorEntry';
import { withGrant, type OAuthGrant } from './connectorOAuth';
import { createSignInFlow, type SignInPlace } from './connectorSignInFlow';

export { ConnectRefusedError } from './connectorErrors';

/** The users' own MCP servers: where they may be, how many, how long to wait. */
export interface ConnectorsOptions extends NetworkPolicy {
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
  /**
   * The server key that seals users' tokens in the database (AES-256-GCM, bound to the owner and
   * label): 32 random bytes as base64 or hex (`openssl rand -base64 32`), kept outside the
   * database. Every instance on one database needs the same key. Without one (and without
   * `CHATSURFACE_TOKEN_KEY` in the environment) tokens are stored as they are, and the server
   * says so once at start. @default process.env.CHATSURFACE_TOKEN_KEY
   */
  tokenKey?: string;
  /**
   * The origin users reach this server at (`https://app.example.com`), for the address a sign-in page
   * sends them back to (`/v1/mcp-servers/oauth/callback`) when one of their servers signs users in
   * with OAuth. Set it behind a proxy that changes the host. @default the request's own origin
   */
  publicOrigin?: string;
}

const MAX_OWNERS = 4_096;

/** A label: the namespace of the server's tools in this user's chat. */
export const LABEL = /^[a-z0-9][a-z0-9_-]{0,31}$/;

/** The per-principal MCP servers of `createWorkspaceServer({ connectors })`. */
export interface Connectors {
  /** The principal's own capabilities (sync: loaded by `ensure`), or undefined when they have none. */
  registryOf(principal: Principal): Registry | undefined;
  /** Loads (once) and connects the principal's stored servers; a server that is down is listed as unavailable. */
  ensure(principal: Principal): Promise<void>;
  list(principal: Principal): Promise<ConnectorInfo[]>;
  /** Checks, connects, lists its tools, then stores it; throws `ConnectRefusedError` saying why not. */
  connect(principal: Principal, request: { label: string; url: string; token?: string }): Promise<ConnectorInfo>;
  /** Removes it, its tools and its stored token; false when there was none by that label. */
  disconnect(principal: Principal, label: string): Promise<boolean>;
  /** Starts signing in to an OAuth server of the principal's: the authorization URL to open. Throws `ConnectRefusedError` (404 for a label they do not have). */
  authorize(principal: Principal, label: string, place: SignInPlace): Promise<{ url: string }>;
  /**
   * Completes a sign-in this principal's session started (`state`): exchanges the code, keeps the
   * tokens sealed, connects. A `state` they did not start is a 404 `ConnectRefusedError`.
   */
  completeSignIn(
    principal: Principal,
    response: { state: string; code?: string; iss?: string; error?: string; error_description?: string },
  ): Promise<{ label: string; status: ConnectorInfo['status']; openerOrigin: string; message: string }>;
  /** The origin the sign-in redirect comes back to, as configured (`publicOrigin`), if any. */
  readonly publicOrigin: string | undefined;
  close(): Promise<void>;
}

/**
 * @param reserved true for a label the workspace's own tools already use as a namespace (`records`, `corpus`).
 * @example
 * const connectors = createConnectors(store, { allowHosts: ['127.0.0.1'] }, (label) => registry.list().some((d) => d.name.startsWith(`${label}.`)));
 */
export function createConnectors(rows: ConnectorStore, options: ConnectorsOptions, reserved: (label: string) => boolean, { elicit }: { elicit?: McpElicitHandler } = {}): Connectors {
  const keyText = options.tokenKey ?? process.env.CHATSURFACE_TOKEN_KEY;
  if (!keyText) console.warn('[chatsurface] connectors: users\' MCP tokens are stored unsealed; set connectors.tokenKey (or CHATSURFACE_TOKEN_KEY) to 32 random bytes to seal them (docs/server.md).');
  const store = keyText ? sealedConnectorStore(rows, tokenKeyOf(keyText)) : rows;
  const maxServers = options.maxServersPerUser ?? 5;
  const refreshMs = options.refreshMs ?? 2_000;
  const limits: OpenLimits = {
    network: options,
    maxTools: options.maxToolsPerServer ?? 64,
    connectTimeoutMs: options.connectTimeoutMs ?? 10_000,
    callTimeoutMs: options.callTimeoutMs ?? 60_000,
    ...(elicit ? { elicit } : {}),
  };
  const reopen = (connector: Connector) => reopenServer(connector, limits);
  const owners = createOwnerTable(MAX_OWNERS);
  /** Keeps a connector's new grant: in the store (sealed) and in the entry that holds it. */
  const save = async (connector: Connector) => {
    if (store.update) await store.update(connector);
    else {
      // Without an update: the same row (label and time) removed and added again.
      const same = (await store.list(connector)).some((c) => c.label === connector.label && c.createdAt === connector.createdAt);
      if (same && (await store.remove(connector, connector.label))) await store.add(connector);
    }
    const held = owners.peek(connector)?.entries.get(connector.label);
    if (held && held.connector.createdAt === connector.createdAt) held.connector = connector;
  };
  limits.saveGrant = (connector: Connector, grant: OAuthGrant) => save(withGrant(connector, grant));
  const flow = createSignInFlow({ limits, owners, save, sealed: Boolean(keyText) });
  /** Connects in flight per owner and label (two quick clicks are one connect). */
  const connecting = new Set<string>();

  const connectors: Connectors = {
    registryOf(principal) {
      const o = owners.peek(ownerOf(principal));
      return o && o.entries.size ? o.registry : undefined;
    },
    ensure(principal) {
      const owner = ownerOf(principal);
      const o = owners.owned(owner);
      if (o.loading) return o.loading;
      if (o.checkedAt && Date.now() - o.checkedAt < refreshMs) return Promise.resolve();
      const loading = (async () => syncWithStore(o, await store.list(owner), reopen))().finally(() => {
        if (o.loading === loading) o.loading = null;
      });
      o.loading = loading;
      return loading;
    },
    async list(principal) {
      owners.owned(ownerOf(principal)).checkedAt = 0;
      await connectors.ensure(principal);
      const o = owners.owned(ownerOf(principal));
      // Opening the list tries the servers that were down again.
      const down = [...o.entries.values()].filter((e) => e.status === 'unavailable');
      if (down.length) {
        for (const e of await Promise.all(down.map((d) => reopen(d.connector)))) {
          if (o.entries.get(e.connector.label)?.status === 'unavailable') o.entries.set(e.connector.label, e);
        }
        rebuild(o);
      }
      return [...o.entries.values()].map(describeEntry);
    },
    async connect(principal, request) {
      const owner = ownerOf(principal);
      const { label, url } = checkRequest(request, reserved, options);
      await connectors.ensure(principal);
      const o = owners.owned(owner);
      const flight = `${keyOf(owner)}\u0000${label}`;
      if (o.entries.has(label) || connecting.has(flight)) throw duplicate(label);
      if (o.entries.size + [...connecting].filter((k) => k.startsWith(`${keyOf(owner)}\u0000`)).length >= maxServers) {
        throw new ConnectRefusedError('too_many_servers', `You can connect at most ${maxServers} MCP servers here; disconnect one first.`, 429);
      }
      connecting.add(flight);
      try {
        const token = request.token?.trim();
        const connector: Connector = { ...owner, label, url: url.href, ...(token ? { token } : {}), createdAt: Date.now() };
        const entry = await openServer(connector, limits).catch(async (error: unknown) => {
          // A server that answers 401 with OAuth metadata is kept, waiting for the user to sign in.
          const grant = !token && error instanceof ConnectRefusedError && error.challenge ? await flow.discover(url, error) : null;
          if (!grant) throw error;
          return openServer(withGrant(connector, grant), limits);
        });
        if (!(await store.add(entry.connector))) {
          await closeEntry(entry);
          throw duplicate(label);
        }
        // A read of the store that raced this connect may have opened it too: keep one connection.
        const raced = o.entries.get(label);
        if (raced) void closeEntry(raced);
        o.entries.set(label, entry);
        rebuild(o);
        return describeEntry(entry);
      } finally {
        connecting.delete(flight);
      }
    },
    async disconnect(principal, label) {
      const owner = ownerOf(principal);
      await connectors.ensure(principal);
      const o = owners.owned(owner);
      const removed = await store.remove(owner, label);
      const entry = o.entries.get(label);
      if (entry) {
        o.entries.delete(label);
        rebuild(o);
        await closeEntry(entry);
      }
      return removed || entry !== undefined;
    },
    async authorize(principal, label, place) {
      await connectors.ensure(principal);
      return flow.authorize(ownerOf(principal), label, place);
    },
    async completeSignIn(principal, response) {
      await connectors.ensure(principal);
      return flow.complete(ownerOf(principal), response);
    },
    publicOrigin: options.publicOrigin === undefined ? undefined : originOf(options.publicOrigin),
    async close() {
      await Promise.all(owners.drain().map(closeEntry));
    },
  };
  return connectors;
}

/** The label and address of a connect request, checked before anything is opened; throws saying why not. */
function checkRequest(request: { label: string; url: string }, reserved: (label: string) => boolean, network: NetworkPolicy): { label: string; url: URL } {
  const label = request.label.trim().toLowerCase();
  if (!LABEL.test(label)) throw new ConnectRefusedError('invalid_label', 'A name is 1–32 characters: lowercase letters, digits, "-" or "_", starting with a letter or digit (e.g. "notes").', 400);
  if (reserved(label)) throw new ConnectRefusedError('duplicate_label', `The name "${label}" is taken by this workspace's own tools; pick another name.`, 409);
  try {
    return { label, url: checkServerUrl(request.url.trim(), network) };
  } catch (error) {
    throw new ConnectRefusedError('blocked_address', (error as Error).message, 400);
  }
}

/** `publicOrigin` as an origin (`https://app.example.com`); throws in words for anything else. */
function originOf(text: string): string {
  try {
    const url = new URL(text);
    if ((url.protocol === 'https:' || url.protocol === 'http:') && url.origin === text.replace(/\/$/, '')) return url.origin;
  } catch {
    // said below
  }
  throw new TypeError(`connectors.publicOrigin: "${text}" is not an origin; write it as scheme://host[:port] with no path, e.g. "https://app.example.com".`);
}

const duplicate = (label: string) =>
  new ConnectRefusedError('duplicate_label', `You already have a server named "${label}"; disconnect it first or pick another name.`, 409);
