import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createThreadHost } from '../runtime/host/threadHost';
import { agUiDoor } from './agUiDoor';

const notFound = (name: string) => Object.assign(new Error(`Cannot find package '${name}' imported from /srv/node_modules/chatsurface/dist/server/agUiRoutes.js`), { code: 'ERR_MODULE_NOT_FOUND' });
const options = () => ({ host: createThreadHost({ capabilities: [] }), principal: async () => ({ user: 'me' }) });
const post = (body: unknown) => new Request('http://127.0.0.1/v1/ag-ui', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

describe('the AG-UI endpoint of chatsurface/server, whose packages are optional peers', () => {
  it('without @ag-ui/encoder or @ag-ui/core, POST /v1/ag-ui answers 501 naming the package to install', async () => {
    for (const name of ['@ag-ui/core', '@ag-ui/encoder']) {
      const app = await agUiDoor(options(), () => Promise.reject(notFound(name)));
      const response = await app.fetch(post({}));
      expect(response.status).toBe(501);
      const body = (await response.json()) as { error: { code: string; message: string } };
      expect(body.error.code).toBe('missing_peer');
      expect(body.error.message).toContain(`npm install ${name}`);
    }
  });

  it('without the packages, a request with no principal is still 401, as the endpoint would answer it', async () => {
    const app = await agUiDoor({ ...options(), principal: async () => null }, () => Promise.reject(notFound('@ag-ui/core')));
    const response = await app.fetch(post({}));
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe('Bearer');
    expect(((await response.json()) as { error: { message: string } }).error.message).toBe('Sign in first: this AG-UI endpoint runs your own threads.');
  });

  it('any other failure to load the endpoint fails the server start', async () => {
    const boom = new TypeError('boom');
    await expect(agUiDoor(options(), () => Promise.reject(boom))).rejects.toBe(boom);
  });

  it('with the packages installed, the endpoint is the real one (a bad body is a 400, not a 501)', async () => {
    const app = await agUiDoor(options());
    expect((await app.fetch(post({}))).status).toBe(400);
  });

  it('the server reaches the AG-UI packages only through that dynamic import', () => {
    const text = readFileSync(new URL('./createWorkspaceServer.ts', import.meta.url), 'utf8');
    expect(text).not.toMatch(/from '\.\/agUiRoutes'|from '@ag-ui\//);
    expect(readFileSync(new URL('./agUiDoor.ts', import.meta.url), 'utf8')).toMatch(/import\('\.\/agUiRoutes'\)/);
  });
});
