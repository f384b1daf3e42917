import { bearerToken, keyAuthenticator, type ApiKey, type Digest } from '../runtime/doors/apiKeys';
import type { Authenticate, Principal } from '../runtime/principal';
import type { SessionStore } from '../runtime/stores/sessionStore';

/**
 * Building blocks for the server's `authenticate(request)` hook: API keys
 * (`Authorization: Bearer`), a session cookie, and `anyOf` to combine them.
 * Web Crypto only, so they run wherever `Request` does.
 * @example
 * const sessions = createSqliteSessionStore('data/sessions.db');
 * const authenticate = anyOf(sessionCookie({ sessions }), bearerKeys([{ id: 'ci', key: process.env.CI_KEY! }]));
 */

/** The session cookie's default name. */
export const SESSION_COOKIE = 'cs_session';
/** How long an issued session lives by default: 30 days. */
export const SESSION_MAX_AGE_SECONDS = 30 * 24 * 60 * 60;

/**
 * `Authorization: Bearer <key>` checked against configured keys (hashed,
 * compared in constant time, every key looked at). A key's principal is
 * `{ user: <key id>, space?, scopes?, budget?, requestsPerMinute? }`; a
 * plain string key is `key-1`, `key-2`, … A key's principal is kept for
 * `cacheMs` (5 s) after it is checked (see `cachedBearer`).
 * @example
 * bearerKeys([{ id: 'demo', key: process.env.DEMO_API_KEY!, budget: 100 }]);
 */
export function bearerKeys(keys: readonly (ApiKey | string)[], options: { digest?: Digest } & CachedBearerOptions = {}): Authenticate {
  const check = keyAuthenticator(keys, options);
  return cachedBearer((request) => check(bearerToken(request.headers.get('authorization'))), options);
}

/** How long a bearer key's principal is kept, by default: 5 s. */
export const BEARER_CACHE_MS = 5_000;

export interface CachedBearerOptions {
  /**
   * How long a key's principal is kept after it was looked up: a revoked key
   * still works for at most this long. 0 looks every request up. @default 5000
   */
  cacheMs?: number;
  /** Keys kept at most (the least recently looked up go first). @default 1000 */
  cacheEntries?: number;
  /** The clock, in epoch ms. @default Date.now */
  now?: () => number;
}

/**
 * `authenticate` with the principal of each `Authorization: Bearer` key kept
 * for `cacheMs` (5 s by default), so a busy client's key is hashed and looked
 * up once in that time, not on every request. Only a key that names a
 * principal is kept: a wrong key is looked up every time, and a request
 * without a bearer key always goes to `authenticate`. A key the host revokes
 * stops working within `cacheMs`. `bearerKeys` already does this.
 * @example
 * const authenticate = cachedBearer(async (request) => lookUpKey(bearerToken(request)), { cacheMs: 5_000 });
 */
export function cachedBearer(authenticate: Authenticate, options: CachedBearerOptions = {}): Authenticate {
  const { cacheMs = BEARER_CACHE_MS, cacheEntries = 1_000, now = Date.now } = options;
  if (!(cacheMs > 0)) return authenticate;
  const kept = new Map<string, { principal: Principal; until: number }>();
  /** The key used last: already last in `kept`, nothing to move (a busy client sends the same key again and again). */
  let last: string | null = null;
  return async (request) => {
    const header = request.headers.get('authorization');
    if (!header) return authenticate(request);
    const t = now();
    const hit = kept.get(header);
    if (hit && hit.until > t) {
      // Most recently used last: the oldest go first past `cacheEntries`.
      if (header !== last) {
        kept.delete(header);
        kept.set(header, hit);
        last = header;
      }
      return hit.principal;
    }
    kept.delete(header);
    if (last === header) last = null;
    const principal = await authenticate(request);
    if (principal) {
      kept.set(header, { principal, until: t + cacheMs });
      last = header;
      if (kept.size > cacheEntries) kept.delete(kept.keys().next().value!);
    }
    return principal;
  };
}

export interface SessionCookieOptions {
  /** Where sessions are looked up. */
  sessions: SessionStore;
  /** The cookie's name; over HTTPS it carries the `__Host-` prefix (`__Host-cs_session`). @default 'cs_session' */
  cookie?: string;
  /**
   * Believe the `X-Forwarded-Proto` header about HTTPS: only behind a proxy
   * the host runs, which sets it (a client could send it too). @default false
   */
  trustProxy?: boolean;
}

/**
 * The session named by the request's cookie (see `issueSession`): its
 * principal, or null when there is no cookie or the session is unknown or expired.
 * Over HTTPS only the `__Host-` cookie counts: one that a page of another
 * subdomain, or a plain-http server on another port of the same host, could
 * set is not read.
 */
export function sessionCookie({ sessions, cookie = SESSION_COOKIE, trustProxy = false }: SessionCookieOptions): Authenticate {
  return async (request) => {
    const token = readCookie(request.headers.get('cookie'), cookieName(cookie, isSecure(request, trustProxy)));
    if (!token || !TOKEN.test(token)) return null;
    const record = await sessions.get(await hashSessionToken(token));
    return record ? record.principal : null;
  };
}

