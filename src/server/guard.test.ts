import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import type { Principal } from '../runtime/principal';
import { crossSiteGuard, guard, jsonBodyGuard, jsonDepthExceeds, requirePrincipal, type GuardOptions, type PrincipalVariables } from './guard';

const BASE = 'http://api.test';

/** A tiny app behind the guard: what ran is recorded, so a refusal can be shown to run nothing. */
function appWith(options: GuardOptions = {}) {
  const ran: string[] = [];
  /** Requests as the app was given them (by `fetch` below): the guard must not rebuild one. */
  const sent: Request[] = [];
  const app = new Hono();
  app.use(guard(options));
  app.get('/v1/manifest', (c) => {
    ran.push('manifest');
    return c.json({ ok: true });
  });
  app.post('/v1/echo', async (c) => {
    ran.push('echo');
    const text = await c.req.text();
    const json = await c.req.json();
    return c.json({ text, json, sameRequest: c.req.raw === sent.at(-1) });
  });
  app.all('/mcp', (c) => {
    ran.push('mcp');
    return c.json({ jsonrpc: '2.0' });
  });
  return { app, ran, sent };
}

const json = (body: unknown, headers: Record<string, string> = {}): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', ...headers },
  body: typeof body === 'string' ? body : JSON.stringify(body),
});

describe('jsonDepthExceeds', () => {
  it('counts arrays and objects, not brackets inside strings or after escapes', () => {
    expect(jsonDepthExceeds('{}', 0)).toBe(true);
    expect(jsonDepthExceeds('1', 0)).toBe(false);
    expect(jsonDepthExceeds('[[1]]', 2)).toBe(false);
    expect(jsonDepthExceeds('[[1]]', 1)).toBe(true);
    expect(jsonDepthExceeds('{"a":[{"b":{}}]}', 4)).toBe(false);
    expect(jsonDepthExceeds('{"a":[{"b":{}}]}', 3)).toBe(true);
    expect(jsonDepthExceeds(JSON.stringify({ s: '[[[[{{{{' }), 1)).toBe(false);
    expect(jsonDepthExceeds(JSON.stringify({ s: 'quote \\" then [[[[' }), 1)).toBe(false);
    expect(jsonDepthExceeds(JSON.stringify({ s: 'ends in a backslash \\' , t: [[1]] }), 2)).toBe(true);
    expect(jsonDepthExceeds(JSON.stringify([{ s: '\\' }, [[]]]), 3)).toBe(false);
    // Siblings do not add up: depth is nesting, not count.
    expect(jsonDepthExceeds(`[${'[],'.repeat(1000)}[]]`, 2)).toBe(false);
  });

  it('scans a very deep text without recursing', () => {
    const deep = '['.repeat(1_000_000) + ']'.repeat(1_000_000);
    expect(jsonDepthExceeds(deep, 64)).toBe(true);
    expect(jsonDepthExceeds(deep, 1_000_000)).toBe(false);
  });
});

