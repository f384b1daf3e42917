import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createReferenceServer, demoMcpAuth } from './server';

describe("the demo's OAuth on the MCP door, from the environment", () => {
  it('is off without MCP_AUTH_ISSUER', () => {
    expect(demoMcpAuth({})).toBeUndefined();
    expect(demoMcpAuth({ MCP_AUTH_ISSUER: '  ' })).toBeUndefined();
  });

  it("takes the issuer, the required scopes and the demo's own /mcp as the resource", () => {
    expect(demoMcpAuth({ MCP_AUTH_ISSUER: 'http://127.0.0.1:4444' })).toEqual({ issuer: 'http://127.0.0.1:4444', resource: 'http://127.0.0.1:5173/mcp' });
    expect(demoMcpAuth({ MCP_AUTH_ISSUER: 'https://auth.example.com', MCP_AUTH_SCOPES: 'mcp:tools, mcp:admin', PORT: '8080' })).toEqual({
      issuer: 'https://auth.example.com',
      resource: 'http://127.0.0.1:8080/mcp',
      requiredScopes: ['mcp:tools', 'mcp:admin'],
    });
    expect(demoMcpAuth({ MCP_AUTH_ISSUER: 'https://auth.example.com', MCP_AUTH_RESOURCE: 'https://demo.example.com/mcp' })?.resource).toBe('https://demo.example.com/mcp');
  });

  it('advertises the issuer and challenges an MCP client without a key', async () => {
    const stateDir = mkdtempSync(join(tmpdir(), 'reference-oauth-'));
    const saved = { issuer: process.env.MCP_AUTH_ISSUER, scopes: process.env.MCP_AUTH_SCOPES };
    process.env.MCP_AUTH_ISSUER = 'http://127.0.0.1:4444';
    process.env.MCP_AUTH_SCOPES = 'mcp:tools';
    const reference = await createReferenceServer({ stateDir }).finally(() => {
      for (const [name, value] of [['MCP_AUTH_ISSUER', saved.issuer], ['MCP_AUTH_SCOPES', saved.scopes]] as const) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    });
    try {
      const metadata = await reference.server.fetch(new Request('http://127.0.0.1:5173/.well-known/oauth-protected-resource/mcp'));
      expect(await metadata.json()).toEqual({ resource: 'http://127.0.0.1:5173/mcp', authorization_servers: ['http://127.0.0.1:4444'], scopes_supported: ['mcp:tools'], bearer_methods_supported: ['header'] });
      const refused = await reference.server.fetch(
        new Request('http://127.0.0.1:5173/mcp', { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}' }),
      );
      expect(refused.status).toBe(401);
      expect(refused.headers.get('www-authenticate')).toBe('Bearer resource_metadata="http://127.0.0.1:5173/.well-known/oauth-protected-resource/mcp", scope="mcp:tools"');
    } finally {
      await reference.close();
      rmSync(stateDir, { recursive: true, force: true });
    }
  });
});
