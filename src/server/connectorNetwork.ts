import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { BlockList, isIP } from 'node:net';
import { requirePeer } from '../runtime/node/requirePeer';

/** Where users' own MCP servers may be: public addresses, plus what the host allows. */
export interface NetworkPolicy {
  /**
   * Host names and addresses allowed even though they are private, loopback
   * or link-local (e.g. `['127.0.0.1']` for a demo, `['mcp.internal']`).
   * Exact, case-insensitive matches of the URL's host or of an address it
   * resolves to. @default [] (only public addresses)
   */
  allowHosts?: readonly string[];
}

/** A URL the policy refuses; the message says why, in words. */
export class BlockedAddressError extends Error {
  override name = 'BlockedAddressError';
}

const blocked = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, cloud metadata
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const) {
  blocked.addSubnet(net, prefix, 'ipv4');
}
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['ff00::', 8], // multicast
] as const) {
  blocked.addSubnet(net, prefix, 'ipv6');
}

/** True for an address a user's server may not be at without the host's say-so. */
export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return blocked.check(address, 'ipv4');
  if (family === 6) {
    const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address);
    if (mapped) return blocked.check(mapped[1]!, 'ipv4');
    return blocked.check(address, 'ipv6');
  }
  return true;
}

const bare = (host: string) => host.replace(/^\[|\]$/g, '').toLowerCase();

/**
 * Checks a user's server URL before anything connects: http(s) only, no
 * credentials in it, and a host that is not a private, loopback or
 * link-local address unless `allowHosts` names it.
 */
export function checkServerUrl(raw: string, policy: NetworkPolicy = {}): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new BlockedAddressError(`"${raw}" is not a URL; give the server's address, e.g. https://mcp.example.com/mcp.`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new BlockedAddressError(`The URL must start with https:// (or http://), not ${url.protocol}//.`);
  if (url.username || url.password) throw new BlockedAddressError('Put the token in the token field, not in the URL.');
  const host = bare(url.hostname);
  const allowed = new Set((policy.allowHosts ?? []).map(bare));
  if (isIP(host) && isPrivateAddress(host) && !allowed.has(host)) throw refusal(host, host);
  if (!isIP(host) && (host === 'localhost' || host.endsWith('.localhost')) && !allowed.has(host)) throw refusal(host, '127.0.0.1');
  return url;
}

function refusal(host: string, address: string): BlockedAddressError {
  return new BlockedAddressError(
    `${host} is a private or local address (${address}), which this workspace does not connect to for you. Use the server's public address, or ask the workspace's host to allow it.`,
  );
}

/**
 * A `fetch` for users' MCP servers whose every connection is checked where
 * it is made: the address a name resolves to at connect time must pass the
 * policy (so a DNS answer that changes after the URL was checked does not
 * reach the local network), and redirects are refused.
 */
export function guardedFetch(policy: NetworkPolicy = {}): { fetch: typeof fetch; close(): Promise<void> } {
  const allowed = new Set((policy.allowHosts ?? []).map(bare));
  const lookup = (hostname: string, options: object, callback: (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, []);
      const list = addresses as LookupAddress[];
      const bad = list.find((a) => isPrivateAddress(a.address) && !allowed.has(bare(hostname)) && !allowed.has(a.address));
      if (bad) return callback(Object.assign(refusal(hostname, bad.address), { code: 'EBLOCKED' }) as NodeJS.ErrnoException, []);
      const all = (options as { all?: boolean }).all;
      if (all) return callback(null, list);
      const first = list[0]!;
      return callback(null, first.address, first.family);
    });
  };
  const { Agent, fetch: undiciFetch } = requirePeer<typeof import('undici')>('undici');
  const agent = new Agent({ connect: { lookup: lookup as never }, connectTimeout: 10_000 });
  const guarded = ((input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(typeof input === 'string' || input instanceof URL ? input : input.url);
    const host = bare(url.hostname);
    if (isIP(host) && isPrivateAddress(host) && !allowed.has(host)) return Promise.reject(refusal(host, host));
    return undiciFetch(url, { ...(init as object), redirect: 'error', dispatcher: agent } as never) as unknown as Promise<Response>;
  }) as typeof fetch;
  return { fetch: guarded, close: () => agent.close() };
}
