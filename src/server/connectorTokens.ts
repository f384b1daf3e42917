import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { Connector, ConnectorStore } from '../runtime/stores/connectorStore';

/** How a sealed token starts in the database: AES-256-GCM, then iv, ciphertext and tag in base64url. */
const SEALED = 'sealed:v1:';

/**
 * The server key that seals users' MCP tokens at rest: 32 bytes, given as base64 or hex
 * (`openssl rand -base64 32`). Throws in words for anything else.
 */
export function tokenKeyOf(text: string): Buffer {
  const trimmed = text.trim();
  const key = /^[0-9a-f]{64}$/i.test(trimmed) ? Buffer.from(trimmed, 'hex') : Buffer.from(trimmed, 'base64');
  if (key.length !== 32) throw new TypeError('connectors.tokenKey must be 32 random bytes, as base64 or hex (e.g. `openssl rand -base64 32`).');
  return key;
}

/** A token as the database keeps it: sealed with the key, bound to its owner and label (a row copied to another user or label does not open). */
export function sealToken(key: Buffer, connector: Connector, token: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(bindingOf(connector)));
  const text = Buffer.concat([cipher.update(token, 'utf8'), cipher.final()]);
  return `${SEALED}${iv.toString('base64url')}.${text.toString('base64url')}.${cipher.getAuthTag().toString('base64url')}`;
}

/** The token a row holds: unsealed with the key; one stored before sealing (plain) as it is; null when the key does not open it. */
export function openToken(key: Buffer, connector: Connector, stored: string): string | null {
  if (!stored.startsWith(SEALED)) return stored;
  const [iv, text, tag] = stored.slice(SEALED.length).split('.');
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv ?? '', 'base64url'));
    decipher.setAAD(Buffer.from(bindingOf(connector)));
    decipher.setAuthTag(Buffer.from(tag ?? '', 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(text ?? '', 'base64url')), decipher.final()]).toString('utf8');
  } catch {
    return null;
  }
}

function bindingOf(c: Connector): string {
  return JSON.stringify([c.space, c.user, c.label]);
}

/**
 * The store with every token sealed on the way in and opened on the way out, so a copy of the
 * database (a backup, a leaked file) holds no usable token. A token the key cannot open (the key
 * changed) comes out as none: the server then asks the user for one again ("needs a token").
 */
export function sealedConnectorStore(store: ConnectorStore, key: Buffer): ConnectorStore {
  const seal = (c: Connector): Connector => (c.token === undefined ? c : { ...c, token: sealToken(key, c, c.token) });
  const open = (c: Connector): Connector => {
    if (c.token === undefined) return c;
    const token = openToken(key, c, c.token);
    const { token: _sealed, ...rest } = c;
    return token === null ? rest : { ...rest, token };
  };
  return {
    list: async (owner) => (await store.list(owner)).map(open),
    add: (connector) => store.add(seal(connector)),
    remove: (owner, label) => store.remove(owner, label),
    ...(store.update ? { update: (connector: Connector) => store.update!(seal(connector)) } : {}),
  };
}