/** The first authenticator that names a principal wins; null when none does. */
export function anyOf(...authenticators: readonly Authenticate[]): Authenticate {
  return async (request) => {
    for (const authenticate of authenticators) {
      const principal = await authenticate(request);
      if (principal) return principal;
    }
    return null;
  };
}

export interface IssueSessionOptions {
  /** Where the session is stored (only the token's SHA-256). */
  sessions: SessionStore;
  /** Who the session signs in. @default a new anonymous user, `guest-<random>` */
  principal?: Principal;
  /** The cookie's name; over HTTPS it carries the `__Host-` prefix (`__Host-cs_session`). @default 'cs_session' */
  cookie?: string;
  /** Believe `X-Forwarded-Proto` about HTTPS (behind a proxy the host runs). @default false */
  trustProxy?: boolean;
  /** Lifetime of the session and the cookie. @default 30 days */
  maxAgeSeconds?: number;
  /** The clock, in epoch ms. @default Date.now */
  now?: () => number;
}

/** A new session: who it signs in, the token (secret: only the cookie carries it) and the `Set-Cookie` value. */
export interface IssuedSession {
  principal: Principal;
  token: string;
  setCookie: string;
}

/**
 * Signs a browser in: stores a new session (token = 32 random bytes,
 * base64url; the store keeps its SHA-256 only) and returns the `Set-Cookie`
 * value: `HttpOnly; SameSite=Lax; Path=/; Max-Age=…`. Over HTTPS (the
 * request's URL, or `X-Forwarded-Proto` with `trustProxy`) the cookie is
 * `Secure` and named `__Host-<cookie>`, which only this host, over HTTPS,
 * can set. The session the request's cookie named before, if any, ends: a
 * token planted in the browser before sign-in is worth nothing after it.
 * @example
 * const { setCookie } = await issueSession(request, { sessions });
 * return new Response(html, { headers: { 'set-cookie': setCookie } });
 */
export async function issueSession(request: Request | { url: string }, options: IssueSessionOptions): Promise<IssuedSession> {
  const { sessions, cookie = SESSION_COOKIE, maxAgeSeconds = SESSION_MAX_AGE_SECONDS, now = Date.now, trustProxy = false } = options;
  if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(cookie)) throw new Error(`"${cookie}" is not a valid cookie name.`);
  const secure = isSecure(request, trustProxy);
  const name = cookieName(cookie, secure);
  // Rotation: the session this browser had (a guest's, or one planted before sign-in) ends here.
  const before = 'headers' in request ? readCookie(request.headers.get('cookie'), name) : null;
  if (before && TOKEN.test(before)) await sessions.delete(await hashSessionToken(before));
  const principal = options.principal ?? { user: `guest-${hex(randomBytes(8))}` };
  const token = base64url(randomBytes(32));
  const createdAt = now();
  await sessions.create({ tokenHash: await hashSessionToken(token), principal, createdAt, expiresAt: createdAt + maxAgeSeconds * 1000 });
  const setCookie = `${name}=${token}; HttpOnly; SameSite=Lax; Path=/; Max-Age=${Math.floor(maxAgeSeconds)}${secure ? '; Secure' : ''}`;
  return { principal, token, setCookie };
}

/**
 * Signs a browser out: forgets the session its cookie names and returns the
 * `Set-Cookie` value that clears the cookie.
 */
export async function endSession(request: Request, { sessions, cookie = SESSION_COOKIE, trustProxy = false }: SessionCookieOptions): Promise<string> {
  const secure = isSecure(request, trustProxy);
  const name = cookieName(cookie, secure);
  const token = readCookie(request.headers.get('cookie'), name);
  if (token && TOKEN.test(token)) await sessions.delete(await hashSessionToken(token));
  return `${name}=; HttpOnly; SameSite=Lax; Path=/; Max-Age=0${secure ? '; Secure' : ''}`;
}

/** Whether a request reached the app over HTTPS: its URL says so, or, behind a proxy the host trusts, `X-Forwarded-Proto`. */
function isSecure(request: Request | { url: string }, trustProxy: boolean): boolean {
  if (new URL(request.url).protocol === 'https:') return true;
  if (!trustProxy || !('headers' in request)) return false;
  return request.headers.get('x-forwarded-proto')?.split(',')[0]?.trim().toLowerCase() === 'https';
}

/** The cookie's name on this request: `__Host-` prefixed over HTTPS (unless the host named it with a prefix already). */
function cookieName(cookie: string, secure: boolean): string {
  return secure && !/^__(Host|Secure)-/.test(cookie) ? `__Host-${cookie}` : cookie;
}

/** The SHA-256 of a session token, base64url: what a SessionStore keys sessions by. */
export async function hashSessionToken(token: string): Promise<string> {
  return base64url(new Uint8Array(await globalThis.crypto.subtle.digest('SHA-256', new TextEncoder().encode(token))));
}

/** A cookie's value from a `Cookie` header, or null. */
export function readCookie(header: string | null | undefined, name: string): string | null {
  if (!header) return null;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq === -1) continue;
    if (part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return null;
}

/** What an issued token looks like (32 bytes, base64url); anything else is not looked up. */
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

function randomBytes(n: number): Uint8Array {
  return globalThis.crypto.getRandomValues(new Uint8Array(n));
}

function hex(bytes: Uint8Array): string {
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

function base64url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}