describe('the cross-site guard', () => {
  it('answers same-origin requests, and requests that send no Origin at all (curl, servers)', async () => {
    const { app } = appWith();
    expect((await app.request(`${BASE}/v1/manifest`)).status).toBe(200);
    expect((await app.request(`${BASE}/v1/manifest`, { headers: { origin: BASE } })).status).toBe(200);
    expect((await app.request(`${BASE}/v1/manifest`, { headers: { 'sec-fetch-site': 'same-origin' } })).status).toBe(200);
    expect((await app.request(`${BASE}/v1/manifest`, { headers: { 'sec-fetch-site': 'none' } })).status).toBe(200);
    const res = await app.request(`${BASE}/v1/echo`, json({ a: 1 }, { origin: BASE }));
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('takes the origin the Host header names as the server’s own (behind a port mapping)', async () => {
    const { app } = appWith();
    const res = await app.request('http://127.0.0.1:8787/v1/manifest', { headers: { host: 'localhost:5173', origin: 'http://localhost:5173' } });
    expect(res.status).toBe(200);
  });

  it('refuses another origin on every route and method, before anything runs', async () => {
    const { app, ran } = appWith();
    for (const [path, init] of [
      ['/v1/manifest', { headers: { origin: 'https://evil.test' } }],
      ['/v1/echo', json({ a: 1 }, { origin: 'https://evil.test' })],
      ['/mcp', { headers: { origin: 'https://evil.test' } }],
      ['/mcp', json({ jsonrpc: '2.0', method: 'tools/list', id: 1 }, { origin: 'https://evil.test' })],
      ['/v1/manifest', { headers: { origin: 'null' } }],
      ['/v1/manifest', { headers: { origin: 'http://api.test:8080' } }],
      ['/v1/manifest', { headers: { origin: 'https://api.test' } }],
    ] as const) {
      const res = await app.request(`${BASE}${path}`, init);
      expect(res.status, `${path} ${JSON.stringify(init.headers)}`).toBe(403);
      expect(await res.json()).toEqual({ error: { code: 'cross_origin', message: expect.any(String) } });
      expect(res.headers.get('access-control-allow-origin')).toBeNull();
    }
    expect(ran).toEqual([]);
  });

  it('refuses a cross-site or same-site request that sends no Origin (an <img>, a <script>, a navigation)', async () => {
    const { app, ran } = appWith({ allowedOrigins: ['https://app.test'] });
    for (const site of ['cross-site', 'same-site', 'Cross-Site']) {
      const res = await app.request(`${BASE}/v1/manifest`, { headers: { 'sec-fetch-site': site } });
      expect(res.status).toBe(403);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe('cross_origin');
    }
    expect(ran).toEqual([]);
  });

  it('has CORS off by default: a preflight from another origin is refused and answers no CORS header', async () => {
    const { app } = appWith();
    const res = await app.request(`${BASE}/v1/echo`, {
      method: 'OPTIONS',
      headers: { origin: 'https://app.test', 'access-control-request-method': 'POST' },
    });
    expect(res.status).toBe(403);
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('answers a listed origin’s preflight before any authentication, with that exact origin', async () => {
    const app = new Hono<{ Variables: PrincipalVariables }>();
    app.use(guard({ allowedOrigins: ['https://app.test', 'http://localhost:3000'] }));
    app.use(requirePrincipal(() => null));
    app.post('/v1/echo', (c) => c.json({}));
    const res = await app.request(`${BASE}/v1/echo`, {
      method: 'OPTIONS',
      headers: { origin: 'https://app.test', 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type' },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('https://app.test');
    expect(res.headers.get('access-control-allow-credentials')).toBe('true');
    expect(res.headers.get('access-control-allow-methods')).toContain('POST');
    const allowHeaders = res.headers.get('access-control-allow-headers')!.split(/,\s*/);
    expect(allowHeaders).toEqual(expect.arrayContaining(['authorization', 'content-type', 'idempotency-key', 'last-event-id', 'mcp-protocol-version']));
    expect(res.headers.get('vary')).toContain('Origin');
    // The real request is authenticated as usual, and its refusal is readable by the listed page.
    const denied = await app.request(`${BASE}/v1/echo`, json({}, { origin: 'http://localhost:3000' }));
    expect(denied.status).toBe(401);
    expect(denied.headers.get('access-control-allow-origin')).toBe('http://localhost:3000');
    expect(denied.headers.get('vary')).toContain('Origin');
  });

  it('gives a listed origin’s responses its exact origin and Vary: Origin, and never a wildcard', async () => {
    const { app, ran } = appWith({ allowedOrigins: ['https://app.test'] });
    const ok = await app.request(`${BASE}/v1/manifest`, { headers: { origin: 'https://app.test' } });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('access-control-allow-origin')).toBe('https://app.test');
    expect(ok.headers.get('vary')).toContain('Origin');
    expect(ran).toEqual(['manifest']);
    for (const origin of ['https://app.test.evil.test', 'https://evil.test', 'http://app.test', 'https://APP.test.']) {
      const res = await app.request(`${BASE}/v1/manifest`, { headers: { origin } });
      expect(res.status, origin).toBe(403);
      expect(res.headers.get('access-control-allow-origin')).toBeNull();
    }
  });

  it('rejects an allowedOrigins entry that is not an origin, saying how to write one', () => {
    expect(() => crossSiteGuard({ allowedOrigins: ['app.test'] })).toThrow(/scheme:\/\/host/);
    expect(() => crossSiteGuard({ allowedOrigins: ['https://app.test/path'] })).toThrow(/"https:\/\/app.test"/);
    expect(() => crossSiteGuard({ allowedOrigins: ['https://app.test/'] })).not.toThrow();
  });
});

describe('the JSON body guard', () => {
  it('refuses a state-changing request that is not application/json with 415, and runs nothing', async () => {
    const { app, ran } = appWith();
    for (const [method, headers, body] of [
      ['POST', { 'content-type': 'text/plain' }, '{"a":1}'],
      ['POST', { 'content-type': 'application/x-www-form-urlencoded' }, 'a=1'],
      ['POST', { 'content-type': 'multipart/form-data; boundary=x' }, '--x--'],
      ['POST', { 'content-type': 'application/vnd.api+json' }, '{}'],
      ['POST', {}, '{"a":1}'],
      ['PUT', { 'content-type': 'text/plain' }, '{}'],
      ['PATCH', {}, undefined],
      ['DELETE', {}, undefined],
    ] as const) {
      const res = await app.request(`${BASE}/mcp`, { method, headers, body });
      expect(res.status, `${method} ${JSON.stringify(headers)}`).toBe(415);
      expect(await res.json()).toEqual({ error: { code: 'unsupported_media_type', message: 'Send the body as application/json.' } });
    }
    expect(ran).toEqual([]);
  });

  it("answers a listed origin's refusals with its CORS headers, so its page can read why (415, 413, 400)", async () => {
    const { app, ran } = appWith({ allowedOrigins: ['https://app.test'], maxBodyBytes: 64, maxDepth: 3 });
    const origin = { origin: 'https://app.test' };
    const refusals = [
      await app.request(`${BASE}/v1/echo`, { method: 'POST', headers: { ...origin, 'content-type': 'text/plain' }, body: '{}' }),
      await app.request(`${BASE}/v1/echo`, json({ text: 'x'.repeat(100) }, origin)),
      await app.request(`${BASE}/v1/echo`, json('[[[[]]]]', origin)),
    ];
    expect(refusals.map((r) => r.status)).toEqual([415, 413, 400]);
    for (const res of refusals) {
      expect(res.headers.get('access-control-allow-origin')).toBe('https://app.test');
      expect(res.headers.get('vary')).toContain('Origin');
    }
    expect(ran).toEqual([]);
  });

  it('takes application/json with parameters, and leaves GET alone', async () => {
    const { app } = appWith();
    const res = await app.request(`${BASE}/v1/echo`, { method: 'POST', headers: { 'content-type': 'Application/JSON; charset=utf-8' }, body: '{"a":1}' });
    expect(res.status).toBe(200);
    expect((await app.request(`${BASE}/v1/manifest`, { headers: { 'content-type': 'text/plain' } })).status).toBe(200);
  });

  it('refuses a body nested deeper than maxDepth with 400 too_deep before the route runs', async () => {
    const { app, ran } = appWith();
    const nest = (n: number) => '['.repeat(n) + ']'.repeat(n);
    const deep = await app.request(`${BASE}/v1/echo`, json(nest(65)));
    expect(deep.status).toBe(400);
    expect(await deep.json()).toEqual({ error: { code: 'too_deep', message: 'The request nests more than 64 levels deep; flatten it.' } });
    expect(ran).toEqual([]);
    expect((await app.request(`${BASE}/v1/echo`, json(nest(64)))).status).toBe(200);

    const { app: strict } = appWith({ maxDepth: 2 });
    const res = await strict.request(`${BASE}/v1/echo`, json({ a: { b: {} } }));
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { message: string } }).error.message).toBe('The request nests more than 2 levels deep; flatten it.');
  });

  it('reads the body once and leaves it to the route (c.req.text(), c.req.json()) with no second Request built', async () => {
    const { app, sent } = appWith();
    const request = new Request(`${BASE}/v1/echo`, json({ hello: 'wörld', list: [1, 2] }));
    sent.push(request);
    const res = await app.fetch(request);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ text: '{"hello":"wörld","list":[1,2]}', json: { hello: 'wörld', list: [1, 2] }, sameRequest: true });
  });

  it('refuses a body longer than the limit from its Content-Length, before reading it', async () => {
    const { app, ran } = appWith({ maxBodyBytes: 16 });
    let pulled = false;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled = true;
        controller.enqueue(new TextEncoder().encode('{"a":1}'));
        controller.close();
      },
    }, { highWaterMark: 0 });
    const headers = { 'content-type': 'application/json', 'content-length': '17' };
    const res = await app.request(`${BASE}/v1/echo`, { method: 'POST', headers, body, duplex: 'half' } as RequestInit);
    expect(res.status).toBe(413);
    expect(pulled).toBe(false);
    expect(ran).toEqual([]);
  });

  it('keeps the body limit, with a JSON 413', async () => {
    const { app, ran } = appWith({ maxBodyBytes: 16 });
    const res = await app.request(`${BASE}/v1/echo`, json({ text: 'more than sixteen bytes' }));
    expect(res.status).toBe(413);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('payload_too_large');
    // Without Content-Length (a streamed body), too.
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{"text":"more than sixteen bytes"}'));
        controller.close();
      },
    });
    const streamed = await app.request(`${BASE}/v1/echo`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: stream, duplex: 'half' } as RequestInit);
    expect(streamed.status).toBe(413);
    expect(ran).toEqual([]);
  });

  it('works on its own too', async () => {
    const app = new Hono();
    app.use(jsonBodyGuard({ maxDepth: 1 }));
    app.post('/x', async (c) => c.json(await c.req.json()));
    expect((await app.request('/x', json({ a: 1 }))).status).toBe(200);
    expect((await app.request('/x', json({ a: [1] }))).status).toBe(400);
  });
});

