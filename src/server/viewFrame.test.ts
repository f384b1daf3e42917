import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorkspaceServer, type WorkspaceServer } from './createWorkspaceServer';

/** The MCP App frame document as the workspace server serves it: public, the same for everyone, its origins checked again. */
let server: WorkspaceServer;
beforeAll(async () => {
  server = await createWorkspaceServer({ capabilities: [], database: ':memory:', authenticate: async () => null });
});
afterAll(async () => server?.close());

const get = (path: string, headers: Record<string, string> = {}) => server.fetch(new Request(`http://127.0.0.1${path}`, { headers }));

describe('GET /v1/app-frame', () => {
  it('answers without a principal, also to a frame on another site, with the headers that hold a view', async () => {
    const response = await get('/v1/app-frame?connect=https%3A%2F%2Fapi.example.com', { 'sec-fetch-site': 'cross-site', 'sec-fetch-dest': 'iframe' });
    expect(response.status).toBe(200);
    expect(response.headers.get('connection-allowlist')).toBe('("https://api.example.com")');
    expect(response.headers.get('content-security-policy')).toMatch(/^sandbox allow-scripts; default-src 'none';.*connect-src https:\/\/api\.example\.com;/);
    expect(await response.text()).toContain('chatsurface/app-frame-view');
    // The rest of /v1 still asks who is calling.
    expect((await get('/v1/threads')).status).toBe(401);
  });

  it('drops a wildcard over a public suffix and anything that is not a plain origin', async () => {
    const query = new URLSearchParams([
      ['connect', 'https://*.co.uk'],
      ['connect', 'https://*.maps.example.com'],
      ['resource', 'https://cdn.example.com; script-src *'],
    ]);
    const response = await get(`/v1/app-frame?${query}`);
    expect(response.headers.get('connection-allowlist')).toBe('("https://*.maps.example.com")');
    expect(response.headers.get('content-security-policy')).not.toContain('co.uk');
    expect(response.headers.get('content-security-policy')).toContain("script-src 'unsafe-inline';");
  });
});
