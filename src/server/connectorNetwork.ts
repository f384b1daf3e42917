import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP } from 'node:net';
import type ipaddrModule from 'ipaddr.js';
import { requirePeer } from '../runtime/node/requirePeer';

/** Where users' own MCP servers may be: public addresses, plus what the host allows. */
export interface NetworkPolicy {
  /**
   * Host names and addresses allowed even though they are private, loopback
   * or link-local, each on every port (`'mcp.internal'`, `'127.0.0.1'`) or on
   * one (`'127.0.0.1:4180'`, `'[::1]:4180'`): name the port, so a user cannot
   * reach the database or the app's own server on the same host. Exact,
   * case-insensitive matches of the URL's host or of an address it resolves
   * to. @default [] (only public addresses)
   */
  allowHosts?: readonly string[];
}

/** A URL the policy refuses; the message says why, in words. */
export class BlockedAddressError extends Error {
  override name = 'BlockedAddressError';
}

type IpAddr = typeof ipaddrModule;
let loaded: IpAddr | null = null;
/** ipaddr.js, an optional peer the connectors option needs (with undici): loaded on first use. */
const ip = (): IpAddr => (loaded ??= requirePeer<IpAddr>('ipaddr.js'));

/**
 * The IPv4 address an IPv6 transition form carries, read as where the packets end up: IPv4-mapped
 * (`::ffff:0:0/96`), IPv4-translated (`::ffff:0:0:0/96`), NAT64 (`64:ff9b::/96`), 6to4
 * (`2002::/16`) and the deprecated IPv4-compatible form (`::/96`). Null for any other address.
 */
function embeddedIpv4(address: ipaddrModule.IPv6): ipaddrModule.IPv4 | null {
  const parts = address.parts;
  const v4 = (high: number, low: number) => new (ip().IPv4)([high >> 8, high & 255, low >> 8, low & 255]);
  switch (address.range()) {
    case 'ipv4Mapped':
    case 'rfc6145':
    case 'rfc6052':
      return v4(parts[6]!, parts[7]!);
    case '6to4':
      return v4(parts[1]!, parts[2]!);
    default:
      return parts.slice(0, 6).every((part) => part === 0) ? v4(parts[6]!, parts[7]!) : null;
  }
}

/** Local-use NAT64 (`64:ff9b:1::/48`, RFC 8215): a network's own translator, where the IPv4 address may sit anywhere. */
const localNat64 = (): [ipaddrModule.IPv6, number] => ip().parseCIDR('64:ff9b:1::/48') as [ipaddrModule.IPv6, number];

/**
 * True for an address a user's server may not be at without the host's say-so: anything that is
 * not public unicast by ipaddr.js's ranges (private, loopback, link-local, carrier-grade NAT,
 * unique-local, site-local, multicast, reserved, documentation, benchmarking, Teredo), and an
 * IPv6 transition form whose IPv4 address is one of those. A string that is no address is refused.
 * @example
 * isPrivateAddress('64:ff9b::a9fe:a9fe'); // → true: NAT64 for 169.254.169.254, the cloud metadata address
 */
export function isPrivateAddress(address: string): boolean {
  // Outside the try: a missing ipaddr.js says so (MissingPeerError), not that every address is private.
  const lib = ip();
  let parsed: ipaddrModule.IPv4 | ipaddrModule.IPv6;
  try {
    parsed = lib.parse(address);
  } catch {
    return true;
  }
  if (parsed.kind() === 'ipv4') return parsed.range() !== 'unicast';
  const v6 = parsed as ipaddrModule.IPv6;
  if (v6.match(localNat64())) return true;
  const inner = embeddedIpv4(v6);
  if (inner) return inner.range() !== 'unicast';
  return v6.range() !== 'unicast';
}

const bare = (host: string) => host.replace(/^\[|\]$/g, '').toLowerCase();

/** The allow list as (host, port) pairs; a port of null allows every port. */
interface AllowList {
  allows(host: string, address: string, port: number): boolean;
}

/** `host`, `host:port`, `[v6]`, `[v6]:port` or a bare IPv6 address (every port). */
function allowListOf(entries: readonly string[] = []): AllowList {
  const pairs = entries.map((entry) => {
    const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(entry);
    if (bracketed) return { host: bracketed[1]!.toLowerCase(), port: bracketed[2] ? Number(bracketed[2]) : null };
    const hostPort = /^([^:]+):(\d+)$/.exec(entry);
    if (hostPort) return { host: hostPort[1]!.toLowerCase(), port: Number(hostPort[2]) };
    return { host: bare(entry), port: null };
  });
  return {
    allows: (host, address, port) => pairs.some((p) => (p.host === bare(host) || p.host === address) && (p.port === null || p.port === port)),
  };
}

/** The port a URL connects to: its own, else its scheme's. */
const portOf = (url: URL): number => Number(url.port) || (url.protocol === 'https:' ? 443 : 80);

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
  const allow = allowListOf(policy.allowHosts);
  const port = portOf(url);
  if (isIP(host) && isPrivateAddress(host) && !allow.allows(host, host, port)) throw refusal(host, host);
  if (!isIP(host) && (host === 'localhost' || host.endsWith('.localhost')) && !allow.allows(host, host, port)) throw refusal(host, '127.0.0.1');
  return url;
}

function refusal(host: string, address: string): BlockedAddressError {
  return new BlockedAddressError(
    `${host} is a private or local address (${address}), which this workspace does not connect to for you. Use the server's public address, or ask the workspace's host to allow it.`,
  );
}

/**
 * A `fetch` for users' MCP servers whose every connection is checked where
 * it is made: the host is resolved there, every address it resolves to must
 * pass the policy on the port being connected to, and the connection goes to
 * the address that was checked (so a DNS answer that changes after the URL
 * was checked does not reach the local network). Redirects are refused.
 */
export function guardedFetch(policy: NetworkPolicy = {}): { fetch: typeof fetch; close(): Promise<void> } {
  const allow = allowListOf(policy.allowHosts);
  const { Agent, buildConnector, fetch: undiciFetch } = requirePeer<typeof import('undici')>('undici');
  const direct = buildConnector({ timeout: 10_000 });
  const connect = (options: Parameters<typeof direct>[0], callback: Parameters<typeof direct>[1]): void => {
    const host = bare(options.hostname);
    const port = Number(options.port) || (options.protocol === 'https:' ? 443 : 80);
    dnsLookup(host, { all: true }, (error, addresses: LookupAddress[]) => {
      if (error) return callback(error, null);
      const bad = addresses.find((a) => isPrivateAddress(a.address) && !allow.allows(host, a.address, port));
      if (bad) return callback(Object.assign(refusal(host, bad.address), { code: 'EBLOCKED' }), null);
      // To the address just checked; TLS still names the host (undici takes the server name from `host`).
      direct({ ...options, hostname: addresses[0]!.address }, callback);
    });
  };
  const agent = new Agent({ connect });
  const guarded = ((input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(typeof input === 'string' || input instanceof URL ? input : input.url);
    const host = bare(url.hostname);
    if (isIP(host) && isPrivateAddress(host) && !allow.allows(host, host, portOf(url))) return Promise.reject(refusal(host, host));
    return undiciFetch(url, { ...(init as object), redirect: 'error', dispatcher: agent } as never) as unknown as Promise<Response>;
  }) as typeof fetch;
  return { fetch: guarded, close: () => agent.close() };
}