describe('requirePrincipal', () => {
  it('stores the principal for the routes, or answers 401 with WWW-Authenticate', async () => {
    const app = new Hono<{ Variables: PrincipalVariables }>();
    const seen: Request[] = [];
    app.use(
      requirePrincipal((request): Principal | null => {
        seen.push(request);
        return request.headers.get('authorization') === 'Bearer good-token' ? { user: 'ada', space: 'acme' } : null;
      }),
    );
    app.get('/me', (c) => c.json(c.get('principal')));
    const ok = await app.request('/me', { headers: { authorization: 'Bearer good-token' } });
    expect(await ok.json()).toEqual({ user: 'ada', space: 'acme' });
    const denied = await app.request('/me');
    expect(denied.status).toBe(401);
    expect(denied.headers.get('www-authenticate')).toBe('Bearer');
    expect(((await denied.json()) as { error: { code: string } }).error.code).toBe('unauthorized');
    expect(seen).toHaveLength(2);
  });

  it('awaits an async authenticate', async () => {
    const app = new Hono<{ Variables: PrincipalVariables }>();
    app.use(requirePrincipal(async () => ({ user: 'grace' })));
    app.get('/me', (c) => c.json({ user: c.get('principal').user }));
    expect(await (await app.request('/me')).json()).toEqual({ user: 'grace' });
  });
});
