import type { IncomingMessage } from 'node:http';
import type { Context } from 'hono';
import type { Principal } from '../runtime/principal';

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

/**
 * Each request's client address, as the middleware found it, by the request
 * object the routes see (`c.req.raw`). Carried explicitly, not in an
 * `AsyncLocalStorage`: on Node 20 that hooks every promise of the process.
 */
const requestAddresses = new WeakMap<Request, string>();
/** The client address a principal was handed out with, by the per-request copy `addressed` made. */
const principalAddresses = new WeakMap<Principal, string>();

/**
 * Notes each request's client address (normalised, see `addressKey`) for
 * `addressed`: the host's `clientAddress`, else with `trustProxy` the last
 * `X-Forwarded-For` hop, else the socket's peer (when served by `listen`).
 * A step of the server's first middleware, beside the host check.
 */
export function clientAddressNote(options: ClientAddressOptions): (c: Context) => void {
  // A kept-alive client sends from the same address again and again: its key is worked out once.
  let lastRaw = '';
  let lastKey = '';
  return (c) => {
    const raw =
      options.clientAddress?.(c.req.raw) ??
      (options.trustProxy ? c.req.header('x-forwarded-for')?.split(',').at(-1)?.trim() || undefined : undefined) ??
      (c.env as { incoming?: IncomingMessage } | undefined)?.incoming?.socket?.remoteAddress;
    if (!raw) return;
    if (raw !== lastRaw) {
      lastKey = addressKey(raw);
      lastRaw = raw;
    }
    requestAddresses.set(c.req.raw, lastKey);
  };
}

/**
 * The request's principal, carrying the request's client address to where a
 * thread or a skill is admitted (`addressOf`): a copy of `principal` made for
 * this request (a principal may be shared by many requests, a cached bearer
 * key's from many addresses at once), or `principal` itself when the address
 * is unknown or it already carries one.
 */
export function addressed(request: Request, principal: Principal): Principal {
  const address = requestAddresses.get(request);
  if (address === undefined || principalAddresses.has(principal)) return principal;
  const proto = Object.getPrototypeOf(principal) as object | null;
  // A plain object is spread; anything else keeps its prototype and every own property.
  const copy: Principal = proto === Object.prototype ? { ...principal } : Object.create(proto, Object.getOwnPropertyDescriptors(principal));
  principalAddresses.set(copy, address);
  return copy;
}

/** The client address the principal came with (see `addressed`), or undefined when unknown. */
export function addressOf(principal: Principal): string | undefined {
  return principalAddresses.get(principal);
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
