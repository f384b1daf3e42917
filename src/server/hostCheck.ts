import type { MiddlewareHandler } from 'hono';
import { errorResponse } from './http';

/** True for 127.0.0.0/8, ::1 and localhost. */
export function isLoopback(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '::1' || hostname === '[::1]' || /^127(\.\d{1,3}){3}$/.test(hostname);
}

/**
 * The names a request's `Host` may carry (DNS-rebinding protection: a page on another name that
 * resolves to this server is refused, 403 `bad_host`, before any route). Without an authenticate
 * hook (one local user), loopback names only; with `allowedHosts`, the names listed (compared
 * without the port, case-insensitively). Null when any name may: an authenticate hook and no list.
 */
export function hostCheck({ loopbackOnly, allowedHosts }: { loopbackOnly: boolean; allowedHosts?: readonly string[] | undefined }): MiddlewareHandler | null {
  const listed = allowedHosts ? new Set(allowedHosts.map((name) => name.toLowerCase())) : null;
  if (!loopbackOnly && !listed) return null;
  return async (c, next) => {
    const name = (c.req.header('host') ?? new URL(c.req.url).host).replace(/:\d+$/, '').toLowerCase();
    if (loopbackOnly && !isLoopback(name)) return errorResponse(403, 'bad_host', `This server has no authenticate hook, so it answers only on loopback names (127.0.0.1, localhost), not "${name}".`);
    if (listed && !listed.has(name)) return errorResponse(403, 'bad_host', `This server answers only on ${[...listed].join(', ')}, not "${name}".`);
    await next();
    return undefined;
  };
}
