import { describe, expect, it } from 'vitest';
import type { Authenticate } from '../runtime/principal';
import { createMemorySessionStore, type SessionRecord, type SessionStore } from '../runtime/stores/sessionStore';
import { anyOf, bearerKeys, BEARER_CACHE_MS, cachedBearer, endSession, hashSessionToken, issueSession, readCookie, sessionCookie } from './authenticators';

const withHeaders = (headers: Record<string, string>, url = 'http://127.0.0.1:5173/v1/manifest') => new Request(url, { headers });
const bearer = (key: string) => withHeaders({ authorization: `Bearer ${key}` });

/** A store that records what it was asked to keep. */
function spyStore(): SessionStore & { created: SessionRecord[] } {
  const inner = createMemorySessionStore();
  const created: SessionRecord[] = [];
  return {
    created,
    create(record) {
      created.push(structuredClone(record));
      return inner.create(record);
    },
    get: (h) => inner.get(h),
    touch: (h, e) => inner.touch(h, e),
    delete: (h) => inner.delete(h),
  };
}

describe('cachedBearer', () => {
  /** A host's key table: a key can be revoked; every lookup is counted. */
  function revocableKeys() {
    const live = new Map([['live-key-0123456789', { user: 'ci' }]]);
    let lookups = 0;
    const authenticate: Authenticate = (request) => {
      lookups++;
      const token = request.headers.get('authorization')?.replace(/^Bearer /, '') ?? '';
      return live.get(token) ?? null;
    };
    return { live, authenticate, lookups: () => lookups };
  }

  it('looks a key up once while its principal is kept, and a revoked key stops working once the cache time has passed', async () => {
    let t = 1_000_000;
    const keys = revocableKeys();
    const authenticate = cachedBearer(keys.authenticate, { now: () => t });
    expect(await authenticate(bearer('live-key-0123456789'))).toEqual({ user: 'ci' });
    expect(await authenticate(bearer('live-key-0123456789'))).toEqual({ user: 'ci' });
    expect(keys.lookups()).toBe(1);

    keys.live.delete('live-key-0123456789');
    t += BEARER_CACHE_MS - 1;
    // Within the documented time the kept principal still answers…
    expect(await authenticate(bearer('live-key-0123456789'))).toEqual({ user: 'ci' });
    t += 1;
    // …and from then on the key is refused.
    expect(await authenticate(bearer('live-key-0123456789'))).toBeNull();
    expect(await authenticate(bearer('live-key-0123456789'))).toBeNull();
    expect(keys.lookups()).toBe(3);
  });

  it('keeps no wrong key and no request without one: each is asked again', async () => {
    const keys = revocableKeys();
    const authenticate = cachedBearer(keys.authenticate);
    expect(await authenticate(bearer('wrong-key-0123456789'))).toBeNull();
    expect(await authenticate(bearer('wrong-key-0123456789'))).toBeNull();
    expect(await authenticate(withHeaders({}))).toBeNull();
    expect(keys.lookups()).toBe(3);
    // A key added afterwards works at once: the refusal was not kept.
    keys.live.set('wrong-key-0123456789', { user: 'new' });
    expect(await authenticate(bearer('wrong-key-0123456789'))).toEqual({ user: 'new' });
  });

  it('with cacheMs 0 looks every request up', async () => {
    const keys = revocableKeys();
    const authenticate = cachedBearer(keys.authenticate, { cacheMs: 0 });
    await authenticate(bearer('live-key-0123456789'));
    await authenticate(bearer('live-key-0123456789'));
    expect(keys.lookups()).toBe(2);
  });

  it('keeps at most cacheEntries keys, dropping the least recently used', async () => {
    const keys = revocableKeys();
    keys.live.set('other-key-0123456789', { user: 'other' });
    const authenticate = cachedBearer(keys.authenticate, { cacheEntries: 1 });
    await authenticate(bearer('live-key-0123456789'));
    await authenticate(bearer('other-key-0123456789'));
    await authenticate(bearer('live-key-0123456789'));
    expect(keys.lookups()).toBe(3);
  });
});

