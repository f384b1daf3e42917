import {
  OAuthError,
  checkResourceAllowed,
  discoverOAuthServerInfo,
  exchangeAuthorization,
  refreshAuthorization,
  registerClient,
  startAuthorization,
  type AuthorizationServerMetadata,
  type OAuthClientInformationMixed,
  type OAuthTokens,
} from '@modelcontextprotocol/client';
import type { Connector } from '../runtime/stores/connectorStore';
import { ConnectRefusedError, type Challenge } from './connectorErrors';
import { isLoopback } from './hostCheck';

/**
 * The OAuth client side of a user's own MCP server (MCP authorization, 2025-11-25): the kit's
 * server is the confidential client acting for the user. What is kept per connector is a grant:
 * where to sign in, the client it registered there, and the user's tokens. It is stored in the
 * connector's sealed token column (`oauth:v1:` + JSON, sealed with the host's key like a token).
 */
export interface OAuthGrant {
  /** The resource indicator (RFC 8707) every authorization and token request names. */
  resource: string;
  /** Scopes asked for (the server's challenge or its metadata, plus `offline_access` when offered). */
  scope?: string;
  authorizationServer: string;
  metadata: AuthorizationServerMetadata;
  /** The client this kit is at that server, for one redirect URL (registered again when it changes). */
  client?: { info: OAuthClientInformationMixed; redirectUri: string };
  tokens?: { access_token: string; token_type: string; refresh_token?: string; expires_at?: number; scope?: string };
  /** Set when the user must sign in again (a refresh refused): the words the panel shows. */
  signInAgain?: string;
}

const PREFIX = 'oauth:v1:';

/** The grant a connector's stored token holds, or null for a pasted token (or none). */
export function grantOf(connector: Connector): OAuthGrant | null {
  if (!connector.token?.startsWith(PREFIX)) return null;
  try {
    return JSON.parse(connector.token.slice(PREFIX.length)) as OAuthGrant;
  } catch {
    return null;
  }
}

/** The connector with this grant in its token column. */
export const withGrant = (connector: Connector, grant: OAuthGrant): Connector => ({ ...connector, token: `${PREFIX}${JSON.stringify(grant)}` });


/**
 * Finds out how to sign in to a server that answered 401: its protected resource metadata (from the
 * challenge's `resource_metadata`, else the well-known URL), then its authorization server's
 * metadata. Null when the server says nothing of OAuth (a server that wants a pasted token).
 * Throws in words when it advertises OAuth that cannot be used.
 */
export async function discoverGrant(serverUrl: URL, challenge: Challenge, fetchFn: typeof fetch): Promise<OAuthGrant | null> {
  let info;
  try {
    info = await discoverOAuthServerInfo(serverUrl, { fetchFn, ...(challenge.resourceMetadataUrl ? { resourceMetadataUrl: challenge.resourceMetadataUrl } : {}) });
  } catch {
    return null;
  }
  // The 2025-11-25 spec: a server that signs users in publishes resource metadata naming its authorization server.
  if (!info.resourceMetadata || !info.authorizationServerMetadata) return null;
  const resource = info.resourceMetadata.resource;
  if (!checkResourceAllowed({ requestedResource: serverUrl, configuredResource: resource })) {
    throw new ConnectRefusedError('auth_refused', `${serverUrl.href} asks you to sign in for another address (${resource}), so this workspace does not sign you in there.`, 400);
  }
  const metadata = info.authorizationServerMetadata;
  // The browser is sent to the authorization endpoint: never a `javascript:` or `data:` URL, never plain http off this machine.
  for (const endpoint of [metadata.authorization_endpoint, metadata.token_endpoint, metadata.registration_endpoint]) {
    if (endpoint !== undefined && !isSafeEndpoint(endpoint)) {
      throw new ConnectRefusedError('auth_refused', `The sign-in server of ${serverUrl.href} gives an address this workspace does not use (${endpoint.slice(0, 200)}): sign-in addresses must be https.`, 400);
    }
  }
  if (!metadata.code_challenge_methods_supported?.includes('S256')) {
    throw new ConnectRefusedError('auth_refused', `The sign-in server of ${serverUrl.href} (${info.authorizationServerUrl}) does not offer PKCE (S256), which signing in here needs.`, 400);
  }
  const asked = challenge.scope || info.resourceMetadata.scopes_supported?.join(' ');
  const scope = asked && metadata.scopes_supported?.includes('offline_access') && !asked.split(' ').includes('offline_access') ? `${asked} offline_access` : asked;
  return { resource, ...(scope ? { scope } : {}), authorizationServer: info.authorizationServerUrl, metadata };
}

