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
});
