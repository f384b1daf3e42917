import type { Context, MiddlewareHandler } from 'hono';
import type { Authenticate, Principal } from '../runtime/principal';
import { errorResponse } from './http';

/**
 * The server's front door, as Hono middleware, in this order:
 *
 * 1. `crossSiteGuard`: CORS is off unless the host lists origins; a request
 *    from any other site is refused (403 `cross_origin`) on every route.
 * 2. `jsonBodyGuard`: state-changing requests send `application/json` (415
 *    otherwise: form and `text/plain` posts are how CSRF arrives) and nest at
 *    most `maxDepth` levels (400 `too_deep`), checked before anything runs.
 * 3. `requirePrincipal`: `authenticate(request)` names the caller (401 otherwise).
 *
 * `guard(options)` is 1, the body limit (413 `payload_too_large`) and 2, in
 * that order, so a listed origin can read every refusal. Mount it before
 * every route. The body limit reads the `Content-Length` header (a body sent
 * without one is counted as it arrives) and the body is read once, as text.
 * (Mounting the pieces yourself: `jsonBodyGuard` reads the body, so put it
 * after your body limit.)
 * @example
 * app.use(guard({ allowedOrigins: ['https://app.example.com'], maxBodyBytes: 65536 }));
 * app.use('/v1/*', requirePrincipal(authenticate));
 */

export interface CrossSiteGuardOptions {
  /**
   * Other origins (scheme://host[:port], exact match) whose pages may call this
   * server with credentials. Each gets CORS answers; every other origin gets 403.
   * @default [] (CORS off: only the server's own origin)
   */
  allowedOrigins?: readonly string[];
}

export interface JsonBodyGuardOptions {
  /** Deepest nesting of arrays and objects a JSON body may have. @default 64 */
  maxDepth?: number;
}

export interface GuardOptions extends CrossSiteGuardOptions, JsonBodyGuardOptions {
  /** Largest request body in bytes (413 `payload_too_large` beyond). @default 65536 */
  maxBodyBytes?: number;
}

/** Methods that change state: JSON bodies only. */
const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const ALLOW_METHODS = 'GET, POST, PUT, PATCH, DELETE, OPTIONS';
const ALLOW_HEADERS = 'authorization, content-type, idempotency-key, last-event-id, mcp-protocol-version, mcp-session-id';
const EXPOSE_HEADERS = 'x-job-id, location, retry-after, www-authenticate, mcp-session-id';

/** The origins a request may come from without CORS: its URL's, and the one its `Host` header names. */
function ownOrigins(c: Context): Set<string> {
  const url = new URL(c.req.url);
  const own = new Set([url.origin]);
  const host = c.req.header('host');
  if (host) own.add(`${url.protocol}//${host.toLowerCase()}`);
  return own;
}

const crossOrigin = (origin: string | null) =>
  errorResponse(
    403,
    'cross_origin',
    origin === null
      ? 'This server does not answer requests sent from another site.'
      : `This server does not answer requests from ${origin === 'null' ? 'an opaque origin' : origin}; its host can list origins in allowedOrigins.`,
  );

/** Adds the CORS answer for a listed origin to a response (rebuilding it when its headers are immutable). */
function withCors(response: Response, origin: string): Response {
  let res = response;
  try {
    res.headers.set('access-control-allow-origin', origin);
  } catch {
    res = new Response(response.body, response);
    res.headers.set('access-control-allow-origin', origin);
  }
  res.headers.set('access-control-allow-credentials', 'true');
  res.headers.set('access-control-expose-headers', EXPOSE_HEADERS);
  res.headers.append('vary', 'Origin');
  return res;
}

/**
 * Refuses cross-site requests on every route (GET and `/mcp` included) and
 * answers CORS for the listed origins only.
 *
 * - `Origin` present: it must be the server's own origin (the request URL's,
 *   or `Host` with the URL's scheme) or listed; `Origin: null` is refused.
 * - No `Origin`: `Sec-Fetch-Site: cross-site | same-site` (an `<img>`,
 *   `<script>` or navigation from another site) is refused.
 * - A preflight (`OPTIONS` with `Access-Control-Request-Method`) from a
 *   listed origin is answered 204 before any authentication; responses to a
 *   listed origin carry `Access-Control-Allow-Origin: <that origin>` and
 *   `Vary: Origin`. Never a wildcard, never an unlisted origin echoed.
 */
