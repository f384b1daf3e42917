import type { Connector } from '../runtime/stores/connectorStore';
import { BlockedAddressError } from './connectorNetwork';

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

/**
 * What the network said while connecting: the facts a plain-words error is
 * made of (the MCP client's own errors are wrapped too deeply to read).
 */
export interface Observed {
  status?: number;
  contentType?: string;
  failure?: unknown;
}

/** The promise, or a `ConnectRefusedError('timeout')` after `ms`. */
export function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new ConnectRefusedError('timeout', '', 504)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

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
