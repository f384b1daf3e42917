import type { ConnectorOwner, Connector } from '../runtime/stores/connectorStore';
import type { ConnectorInfo } from '../workspace/connectorsProtocol';
import { closeEntry, reopenServer, type OpenLimits } from './connectorEntry';
import { ConnectRefusedError } from './connectorErrors';
import { guardedFetch } from './connectorNetwork';
import { authorizationUrl, clientFor, oauthFetch, discoverGrant, exchangeCode, grantOf, withGrant, type OAuthGrant } from './connectorOAuth';
import { keyOf, rebuild, type OwnerTable } from './connectorOwners';
import { createSignIns } from './connectorSignIns';

/** Where a sign-in starts and comes back: the kit's redirect URL, its client document, the opening page's origin. */
export interface SignInPlace {
  /** `<origin>/v1/mcp-servers/oauth/callback` */
  redirectUri: string;
  /** `<origin>/v1/mcp-servers/oauth/client` (a client ID metadata document; used when it is https and the server takes them). */
  clientDocumentUrl: string;
  /** The exact origin of the page that asked (its `Origin`), where the outcome is posted. */
  openerOrigin: string;
}

export interface SignInFlowParts {
  limits: OpenLimits;
  owners: OwnerTable;
  save(connector: Connector): Promise<void>;
  /** True when the host gave a key: without one no sign-in is kept (tokens would sit in the database in the clear). */
  sealed: boolean;
}

/** The words when OAuth is needed and the host gave no key to seal its tokens with. */
const NO_KEY = (where: string) =>
  `${where} signs users in with OAuth, and this workspace has no key to keep sign-ins sealed: its host sets connectors.tokenKey (or CHATSURFACE_TOKEN_KEY) to 32 random bytes (docs/server.md). Until then, paste a token instead if the server offers one.`;

/**
 * The OAuth steps of the connectors: finding out how a 401 server signs users in, starting a
 * sign-in for one user's server, completing it when its redirect comes back.
 */
export function createSignInFlow({ limits, owners, save, sealed }: SignInFlowParts) {
  const signIns = createSignIns();
  const withNetwork = async <T>(run: (fetchFn: typeof fetch) => Promise<T>): Promise<T> => {
    const network = guardedFetch(limits.network);
    try {
      return await run(oauthFetch(network.fetch));
    } finally {
      await network.close().catch(() => undefined);
    }
  };
  const unknown = (label: string) => new ConnectRefusedError('unknown_server', `You have no MCP server named "${label}".`, 404);

  return {
    /** The grant to keep for a server that answered 401 (`refusal`), or null when it does not sign users in with OAuth. */
    async discover(url: URL, refusal: ConnectRefusedError): Promise<OAuthGrant | null> {
      const grant = await withNetwork((fetchFn) => discoverGrant(url, refusal.challenge ?? {}, fetchFn));
      if (grant && !sealed) throw new ConnectRefusedError('sign_in_unavailable', NO_KEY(url.href), 501);
      return grant;
    },

    async authorize(owner: ConnectorOwner, label: string, place: SignInPlace): Promise<{ url: string }> {
      const entry = owners.peek(owner)?.entries.get(label);
      if (!entry) throw unknown(label);
      const grant = grantOf(entry.connector);
      if (!grant) throw new ConnectRefusedError('sign_in_unavailable', `${label} does not sign you in on its own page; it takes a token, or none.`, 409);
      if (!sealed) throw new ConnectRefusedError('sign_in_unavailable', NO_KEY(entry.connector.url), 501);
      return withNetwork(async (fetchFn) => {
        const client = await clientFor(grant, place.redirectUri, place.clientDocumentUrl, fetchFn);
        const next: OAuthGrant = { ...grant, client };
        if (client !== grant.client) await save(withGrant(entry.connector, next));
        const state = signIns.state();
        const { authorizationUrl: url, codeVerifier } = await authorizationUrl(next, client, state);
        signIns.add(state, { owner: keyOf(owner), label, codeVerifier, openerOrigin: place.openerOrigin });
        return { url: url.href };
      });
    },

    async complete(
      owner: ConnectorOwner,
      response: { state: string; code?: string; iss?: string; error?: string; error_description?: string },
    ): Promise<{ label: string; status: ConnectorInfo['status']; openerOrigin: string; message: string }> {
      const pending = signIns.take(response.state, keyOf(owner));
      if (!pending) throw new ConnectRefusedError('unknown_server', 'This sign-in is not one you started here, or it ran out (after 10 minutes). Start it again from your list of MCP servers.', 404);
      const { label, openerOrigin } = pending;
      const o = owners.owned(owner);
      const entry = o.entries.get(label);
      const grant = entry && grantOf(entry.connector);
      if (!entry || !grant) throw unknown(label);
      if (response.error || !response.code) {
        const why = response.error_description || response.error || 'no code came back';
        return { label, status: entry.status, openerOrigin, message: `You are not signed in to ${label}: the sign-in page said "${why}". Try again with "Sign in".` };
      }
      const code = response.code;
      const next = await withNetwork((fetchFn) => exchangeCode(grant, { code, ...(response.iss ? { iss: response.iss } : {}), codeVerifier: pending.codeVerifier }, fetchFn));
      const connector = withGrant(entry.connector, next);
      await save(connector);
      const fresh = await reopenServer(connector, limits);
      if (o.entries.get(label) === entry) {
        o.entries.set(label, fresh);
        rebuild(o);
        void closeEntry(entry);
      } else void closeEntry(fresh);
      const message =
        fresh.status === 'connected'
          ? `Signed in to ${label}: ${fresh.capabilities.length} ${fresh.capabilities.length === 1 ? 'tool' : 'tools'} in your chats now.`
          : (fresh.problems[0] ?? `Signed in to ${label}, but it could not be reached.`);
      return { label, status: fresh.status, openerOrigin, message };
    },
  };
}