/** An https URL, or http on a loopback host (development). */
export function isSafeEndpoint(text: string): boolean {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return false;
  }
  if (url.username || url.password) return false;
  if (url.protocol === 'https:') return true;
  return url.protocol === 'http:' && isLoopback(url.hostname);
}

/** The client document the kit publishes for client ID metadata documents (SEP-991). */
export function clientMetadataOf(redirectUri: string, scope?: string) {
  return {
    client_name: 'ChatSurface',
    redirect_uris: [redirectUri],
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    ...(scope ? { scope } : {}),
  };
}

/**
 * The client this kit is at the grant's authorization server for `redirectUri`: the one kept, a
 * client ID metadata document URL when the server takes them and the kit's address is https
 * (the spec's first choice), else one registered now (dynamic client registration).
 */
export async function clientFor(grant: OAuthGrant, redirectUri: string, clientDocumentUrl: string, fetchFn: typeof fetch): Promise<NonNullable<OAuthGrant['client']>> {
  if (grant.client?.redirectUri === redirectUri) return grant.client;
  if (grant.metadata.client_id_metadata_document_supported && clientDocumentUrl.startsWith('https://')) {
    return { info: { client_id: clientDocumentUrl }, redirectUri };
  }
  if (!grant.metadata.registration_endpoint) {
    throw new ConnectRefusedError('auth_refused', `The sign-in server ${grant.authorizationServer} takes neither client ID metadata documents from this address nor registrations, so this workspace cannot sign you in there.`, 400);
  }
  const methods = grant.metadata.token_endpoint_auth_methods_supported ?? ['client_secret_basic'];
  const method = ['client_secret_basic', 'client_secret_post', 'none'].find((m) => methods.includes(m)) ?? 'client_secret_basic';
  try {
    const info = await registerClient(grant.authorizationServer, {
      metadata: grant.metadata,
      clientMetadata: { ...clientMetadataOf(redirectUri, grant.scope), token_endpoint_auth_method: method },
      fetchFn,
    });
    return { info, redirectUri };
  } catch (error) {
    throw new ConnectRefusedError('auth_refused', `The sign-in server ${grant.authorizationServer} refused to register this workspace: ${messageOf(error)}`, 502);
  }
}

/** The authorization URL (code flow, PKCE S256, `resource` bound) and the verifier kept for the exchange. */
export async function authorizationUrl(grant: OAuthGrant, client: NonNullable<OAuthGrant['client']>, state: string) {
  return startAuthorization(grant.authorizationServer, {
    metadata: grant.metadata,
    clientInformation: client.info,
    redirectUrl: client.redirectUri,
    state,
    resource: grant.resource,
    ...(grant.scope ? { scope: grant.scope } : {}),
  });
}

/** Exchanges the code (the response's `iss` checked against the server's) for the user's tokens. */
export async function exchangeCode(
  grant: OAuthGrant,
  input: { code: string; iss?: string; codeVerifier: string },
  fetchFn: typeof fetch,
): Promise<OAuthGrant> {
  const client = grant.client;
  if (!client) throw new ConnectRefusedError('auth_refused', 'This sign-in was not started here; start it again from the list of your servers.', 400);
  let tokens: OAuthTokens;
  try {
    tokens = await exchangeAuthorization(grant.authorizationServer, {
      metadata: grant.metadata,
      clientInformation: client.info,
      authorizationCode: input.code,
      ...(input.iss ? { iss: input.iss } : {}),
      codeVerifier: input.codeVerifier,
      redirectUri: client.redirectUri,
      resource: grant.resource,
      fetchFn,
    });
  } catch (error) {
    throw new ConnectRefusedError('auth_refused', `The sign-in server ${grant.authorizationServer} did not give a token: ${messageOf(error)}`, 400);
  }
  const { signInAgain: _again, ...rest } = grant;
  return { ...rest, tokens: tokensOf(tokens) };
}

/** The user must sign in again: the refresh token was refused (or there is none). */
export class SignInAgainError extends Error {
  override name = 'SignInAgainError';
}

/**
 * New tokens from the refresh token. A refusal by the server (`invalid_grant`, …) or a grant with
 * no refresh token is `SignInAgainError`; a server that cannot be reached throws as it is.
 */
