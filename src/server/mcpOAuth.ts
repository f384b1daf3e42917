import { Hono } from 'hono';
import type * as Jose from 'jose';
import { isMissingModule, MissingPeerError } from '../runtime/peers';
import type { Principal } from '../runtime/principal';
import { errorResponse } from './http';
import { isLoopback } from './hostCheck';
import type { AccessTokenClaims, McpAuthOptions, McpAuthVerdict, McpOAuth } from './mcpAuthOptions';

export type { AccessTokenClaims, McpAuthOptions, McpAuthVerdict, McpOAuth } from './mcpAuthOptions';

/**
 * OAuth 2.1 on the MCP door, as the MCP authorization spec (2025-11-25,
 * 2026-07-28) asks of a resource server: the protected resource metadata
 * (RFC 9728), `WWW-Authenticate` challenges that point at it, and access
 * tokens from the host's authorization server checked with `jose`
 * (signature from the issuer's JWKS, `iss`, `aud` bound to this server's
 * `/mcp` URL as RFC 8707 asks, `exp`/`nbf`, the scopes). `jose` is an
 * optional peer: this module loads it when the option is first used.
 */

const DEFAULT_ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA', 'Ed25519'];
/** How long an unreachable issuer is not asked again (requests meanwhile answer 503). */
const RETRY_MS = 5_000;
const FETCH_TIMEOUT_MS = 5_000;
export const PROTECTED_RESOURCE_PATH = '/.well-known/oauth-protected-resource';

type JoseModule = typeof Jose;
let jose: Promise<JoseModule> | undefined;

/** `jose`, an optional peer, loaded on first use (and kept); missing, it rejects with a `MissingPeerError` naming it. */
export function loadJose(): Promise<JoseModule> {
  jose ??= importJose().catch((error: unknown) => {
    jose = undefined;
    throw error;
  });
  return jose;
}

/** Imports `jose`; a missing package becomes a `MissingPeerError` (which package, and the command that installs it). */
export async function importJose(load: () => Promise<JoseModule> = () => import('jose')): Promise<JoseModule> {
  try {
    return await load();
  } catch (error) {
    throw isMissingModule(error, 'jose') ? new MissingPeerError('jose', error) : error;
  }
}

function absoluteUrl(value: string, what: string): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`mcpAuth: ${what} "${value}" is not a URL; write it in full, e.g. "https://auth.example.com".`);
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLoopback(url.hostname))) {
    throw new Error(`mcpAuth: ${what} "${value}" must be https (plain http only on a loopback host, for development).`);
  }
  if (url.hash || value.includes('#')) throw new Error(`mcpAuth: ${what} "${value}" must not have a fragment.`);
  return url;
}

/** A header parameter's value as RFC 6750 allows it (no quotes, no backslashes, printable ASCII). */
function quoted(text: string): string {
  return `"${text.replace(/[^\x20-\x7e]|["\\]/g, ' ')}"`;
}

/** The issuer's host and path, for the default user id (`alice@auth.example.com`). */
function issuerLabel(issuer: string): string {
  const url = new URL(issuer);
  const path = url.pathname.replace(/\/+$/, '');
  return `${url.host}${path ? encodeURIComponent(path) : ''}`;
}

/** The scopes a token carries: its `scope` string (RFC 9068), or an `scp` array as some servers write it. */
function scopesOf(claims: Record<string, unknown>): string[] {
  if (typeof claims.scope === 'string') return claims.scope.split(' ').filter(Boolean);
  if (Array.isArray(claims.scp)) return claims.scp.filter((s): s is string => typeof s === 'string');
  if (typeof claims.scp === 'string') return claims.scp.split(' ').filter(Boolean);
  return [];
}

/** The bearer token of an `Authorization` header, or null for another scheme. */
function bearerOf(header: string): string | null {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match ? match[1]! : null;
}

/** Where an issuer's metadata may be (RFC 8414 §3.1, then OpenID Connect discovery in both placements), in the MCP spec's order. */
export function metadataUrls(issuer: string): string[] {
  const url = new URL(issuer);
  const path = url.pathname.replace(/\/+$/, '');
  const urls = [`${url.origin}/.well-known/oauth-authorization-server${path}`, `${url.origin}/.well-known/openid-configuration${path}`];
  if (path) urls.push(`${url.origin}${path}/.well-known/openid-configuration`);
  return urls;
}

