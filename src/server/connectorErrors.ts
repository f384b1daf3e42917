import type { Connector } from '../runtime/stores/connectorStore';
import { BlockedAddressError } from './connectorNetwork';

/** What a 401 said: `WWW-Authenticate: Bearer resource_metadata="…", scope="…"` (the server may sign users in with OAuth). */
export interface Challenge {
  resourceMetadataUrl?: URL;
  scope?: string;
}

export type RefusalCode =
  | 'invalid_label'
  | 'duplicate_label'
  | 'too_many_servers'
  | 'blocked_address'
  | 'unreachable'
  | 'auth_refused'
  | 'timeout'
  | 'unknown_server'
  | 'sign_in_unavailable'
  | 'sign_in_failed';

/** Why a connect was refused; `code` is what the route answers. */
export class ConnectRefusedError extends Error {
  override name = 'ConnectRefusedError';
  constructor(
    readonly code: RefusalCode,
    message: string,
    readonly status: number,
    /** A 401's `WWW-Authenticate` parameters, when the server answered one (it may sign users in with OAuth). */
    readonly challenge?: Challenge,
  ) {
    super(message);
  }
}

/**
 * What the network said while connecting: the facts a plain-words error is
 * made of (the MCP client's own errors are wrapped too deeply to read).
 */
export interface Observed {
  status?: number;
  contentType?: string;
  failure?: unknown;
  /** The last 401's challenge. */
  challenge?: Challenge;
}

/** The promise, or a `ConnectRefusedError('timeout')` after `ms`. */
export function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new ConnectRefusedError('timeout', '', 504)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * A closed or refused port and an answer that is not MCP look alike to the user (the same code and
 * sentence): a user's URL must not become a way to map which ports of a host are open.
 */
const notAnMcpServer = (where: string) =>
  new ConnectRefusedError('unreachable', `Could not connect to an MCP server at ${where}. Check the address (an MCP endpoint often ends in /mcp) and that the server is running.`, 400);

/** What went wrong connecting, in words the user can act on. */
export function explain(connector: Connector, observed: Observed, error: unknown): ConnectRefusedError {
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
      observed.status === 401 ? (observed.challenge ?? {}) : undefined,
    );
  }
  // Something answered, but not as MCP; or nothing listens there: the same words for both.
  if (observed.status !== undefined) return notAnMcpServer(where);
  const code = (findCause(failure, (e) => typeof (e as { code?: unknown }).code === 'string' && /^E[A-Z_]+$/.test((e as { code: string }).code)) as { code?: string } | null)?.code;
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') {
    return new ConnectRefusedError('unreachable', `Could not reach ${where}: that host name does not resolve. Check the address.`, 400);
  }
  return notAnMcpServer(where);
}

function findCause(error: unknown, test: (e: object) => boolean): object | null {
  for (let e = error, depth = 0; e && typeof e === 'object' && depth < 6; e = (e as { cause?: unknown }).cause, depth++) {
    if (test(e)) return e;
    const errors = (e as { errors?: unknown }).errors;
    if (Array.isArray(errors)) for (const inner of errors) if (inner && typeof inner === 'object' && test(inner)) return inner;
  }
  return null;
}