export async function refreshGrant(grant: OAuthGrant, label: string, fetchFn: typeof fetch): Promise<OAuthGrant> {
  const refreshToken = grant.tokens?.refresh_token;
  if (!grant.client || !refreshToken) throw new SignInAgainError(signInAgain(label, 'its sign-in ran out'));
  try {
    const tokens = await refreshAuthorization(grant.authorizationServer, {
      metadata: grant.metadata,
      clientInformation: grant.client.info,
      refreshToken,
      resource: grant.resource,
      fetchFn,
    });
    return { ...grant, tokens: tokensOf(tokens, refreshToken) };
  } catch (error) {
    // Only a refusal of the grant or of this client needs the user; a server error is the server being down.
    if (error instanceof OAuthError && ['invalid_grant', 'invalid_client', 'unauthorized_client', 'invalid_scope', 'invalid_target'].includes(error.code)) throw new SignInAgainError(signInAgain(label, `its sign-in server refused to renew it (${error.code})`));
    throw error;
  }
}

/** The words for a server the user has not signed in to yet. */
export const signInFirst = (label: string) => `${label} needs you to sign in on its own page before its tools can be used. Choose "Sign in" next to it.`;

/** The words for a server whose sign-in is over. */
export const signInAgain = (label: string, why: string) => `${label} needs you to sign in again: ${why}. Choose "Sign in" next to it.`;

function tokensOf(tokens: OAuthTokens, previousRefresh?: string): NonNullable<OAuthGrant['tokens']> {
  const refresh = tokens.refresh_token ?? previousRefresh;
  return {
    access_token: tokens.access_token,
    token_type: tokens.token_type,
    ...(refresh ? { refresh_token: refresh } : {}),
    ...(tokens.expires_in !== undefined ? { expires_at: Date.now() + tokens.expires_in * 1000 } : {}),
    ...(tokens.scope ? { scope: tokens.scope } : {}),
  };
}

/**
 * The guarded fetch, answering this runtime's own `Response` (the SDK's OAuth helpers read an error
 * body only from one that is `instanceof Response`; the guarded fetch's come from the undici package).
 */
export function oauthFetch(fetchFn: typeof fetch): typeof fetch {
  return async (input, init) => {
    // Typed as a Response, but (from the guarded fetch) built by the undici package's own class.
    const response: Response = await fetchFn(input, init);
    if (Object.getPrototypeOf(response) === Response.prototype) return response;
    const empty = [101, 204, 205, 304].includes(response.status);
    return new Response(empty ? null : await response.arrayBuffer(), { status: response.status, statusText: response.statusText, headers: response.headers });
  };
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** How long before its expiry an access token is renewed. */
export const REFRESH_AHEAD_MS = 60_000;

/**
 * The user's access token for one connector, renewed with the refresh token before it runs out
 * (or when the server answers 401), one renewal at a time; every new grant is saved.
 */
export interface OAuthSession {
  /** The access token to send; renewed first when it is about to expire. Throws `SignInAgainError`. */
  accessToken(): Promise<string>;
  /** Renews now (the server refused `stale`); a renewal already made since is used instead. */
  renew(stale: string): Promise<string>;
  /** Why the user must sign in again, or null. */
  readonly signInAgain: string | null;
}

export function oauthSession(
  label: string,
  first: OAuthGrant,
  deps: { fetch: typeof fetch; save(grant: OAuthGrant): Promise<void>; onSignInAgain(message: string): void },
): OAuthSession {
  let grant = first;
  let renewing: Promise<string> | null = null;
  const fail = (message: string): never => {
    grant = { ...grant, signInAgain: message };
    deps.onSignInAgain(message);
    void deps.save(grant).catch(() => undefined);
    throw new SignInAgainError(message);
  };
  const renew = (): Promise<string> =>
    (renewing ??= (async () => {
      try {
        grant = await refreshGrant(grant, label, deps.fetch);
      } catch (error) {
        if (error instanceof SignInAgainError) fail(error.message);
        throw error;
      }
      await deps.save(grant);
      return grant.tokens!.access_token;
    })().finally(() => (renewing = null)));
  return {
    get signInAgain() {
      return grant.signInAgain ?? (grant.tokens ? null : signInFirst(label));
    },
    async accessToken() {
      if (grant.signInAgain) throw new SignInAgainError(grant.signInAgain);
      const tokens = grant.tokens ?? fail(signInFirst(label));
      if (tokens.expires_at !== undefined && tokens.expires_at - Date.now() < REFRESH_AHEAD_MS) return renew();
      return tokens.access_token;
    },
    async renew(stale) {
      if (grant.tokens && grant.tokens.access_token !== stale) return grant.tokens.access_token;
      return renew();
    },
  };
}