/** The issuer's JWKS URL, read from its metadata (whose `issuer` must be exactly the one configured). */
async function discoverJwksUri(issuer: string): Promise<string> {
  for (const url of metadataUrls(issuer)) {
    const response = await fetch(url, { headers: { accept: 'application/json' }, signal: AbortSignal.timeout(FETCH_TIMEOUT_MS) });
    if (response.status === 404) continue;
    if (!response.ok) throw new Error(`its metadata at ${url} answered ${response.status}`);
    const metadata = (await response.json()) as { issuer?: unknown; jwks_uri?: unknown };
    if (metadata.issuer !== issuer) throw new Error(`its metadata at ${url} names the issuer ${JSON.stringify(metadata.issuer)}, not "${issuer}"`);
    if (typeof metadata.jwks_uri !== 'string') throw new Error(`its metadata at ${url} has no jwks_uri`);
    return metadata.jwks_uri;
  }
  throw new Error(`it publishes no metadata (looked at ${metadataUrls(issuer).join(', ')}); set mcpAuth.jwksUri`);
}

/** Why the issuer could not be asked: a 503 the client may retry, in words. */
class IssuerUnavailable extends Error {}

/**
 * The verifier behind the `mcpAuth` option. Checks the option at once
 * (https issuer and resource, `jose` installed when awaited through
 * `loadJose`); the issuer's metadata and keys are fetched on the first
 * token and kept (jose refetches the JWKS for a key it does not know, at
 * most every 30 s).
 */
