import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkServerUrl, guardedFetch, isPrivateAddress } from './connectorNetwork';

let server: Server;
let port: number;
beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === '/redirect') return void res.writeHead(302, { location: 'http://127.0.0.1:1/' }).end();
    res.writeHead(200, { 'content-type': 'text/plain' }).end('local answer');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

describe('the address guard of users\' own MCP servers', () => {
  it('tells private, loopback, link-local and reserved addresses from public ones', () => {
    for (const a of ['127.0.0.1', '10.0.0.8', '172.20.1.1', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '224.0.0.1', '::1', '::', 'fe80::1', 'fd00::1', '::ffff:127.0.0.1', '::ffff:10.0.0.1']) {
      expect(isPrivateAddress(a), a).toBe(true);
    }
    for (const a of ['93.184.216.34', '8.8.8.8', '172.32.0.1', '2606:4700::1111', '::ffff:8.8.8.8']) expect(isPrivateAddress(a), a).toBe(false);
  });

  it('refuses every IPv6 form that carries a private or metadata IPv4 address, and the IPv6 ranges that are not public', () => {
    const refused = {
      'NAT64 of the metadata address': '64:ff9b::a9fe:a9fe',
      'NAT64 of loopback': '64:ff9b::127.0.0.1',
      'local-use NAT64': '64:ff9b:1::808:808',
      '6to4 of loopback': '2002:7f00:1::',
      '6to4 of 10/8': '2002:a00:1::1',
      'IPv4-compatible loopback': '::127.0.0.1',
      'IPv4-compatible metadata': '::a9fe:a9fe',
      'IPv4-mapped, long form': '0:0:0:0:0:ffff:7f00:1',
      'IPv4-translated': '::ffff:0:a9fe:a9fe',
      'site-local': 'fec0::1',
      Teredo: '2001::1',
      documentation: '2001:db8::1',
      'IPv4 documentation': '192.0.2.1',
      'IPv4 benchmarking': '198.18.0.1',
      broadcast: '255.255.255.255',
      'zone id on link-local': 'fe80::1%eth0',
      'not an address': 'example.com',
    };
    for (const [why, a] of Object.entries(refused)) expect(isPrivateAddress(a), `${why}: ${a}`).toBe(true);
    // The same forms around a public address are public: NAT64 and 6to4 of 8.8.8.8.
    for (const a of ['64:ff9b::808:808', '2002:808:808::1']) expect(isPrivateAddress(a), a).toBe(false);
  });

  it('refuses a URL whose host is a transition form of a local address', () => {
    expect(() => checkServerUrl('http://[64:ff9b::a9fe:a9fe]/mcp')).toThrow('private or local address');
    expect(() => checkServerUrl('http://[::ffff:7f00:1]/mcp')).toThrow('private or local address');
    expect(() => checkServerUrl('http://[2002:7f00:1::]:8080/mcp')).toThrow('private or local address');
  });

  it('checks the URL before anything connects, unless the host allows the address', () => {
    expect(() => checkServerUrl('http://127.0.0.1:9/mcp')).toThrow('127.0.0.1 is a private or local address (127.0.0.1)');
    expect(() => checkServerUrl('http://LOCALHOST/mcp')).toThrow('private or local address');
    expect(() => checkServerUrl('ftp://example.com/mcp')).toThrow('must start with https://');
    expect(() => checkServerUrl('not a url')).toThrow('is not a URL');
    expect(checkServerUrl('http://127.0.0.1:9/mcp', { allowHosts: ['127.0.0.1'] }).href).toBe('http://127.0.0.1:9/mcp');
    expect(checkServerUrl('https://mcp.example.com/mcp').host).toBe('mcp.example.com');
  });

  it('refuses, where the connection is made, a name that resolves to a local address (the check a rebinding DNS answer cannot skip)', async () => {
    const guarded = guardedFetch();
    try {
      // "localhost" resolves to loopback: the connection is refused at lookup time, even though no URL check ran.
      await expect(guarded.fetch(`http://localhost:${port}/`)).rejects.toThrow();
      const error = await guarded.fetch(`http://localhost:${port}/`).catch((e: Error) => e);
      expect(String((error as Error & { cause?: Error }).cause?.message ?? error)).toContain('private or local address');
      await expect(guarded.fetch(`http://127.0.0.1:${port}/`)).rejects.toThrow('private or local address');
    } finally {
      await guarded.close();
    }
    const allowed = guardedFetch({ allowHosts: ['localhost', '127.0.0.1'] });
    try {
      expect(await (await allowed.fetch(`http://localhost:${port}/`)).text()).toBe('local answer');
      // Redirects are not followed (a public server could point the connection inward).
      await expect(allowed.fetch(`http://127.0.0.1:${port}/redirect`)).rejects.toThrow();
    } finally {
      await allowed.close();
    }
  });

  it('an allowed host with a port reaches that port only: not the database or the app beside it', async () => {
    const other = createServer((_req, res) => res.writeHead(200).end('the database'));
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    const otherPort = (other.address() as AddressInfo).port;
    const onePort = guardedFetch({ allowHosts: [`127.0.0.1:${port}`] });
    try {
      expect(await (await onePort.fetch(`http://127.0.0.1:${port}/`)).text()).toBe('local answer');
      // By name too: "localhost" resolves to the allowed address, on the allowed port.
      expect(await (await onePort.fetch(`http://localhost:${port}/`)).text()).toBe('local answer');
      await expect(onePort.fetch(`http://127.0.0.1:${otherPort}/`)).rejects.toThrow('private or local address');
      const byName = await onePort.fetch(`http://localhost:${otherPort}/`).catch((e: Error) => e);
      expect(String((byName as Error & { cause?: Error }).cause?.message ?? byName)).toContain('private or local address');
    } finally {
      await onePort.close();
      await new Promise((resolve) => other.close(resolve));
    }
    expect(checkServerUrl(`http://127.0.0.1:${port}/mcp`, { allowHosts: [`127.0.0.1:${port}`] }).port).toBe(String(port));
    expect(() => checkServerUrl('http://127.0.0.1:5432/mcp', { allowHosts: [`127.0.0.1:${port}`] })).toThrow('private or local address');
    expect(checkServerUrl('http://[::1]:4180/mcp', { allowHosts: ['[::1]:4180'] }).hostname).toBe('[::1]');
    expect(() => checkServerUrl('http://[::1]:4181/mcp', { allowHosts: ['[::1]:4180'] })).toThrow('private or local address');
  });
});
