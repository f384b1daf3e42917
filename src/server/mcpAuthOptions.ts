import type { Principal } from '../runtime/principal';

// The types of the `mcpAuth` option and its verifier, apart from `mcpOAuth.ts`, so the published
// declarations of `createWorkspaceServer` never name the optional peer `jose`.

/** The `mcpAuth` option of `createWorkspaceServer`: who issues the access tokens `/mcp` accepts beside the API keys. */
export interface McpAuthOptions {
  /**
   * The authorization server's issuer identifier (its URL, exactly as its
   * metadata and its tokens' `iss` say it): https, or http on a loopback
   * host for development. Its metadata (RFC 8414, else OpenID Connect
   * discovery) names the JWKS the tokens' signatures are checked with.
   */
  issuer: string;
  /**
   * The canonical URL of this server's MCP endpoint as clients reach it,
   * e.g. `https://app.example.com/mcp`: the audience a token must name (RFC
   * 8707) and the `resource` of the metadata. Set it behind a proxy and
   * whenever the server is mounted rather than started with `listen()`.
   * @default the URL `listen()` answered, plus `/mcp`
   */
  resource?: string;
  /** Scopes every token must carry (403 `insufficient_scope` otherwise); the 401 challenge asks for them. @default [] */
  requiredScopes?: readonly string[];
  /** Scopes the metadata lists (`scopes_supported`). @default `requiredScopes` */
  scopesSupported?: readonly string[];
  /**
   * The principal of a token that checked out; null refuses it (403). The
   * default keeps the issuer in the user id, so two issuers' subjects never
   * meet: `{ user: '<sub>@<issuer host and path>', scopes }`.
   */
  principalFromClaims?: (claims: AccessTokenClaims, scopes: readonly string[]) => Principal | null | Promise<Principal | null>;
  /** The issuer's JWKS URL, when it publishes no metadata. @default the `jwks_uri` of its metadata */
  jwksUri?: string;
  /** Seconds of clock skew allowed on `exp` and `nbf`. @default 30 */
  clockToleranceSeconds?: number;
  /** Signature algorithms accepted (asymmetric only: a shared secret is not the issuer's key). @default RS256…512, PS256…512, ES256…512, EdDSA, Ed25519 */
  algorithms?: readonly string[];
  /** The clock, in epoch ms. @default Date.now */
  now?: () => number;
}

/** The claims of a verified access token (RFC 9068), as `principalFromClaims` gets them. */
export interface AccessTokenClaims {
  iss: string;
  sub: string;
  aud: string | string[];
  exp: number;
  iat?: number;
  /** Space-separated scopes. */
  scope?: string;
  client_id?: string;
  [claim: string]: unknown;
}

/** What a request to `/mcp` resolves to: a principal, or the refusal to answer with. */
export type McpAuthVerdict = { ok: true; principal: Principal; clientId?: string; expiresAt?: number } | { ok: false; response: Response };

/** The OAuth side of the MCP door: the verifier, its metadata and challenges. */
export interface McpOAuth {
  readonly issuer: string;
  /** Names the server's origin once `listen()` knows it (the default resource is it plus `/mcp`). */
  bind(origin: string): void;
  /** Whether `resource` was set (else `listen()` supplies it). */
  readonly hasResource: boolean;
  /** The resource URL, or null while it is unknown. */
  resource(): string | null;
  /**
   * Who is calling: `others` (API keys, the host's hook) first; else the
   * bearer token as an access token of the issuer; else the refusal, 401
   * or 403 with the spec's `WWW-Authenticate`.
   */
  authorize(request: Request, others: (request: Request) => Promise<Principal | null>): Promise<McpAuthVerdict>;
  /** The protected resource metadata document (RFC 9728 §2). */
  metadata(): Record<string, unknown>;
}