export function createMcpOAuth(options: McpAuthOptions): McpOAuth {
  const issuer = options.issuer;
  absoluteUrl(issuer, 'issuer');
  const configured = options.resource !== undefined ? canonicalResource(options.resource) : null;
  const required = [...(options.requiredScopes ?? [])];
  const supported = [...(options.scopesSupported ?? required)];
  const tolerance = options.clockToleranceSeconds ?? 30;
  const algorithms = [...(options.algorithms ?? DEFAULT_ALGORITHMS)];
  const now = options.now ?? Date.now;
  const principalOf =
    options.principalFromClaims ?? ((claims: AccessTokenClaims, scopes: readonly string[]): Principal => ({ user: `${claims.sub}@${issuerLabel(issuer)}`, scopes }));
  let bound: string | null = null;

  let keys: Promise<Jose.JWTVerifyGetKey> | null = null;
  let failedAt = 0;
  let failure = '';
  const keySet = (): Promise<Jose.JWTVerifyGetKey> => {
    if (!keys && now() - failedAt < RETRY_MS) return Promise.reject(new IssuerUnavailable(failure));
    keys ??= (async () => {
      const { createRemoteJWKSet } = await loadJose();
      const uri = options.jwksUri ?? (await discoverJwksUri(issuer));
      return createRemoteJWKSet(new URL(uri), { timeoutDuration: FETCH_TIMEOUT_MS, cooldownDuration: 30_000 });
    })().catch((error: unknown) => {
      keys = null;
      failedAt = now();
      failure = error instanceof Error ? error.message : String(error);
      throw new IssuerUnavailable(failure);
    });
    return keys;
  };

  const resource = () => configured ?? (bound ? `${bound}/mcp` : null);
  const metadataUrl = (res: string) => {
    const url = new URL(res);
    const path = url.pathname === '/' ? '' : url.pathname;
    return `${url.origin}${PROTECTED_RESOURCE_PATH}${path}`;
  };

  /** The challenge: where the metadata is, the scopes to ask for, and the error when a token was sent. */
  const challenge = (res: string, error?: { code: 'invalid_token' | 'insufficient_scope'; description: string }) => {
    const params = [
      ...(error ? [`error=${quoted(error.code)}`, `error_description=${quoted(error.description)}`] : []),
      `resource_metadata=${quoted(metadataUrl(res))}`,
      ...(required.length ? [`scope=${quoted(required.join(' '))}`] : []),
    ];
    return `Bearer ${params.join(', ')}`;
  };
  const refuse = (res: string, status: 401 | 403, code: string, message: string, error?: 'invalid_token' | 'insufficient_scope'): McpAuthVerdict => ({
    ok: false,
    response: errorResponse(status, code, message, undefined, { 'www-authenticate': challenge(res, error ? { code: error, description: message } : undefined) }),
  });

  /** A token that did not verify, in words. */
  const invalid = (res: string, error: unknown, unverified: Record<string, unknown> | null): McpAuthVerdict =>
    refuse(res, 401, 'invalid_token', whyInvalid(error, unverified, issuer, res), 'invalid_token');

  return {
    issuer,
    get hasResource() {
      return configured !== null;
    },
    bind(origin) {
      bound = origin.replace(/\/+$/, '');
    },
    resource,
    metadata() {
      const res = resource();
      if (!res) throw new Error(RESOURCE_UNKNOWN);
      return {
        resource: res,
        authorization_servers: [issuer],
        ...(supported.length ? { scopes_supported: supported } : {}),
        bearer_methods_supported: ['header'],
      };
    },
    async authorize(request, others) {
      const principal = await others(request);
      if (principal) return { ok: true, principal };
      const res = resource();
      if (!res) return { ok: false, response: errorResponse(500, 'misconfigured', RESOURCE_UNKNOWN) };
      const header = request.headers.get('authorization');
      if (!header) {
        return refuse(res, 401, 'unauthorized', `Send an access token from ${issuer} (its metadata: ${metadataUrl(res)}) or an API key, as "Authorization: Bearer <token>".`);
      }
      const token = bearerOf(header);
      if (!token) return refuse(res, 401, 'invalid_token', 'Send the token as "Authorization: Bearer <token>".', 'invalid_token');
      const { decodeJwt, jwtVerify } = await loadJose();
      let unverified: Record<string, unknown> | null = null;
      try {
        unverified = decodeJwt(token);
      } catch {
        return invalid(res, null, null);
      }
      if (typeof unverified.iss === 'string' && unverified.iss !== issuer) return invalid(res, null, unverified);
      let claims: AccessTokenClaims;
      try {
        const getKey = await keySet();
        const verified = await jwtVerify(token, getKey, {
          issuer,
          audience: res,
          algorithms,
          clockTolerance: tolerance,
          currentDate: new Date(now()),
          requiredClaims: ['exp', 'sub'],
        });
        claims = verified.payload as AccessTokenClaims;
      } catch (error) {
        if (issuerAway(error)) {
          const why = error instanceof Error ? error.message : String(error);
          console.error(`[chatsurface] mcpAuth: could not read the keys of ${issuer}: ${why}`);
          return {
            ok: false,
            response: errorResponse(503, 'issuer_unavailable', `This server could not reach its authorization server (${issuer}) to check the token: ${why}. Try again in a few seconds.`, undefined, {
              'retry-after': String(RETRY_MS / 1000),
            }),
          };
        }
        return invalid(res, error, unverified);
      }
      const scopes = scopesOf(claims);
      const missing = required.filter((scope) => !scopes.includes(scope));
      if (missing.length) {
        return refuse(res, 403, 'insufficient_scope', `The access token lacks the scope ${missing.map((s) => `"${s}"`).join(', ')} this server needs; authorize again with "${required.join(' ')}".`, 'insufficient_scope');
      }
      const who = await principalOf(claims, scopes);
      if (!who) return { ok: false, response: errorResponse(403, 'forbidden', 'The access token is valid, but its subject may not use this server.', undefined, { 'www-authenticate': challenge(res) }) };
      return { ok: true, principal: who, ...(typeof claims.client_id === 'string' ? { clientId: claims.client_id } : {}), expiresAt: claims.exp };
    },
  };
}

