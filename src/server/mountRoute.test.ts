import { afterEach, describe, expect, it } from 'vitest';
import { pathOf, routes, type JsonRoute, type StreamRoute } from '../workspace/protocol';
import { createWorkspaceServer, type WorkspaceServer } from './createWorkspaceServer';

let server: WorkspaceServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

/** Values for every path parameter the table uses. */
const PARAMS: Record<string, string> = { threadId: 't1', id: 'inv1', invocationId: 'inv1', label: 'mine' };

const headers = { 'x-user': 'alice', 'content-type': 'application/json' };

async function start() {
  server = await createWorkspaceServer({
    capabilities: [],
    database: ':memory:',
    authenticate: (request) => {
      const user = request.headers.get('x-user');
      return user ? { user } : null;
    },
    connectors: { allowHosts: ['127.0.0.1'] },
  });
  return (await server.listen()).url;
}

const request = (url: string, route: JsonRoute | StreamRoute, path: string) =>
  fetch(`${url}${path}`, { method: route.method, headers, ...(route.method === 'GET' ? {} : { body: '{}' }) });

describe('the workspace protocol route table', () => {
  it('every route of the table is mounted by the server: none falls through to the not-found answer', async () => {
    const url = await start();
    const answered: string[] = [];
    for (const [name, route] of Object.entries(routes)) {
      const path = route.path.replace(/:([A-Za-z]+)/g, (_, param: string) => PARAMS[param] ?? 'x');
      const response = await request(url, route, path);
      const body = response.headers.get('content-type')?.startsWith('application/json') ? await response.json() : (await response.body?.cancel(), null);
      answered.push(`${name} ${body?.error?.code === 'not_found' ? 'not mounted' : 'mounted'}`);
    }
    expect(answered).toEqual(Object.keys(routes).map((name) => `${name} mounted`));
    // The check can tell: a path nobody mounted is the not-found answer.
    const nowhere = await fetch(`${url}/v1/threads/t1/nowhere`, { method: 'POST', headers, body: '{}' });
    expect((await nowhere.json()).error.code).toBe('not_found');
  });

  it('checks a :threadId of any route against the thread-id rule', async () => {
    const url = await start();
    for (const route of [routes.send, routes.events, routes.decide, routes.readApp, routes.callAppTool]) {
      const response = await request(url, route, pathOf(route.path, { threadId: 'no spaces', invocationId: 'inv1' }));
      expect(response.status).toBe(400);
      expect((await response.json()).error).toEqual({ code: 'invalid_thread_id', message: 'A thread id is 1–128 characters from A–Z a–z 0–9 _ . -' });
    }
  });

  it('validates the body and the query from the table', async () => {
    const url = await start();
    const bad = await fetch(`${url}${pathOf(routes.decide.path, { threadId: 't1' })}`, { method: 'POST', headers, body: JSON.stringify({ id: 'p1', decision: 'maybe' }) });
    expect(bad.status).toBe(400);
    expect((await bad.json()).error.code).toBe('invalid_request');
    // The node query's parameters are optional: an empty query is the empty search of the default thread.
    const nodes = await fetch(`${url}${routes.query.path}`, { headers });
    expect(nodes.status).toBe(200);
    expect(routes.query.answer.safeParse(await nodes.json()).success).toBe(true);
  });
});
