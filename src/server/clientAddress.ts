import { AsyncLocalStorage } from 'node:async_hooks';
import type { IncomingMessage } from 'node:http';
import type { MiddlewareHandler } from 'hono';

/** How the server tells a request's client address (per-address caps count by it). */
export interface ClientAddressOptions {
  /**
   * Believe the last `X-Forwarded-For` hop (the one your proxy added): only
   * behind a proxy you run, which sets it. @default false: the socket's peer
   */
  trustProxy?: boolean;
  /** The host's own way to tell the client address (a header its edge sets); undefined falls back to the above. */
  clientAddress?: (request: Request) => string | undefined;
}

const current = new AsyncLocalStorage<string | undefined>();

/** The client address of the request being served (normalised, see `addressKey`), or undefined when unknown. */
export function requestAddress(): string | undefined {
  return current.getStore();
}

/**
 * Middleware that tells the rest of the request its client address: the
 * host's `clientAddress`, else with `trustProxy` the last `X-Forwarded-For`
 * hop, else the socket's peer (when served by `listen`).
 */
export function clientAddresses(options: ClientAddressOptions): MiddlewareHandler {
  return (c, next) => {
    const raw =
      options.clientAddress?.(c.req.raw) ??
      (options.trustProxy ? c.req.header('x-forwarded-for')?.split(',').at(-1)?.trim() || undefined : undefined) ??
      (c.env as { incoming?: IncomingMessage } | undefined)?.incoming?.socket?.remoteAddress;
    return current.run(raw ? addressKey(raw) : undefined, next);
  };
}

/**
 * An address as caps count it: IPv4 as it is (an IPv4-mapped IPv6 address
 * too), IPv6 by its /64, which one client is usually given whole (counting
 * single IPv6 addresses would give each client 2^64 of them).
 */
export function addressKey(raw: string): string {
  const address = raw.trim().replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address);
  if (mapped) return mapped[1]!;
  if (!address.includes(':')) return address;
  const [head = '', tail] = address.toLowerCase().split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  // An embedded IPv4 tail (::1.2.3.4 forms) is two groups; only the first four groups matter here.
  const groups = tail === undefined ? left : [...left, ...Array<string>(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right];
  return `${groups
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}