/** Why a token did not verify, in words (its `iss` read before the signature is for the words only). */
function whyInvalid(error: unknown, unverified: Record<string, unknown> | null, issuer: string, resource: string): string {
  const code = (error as { code?: string } | null)?.code;
  const claim = (error as { claim?: string } | null)?.claim;
  const otherIssuer = `The access token was not issued by ${issuer}, the authorization server of this server.`;
  if (unverified && typeof unverified.iss === 'string' && unverified.iss !== issuer) return otherIssuer;
  switch (code) {
    case 'ERR_JWT_EXPIRED':
      return 'The access token has expired; get a new one from the authorization server.';
    case 'ERR_JWT_CLAIM_VALIDATION_FAILED':
      if (claim === 'aud') return `The access token is not for this server: its audience must be ${resource}.`;
      if (claim === 'iss') return otherIssuer;
      if (claim === 'nbf') return 'The access token is not valid yet.';
      return `The access token's "${claim}" claim is missing or not valid.`;
    case 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED':
    case 'ERR_JWKS_NO_MATCHING_KEY':
    case 'ERR_JWKS_MULTIPLE_MATCHING_KEYS':
      return `The access token's signature does not verify with the keys of ${issuer}.`;
    case 'ERR_JOSE_ALG_NOT_ALLOWED':
    case 'ERR_JOSE_NOT_SUPPORTED':
      return 'The access token is signed with an algorithm this server does not accept.';
    default:
      return 'The bearer token is neither an API key of this server nor an access token it accepts.';
  }
}

const RESOURCE_UNKNOWN =
  "mcpAuth: this server does not know its own MCP URL yet: it was not started with listen() and mcpAuth.resource is not set. Set mcpAuth.resource to the URL clients reach /mcp at, e.g. 'https://app.example.com/mcp'.";

/** A resource URL as the spec writes it: absolute, no fragment, lowercase scheme and host, no trailing slash. */
function canonicalResource(value: string): string {
  const url = absoluteUrl(value, 'resource');
  const path = url.pathname === '/' ? '' : url.pathname.replace(/\/+$/, '');
  return `${url.protocol}//${url.host}${path}${url.search}`;
}

/**
 * Whether reading the issuer's metadata or keys failed (its trouble, not the token's): discovery,
 * a network failure (fetch's TypeError), a timeout, or a JWKS answer that is not 200 or not a JWKS.
 */
function issuerAway(error: unknown): boolean {
  if (error instanceof IssuerUnavailable) return true;
  if (error instanceof TypeError && /fetch failed/i.test(error.message)) return true;
  const code = (error as { code?: string } | null)?.code;
  return code === 'ERR_JWKS_TIMEOUT' || code === 'ERR_JWKS_INVALID' || code === 'ERR_JOSE_GENERIC';
}

/**
 * `GET /.well-known/oauth-protected-resource` and its form for the MCP
 * endpoint (RFC 9728 §3.1: `/.well-known/oauth-protected-resource/mcp`):
 * public, no cookies, any origin may read it (an MCP client in a browser
 * discovers the authorization server from it).
 */
export function protectedResourceRoutes(oauth: McpOAuth): Hono {
  const app = new Hono();
  const cors = { 'access-control-allow-origin': '*' };
  const served = (path: string) => {
    if (path === '' || path === '/mcp') return true;
    const res = oauth.resource();
    return res !== null && new URL(res).pathname === path;
  };
  const handle = (path: string, method: string): Response => {
    if (!served(path)) return errorResponse(404, 'not_found', 'No such protected resource here.');
    if (method === 'OPTIONS') {
      return new Response(null, { status: 204, headers: { ...cors, 'access-control-allow-methods': 'GET', 'access-control-allow-headers': 'mcp-protocol-version', 'access-control-max-age': '600' } });
    }
    if (method !== 'GET' && method !== 'HEAD') return errorResponse(405, 'method_not_allowed', 'Read the metadata with GET.', undefined, { allow: 'GET' });
    let document: Record<string, unknown>;
    try {
      document = oauth.metadata();
    } catch (error) {
      return errorResponse(500, 'misconfigured', (error as Error).message);
    }
    return Response.json(document, { headers: { ...cors, 'cache-control': 'public, max-age=300' } });
  };
  app.all(PROTECTED_RESOURCE_PATH, (c) => handle('', c.req.method));
  app.all(`${PROTECTED_RESOURCE_PATH}/*`, (c) => handle(c.req.path.slice(PROTECTED_RESOURCE_PATH.length), c.req.method));
  return app;
}