export function crossSiteGuard(options: CrossSiteGuardOptions = {}): MiddlewareHandler {
  const allowed = allowedOrigins(options);
  return async (c, next) => {
    const verdict = crossSiteVerdict(c, allowed);
    if (verdict instanceof Response) return verdict;
    await next();
    if (verdict !== null) withCorsOn(c, verdict);
    return undefined;
  };
}

const allowedOrigins = (options: CrossSiteGuardOptions) => new Set((options.allowedOrigins ?? []).map(normalizeOrigin));

/** The cross-site rule for one request: its refusal or preflight answer, the listed origin its answer carries CORS for, or null (its own site). */
function crossSiteVerdict(c: Context, allowed: ReadonlySet<string>): Response | string | null {
  const origin = c.req.header('origin') ?? null;
  if (origin === null) {
    const site = c.req.header('sec-fetch-site')?.toLowerCase();
    return site === 'cross-site' || site === 'same-site' ? crossOrigin(null) : null;
  }
  const listed = origin !== 'null' && allowed.has(origin);
  if (!listed) return ownOrigins(c).has(origin) ? null : crossOrigin(origin);
  if (c.req.method === 'OPTIONS' && c.req.header('access-control-request-method')) {
    return withCors(
      new Response(null, {
        status: 204,
        headers: { 'access-control-allow-methods': ALLOW_METHODS, 'access-control-allow-headers': ALLOW_HEADERS, 'access-control-max-age': '600' },
      }),
      origin,
    );
  }
  return origin;
}

/** The listed origin's CORS answer on the response the route gave. */
function withCorsOn(c: Context, origin: string): void {
  const res = withCors(c.res, origin);
  if (res !== c.res) c.res = res;
}

function normalizeOrigin(origin: string): string {
  let parsed: URL;
  try {
    parsed = new URL(origin);
  } catch {
    throw new Error(`allowedOrigins: "${origin}" is not an origin; write it as scheme://host[:port], e.g. "https://app.example.com".`);
  }
  if (parsed.origin === 'null' || parsed.origin !== origin.replace(/\/$/, '')) {
    throw new Error(`allowedOrigins: "${origin}" is not an origin; write it as scheme://host[:port] with no path, e.g. "${parsed.origin === 'null' ? 'https://app.example.com' : parsed.origin}".`);
  }
  return parsed.origin;
}

/**
 * True when JSON text nests arrays and objects more than `max` levels deep.
 * Scans the raw text (brackets outside strings, escapes honoured) without
 * parsing, so a hostile body costs one linear pass and no recursion.
 * @example
 * jsonDepthExceeds('[[1]]', 1); // → true
 */
export function jsonDepthExceeds(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (inString) {
      if (ch === 0x5c /* \ */) i++;
      else if (ch === 0x22 /* " */) inString = false;
    } else if (ch === 0x22) inString = true;
    else if (ch === 0x5b /* [ */ || ch === 0x7b /* { */) {
      if (++depth > max) return true;
    } else if (ch === 0x5d /* ] */ || ch === 0x7d /* } */) depth--;
  }
  return false;
}

/** True for `application/json`, with or without parameters (`; charset=utf-8`). */
function isJson(contentType: string | undefined): boolean {
  return contentType?.split(';')[0]!.trim().toLowerCase() === 'application/json';
}

/**
 * State-changing requests (POST, PUT, PATCH, DELETE) must send
 * `Content-Type: application/json` (415 `unsupported_media_type` otherwise)
 * and a body nested at most `maxDepth` deep (400 `too_deep`); nothing after
 * it runs for a refused request. The body is read once here, as text, and
 * kept by Hono: routes read it with `c.req.text()` or `c.req.json()`. No
 * second `Request` is built for it, so `c.req.raw`'s own body has been read.
 */
export function jsonBodyGuard(options: JsonBodyGuardOptions = {}): MiddlewareHandler {
  return bodyGuard(Infinity, options.maxDepth ?? 64);
}