describe('bearerKeys', () => {
  const keys = bearerKeys([{ id: 'ci', key: 'ci-secret-key-123', budget: 5, requestsPerMinute: 10 }, 'plain-string-key']);

  it('names the key’s id as the user, with its budget and rate', async () => {
    expect(await keys(bearer('ci-secret-key-123'))).toEqual({ user: 'ci', budget: 5, requestsPerMinute: 10 });
    expect(await keys(bearer('plain-string-key'))).toEqual({ user: 'key-2' });
  });

  it('answers null for a wrong, missing or malformed Authorization header', async () => {
    expect(await keys(bearer('ci-secret-key-124'))).toBeNull();
    expect(await keys(withHeaders({}))).toBeNull();
    expect(await keys(withHeaders({ authorization: 'Basic Y2k6c2VjcmV0' }))).toBeNull();
    expect(await keys(withHeaders({ authorization: 'ci-secret-key-123' }))).toBeNull();
  });

  it('with no keys, nobody gets in', async () => {
    expect(await bearerKeys([])(bearer('anything-at-all'))).toBeNull();
  });

  it('refuses a key too short to be a secret when configured', () => {
    expect(() => bearerKeys(['short'])).toThrow(/too short/);
  });
});

describe('sessions', () => {
  it('issues an anonymous user with a random token, storing only its SHA-256, and a strict cookie', async () => {
    const sessions = spyStore();
    const request = withHeaders({}, 'http://127.0.0.1:5173/');
    const a = await issueSession(request, { sessions });
    const b = await issueSession(request, { sessions });
    expect(a.principal.user).toMatch(/^guest-[0-9a-f]{16}$/);
    expect(b.principal.user).not.toBe(a.principal.user);
    expect(a.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(a.token).not.toBe(b.token);
    expect(a.setCookie).toBe(`cs_session=${a.token}; HttpOnly; SameSite=Lax; Path=/; Max-Age=2592000`);
    // Only the hash is stored, never the token.
    expect(sessions.created[0]!.tokenHash).toBe(await hashSessionToken(a.token));
    expect(JSON.stringify(sessions.created)).not.toContain(a.token);
    expect(sessions.created[0]!.expiresAt - sessions.created[0]!.createdAt).toBe(2_592_000_000);
  });

  it('over https the cookie is Secure and __Host- prefixed, and honours a name, a lifetime and a principal', async () => {
    const sessions = createMemorySessionStore();
    const issued = await issueSession(new Request('https://app.example.com/'), {
      sessions,
      cookie: 'sid',
      maxAgeSeconds: 3600,
      principal: { user: 'ada', space: 'acme' },
    });
    expect(issued.setCookie).toBe(`__Host-sid=${issued.token}; HttpOnly; SameSite=Lax; Path=/; Max-Age=3600; Secure`);
    const https = (cookie: string) => withHeaders({ cookie }, 'https://app.example.com/v1/manifest');
    expect(await sessionCookie({ sessions, cookie: 'sid' })(https(`__Host-sid=${issued.token}`))).toEqual({ user: 'ada', space: 'acme' });
    // Over https the unprefixed cookie is not read: another port or subdomain of the host could have set it.
    expect(await sessionCookie({ sessions, cookie: 'sid' })(https(`sid=${issued.token}`))).toBeNull();
  });

  it('believes X-Forwarded-Proto only behind a proxy the host trusts', async () => {
    const sessions = createMemorySessionStore();
    const proxied = new Request('http://10.0.0.5:8787/', { headers: { 'x-forwarded-proto': 'https' } });
    expect((await issueSession(proxied, { sessions })).setCookie).toMatch(/^cs_session=[^;]+; HttpOnly; SameSite=Lax; Path=\/; Max-Age=\d+$/);
    const trusted = await issueSession(proxied, { sessions, trustProxy: true });
    expect(trusted.setCookie).toMatch(/^__Host-cs_session=[^;]+; HttpOnly; SameSite=Lax; Path=\/; Max-Age=\d+; Secure$/);
    const behind = (cookie: string) => withHeaders({ cookie, 'x-forwarded-proto': 'https' }, 'http://10.0.0.5:8787/v1/manifest');
    expect(await sessionCookie({ sessions, trustProxy: true })(behind(`__Host-cs_session=${trusted.token}`))).toEqual(trusted.principal);
    expect(await sessionCookie({ sessions, trustProxy: true })(behind(`cs_session=${trusted.token}`))).toBeNull();
    expect(await endSession(behind(`__Host-cs_session=${trusted.token}`), { sessions, trustProxy: true })).toBe('__Host-cs_session=; HttpOnly; SameSite=Lax; Path=/; Max-Age=0; Secure');
  });

  it('signing in ends the session the browser had: a token planted before sign-in is worth nothing after it', async () => {
    const sessions = createMemorySessionStore();
    const authenticate = sessionCookie({ sessions });
    const planted = await issueSession(new Request('http://localhost/'), { sessions });
    const before = withHeaders({ cookie: `cs_session=${planted.token}` });
    expect(await authenticate(before)).toEqual(planted.principal);
    const signedIn = await issueSession(new Request('http://localhost/login', { headers: { cookie: `cs_session=${planted.token}` } }), { sessions, principal: { user: 'ada' } });
    expect(await authenticate(before)).toBeNull();
    expect(await authenticate(withHeaders({ cookie: `cs_session=${signedIn.token}` }))).toEqual({ user: 'ada' });
  });

  it('reads the session back from the cookie, among other cookies', async () => {
    const sessions = createMemorySessionStore();
    const { token, principal } = await issueSession(new Request('http://localhost/'), { sessions });
    const authenticate = sessionCookie({ sessions });
    expect(await authenticate(withHeaders({ cookie: `theme=dark; cs_session=${token}; other=1` }))).toEqual(principal);
  });

  it('answers null without a cookie, for an unknown or malformed token, and after expiry or sign-out', async () => {
    let time = 1_000_000;
    const sessions = createMemorySessionStore({ now: () => time });
    const authenticate = sessionCookie({ sessions });
    const { token } = await issueSession(new Request('http://localhost/'), { sessions, maxAgeSeconds: 60, now: () => time });
    expect(await authenticate(withHeaders({}))).toBeNull();
    expect(await authenticate(withHeaders({ cookie: 'cs_session=' }))).toBeNull();
    expect(await authenticate(withHeaders({ cookie: `cs_session=${'A'.repeat(43)}` }))).toBeNull();
    expect(await authenticate(withHeaders({ cookie: `cs_session=${token}x` }))).toBeNull();
    expect(await authenticate(withHeaders({ cookie: `other_session=${token}` }))).toBeNull();
    const cookie = { cookie: `cs_session=${token}` };
    expect(await authenticate(withHeaders(cookie))).not.toBeNull();
    time += 60_000;
    expect(await authenticate(withHeaders(cookie))).toBeNull();

    const again = await issueSession(new Request('http://localhost/'), { sessions });
    const signedIn = withHeaders({ cookie: `cs_session=${again.token}` });
    expect(await authenticate(signedIn)).not.toBeNull();
    expect(await endSession(signedIn, { sessions })).toBe('cs_session=; HttpOnly; SameSite=Lax; Path=/; Max-Age=0');
    expect(await authenticate(signedIn)).toBeNull();
  });

  it('reads cookies', () => {
    expect(readCookie('a=1; b=2', 'b')).toBe('2');
    expect(readCookie('ab=1', 'b')).toBeNull();
    expect(readCookie(null, 'b')).toBeNull();
  });
});

describe('anyOf', () => {
  it('takes the first authenticator that names someone, awaiting each in turn', async () => {
    const seen: string[] = [];
    const nobody: Authenticate = () => {
      seen.push('nobody');
      return null;
    };
    const ada: Authenticate = async () => {
      seen.push('ada');
      return { user: 'ada' };
    };
    const grace: Authenticate = () => {
      seen.push('grace');
      return { user: 'grace' };
    };
    expect(await anyOf(nobody, ada, grace)(withHeaders({}))).toEqual({ user: 'ada' });
    expect(seen).toEqual(['nobody', 'ada']);
    expect(await anyOf(nobody)(withHeaders({}))).toBeNull();
    expect(await anyOf()(withHeaders({}))).toBeNull();
  });

  it('combines a session cookie with API keys', async () => {
    const sessions = createMemorySessionStore();
    const authenticate = anyOf(sessionCookie({ sessions }), bearerKeys([{ id: 'demo', key: 'demo-key-123456' }]));
    const { token, principal } = await issueSession(new Request('http://localhost/'), { sessions });
    expect(await authenticate(withHeaders({ cookie: `cs_session=${token}` }))).toEqual(principal);
    expect(await authenticate(bearer('demo-key-123456'))).toEqual({ user: 'demo' });
    expect(await authenticate(withHeaders({}))).toBeNull();
  });
});