/** The body limit and the JSON checks in one step: the header's length first, then one text read. */
function bodyGuard(maxSize: number, maxDepth: number): MiddlewareHandler {
  const check = bodyCheck(maxSize, maxDepth);
  return async (c, next) => {
    const refused = await check(c);
    if (refused) return refused;
    await next();
    return undefined;
  };
}

/** The body limit and the JSON checks as a function: the refusal, or null when the request may go on. */
function bodyCheck(maxSize: number, maxDepth: number): (c: Context) => Response | Promise<Response | null> | null {
  const tooLarge = () => errorResponse(413, 'payload_too_large', `The request body is larger than ${maxSize} bytes.`);
  const tooDeep = () => errorResponse(400, 'too_deep', `The request nests more than ${maxDepth} levels deep; flatten it.`);
  const check = async (c: Context, known: boolean, length: string | undefined): Promise<Response | null> => {
    // A body sent without a length (chunked, HTTP/2) is counted as it arrives; its text is then what Hono keeps.
    if (!known && !(await readWithin(c, maxSize))) return tooLarge();
    if (!STATE_CHANGING.has(c.req.method)) return null;
    if (!isJson(c.req.header('content-type'))) return errorResponse(415, 'unsupported_media_type', 'Send the body as application/json.');
    if ((!known || length !== '0') && jsonDepthExceeds(await c.req.text(), maxDepth)) return tooDeep();
    return null;
  };
  return (c) => {
    const method = c.req.method;
    if (method === 'GET' || method === 'HEAD') return null;
    const length = c.req.header('content-length');
    const known = length !== undefined && c.req.header('transfer-encoding') === undefined;
    if (known && Number.parseInt(length, 10) > maxSize) return tooLarge();
    return check(c, known, length);
  };
}

/** Reads a body sent without a length, refusing it past `maxSize` bytes; what was read is what `c.req.text()` gives. */
async function readWithin(c: Context, maxSize: number): Promise<boolean> {
  const body = c.req.raw.body;
  if (!body) {
    keepText(c, '');
    return true;
  }
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let size = 0;
  let text = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxSize) {
      await reader.cancel().catch(() => undefined);
      return false;
    }
    text += decoder.decode(value, { stream: true });
  }
  text += decoder.decode();
  keepText(c, text);
  return true;
}

/** Leaves the text for `c.req.text()` / `c.req.json()`, as Hono keeps a body it read (a promise, whatever its type says). */
function keepText(c: Context, text: string): void {
  (c.req.bodyCache as { text?: Promise<string> }).text = Promise.resolve(text);
}

/**
 * `crossSiteGuard`, the body limit, then `jsonBodyGuard`: what every route of the server sits
 * behind, as one middleware (a refusal of the body checks carries a listed origin's CORS answer too).
 */
export function guard(options: GuardOptions = {}): MiddlewareHandler {
  const allowed = allowedOrigins(options);
  const body = bodyCheck(options.maxBodyBytes ?? 65_536, options.maxDepth ?? 64);
  return async (c, next) => {
    const verdict = crossSiteVerdict(c, allowed);
    if (verdict instanceof Response) return verdict;
    const checked = body(c);
    const refused = checked === null || checked instanceof Response ? checked : await checked;
    if (refused) return verdict === null ? refused : withCors(refused, verdict);
    await next();
    if (verdict !== null) withCorsOn(c, verdict);
    return undefined;
  };
}

/** The Hono variables `requirePrincipal` sets. */
export interface PrincipalVariables {
  principal: Principal;
}

/**
 * Runs `authenticate(c.req.raw)` and stores the principal as
 * `c.get('principal')`; 401 `unauthorized` (with `WWW-Authenticate: Bearer`)
 * when it answers null. Preflights never reach it (the cross-site guard answers them).
 */
export function requirePrincipal(
  authenticate: Authenticate,
  /** What the 401 says. */
  message = 'Sign in, or send an API key as Authorization: Bearer <key>.',
): MiddlewareHandler<{ Variables: PrincipalVariables }> {
  return async (c, next) => {
    const principal = await authenticate(c.req.raw);
    if (!principal) {
      return errorResponse(401, 'unauthorized', message, undefined, { 'www-authenticate': 'Bearer' });
    }
    c.set('principal', principal);
    await next();
  };
}
