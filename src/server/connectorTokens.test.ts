import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createSqliteConnectorStore } from '../runtime/node/sqliteConnectorStore';
import { openWorkspaceDatabase } from '../runtime/node/sqliteDatabase';
import { sqliteHandle } from '../runtime/node/sqliteHandle';
import type { Connector } from '../runtime/stores/connectorStore';
import { openToken, sealedConnectorStore, sealToken, tokenKeyOf } from './connectorTokens';

const TOKEN = 'ghp_secret-token-0123456789';
const key = randomBytes(32);
const mine: Connector = { user: 'ada', space: 'acme', label: 'notes', url: 'https://mcp.example.com/mcp', token: TOKEN, createdAt: 1 };

describe("users' MCP tokens sealed at rest", () => {
  it('the database row holds no usable token; the server reads it back with its key', async () => {
    const db = openWorkspaceDatabase(':memory:');
    const store = sealedConnectorStore(createSqliteConnectorStore(db), key);
    expect(await store.add(mine)).toBe(true);
    const raw = JSON.stringify(sqliteHandle(db).prepare('SELECT * FROM mcp_connectors').all());
    expect(raw).not.toContain(TOKEN);
    expect(raw).toContain('sealed:v1:');
    expect(await store.list({ user: 'ada', space: 'acme' })).toEqual([mine]);
    db.close();
  });

  it('another key, another owner or another label does not open it: the token comes out as none', () => {
    const sealed = sealToken(key, mine, TOKEN);
    expect(openToken(key, mine, sealed)).toBe(TOKEN);
    expect(openToken(randomBytes(32), mine, sealed)).toBeNull();
    expect(openToken(key, { ...mine, user: 'mallory' }, sealed)).toBeNull();
    expect(openToken(key, { ...mine, label: 'other' }, sealed)).toBeNull();
    expect(openToken(key, mine, `${sealed.slice(0, -4)}AAAA`)).toBeNull();
    // Two seals of one token differ (a fresh iv each time).
    expect(sealToken(key, mine, TOKEN)).not.toBe(sealed);
  });

  it('a token stored before sealing is read as it is, and a row whose key changed comes out without one', async () => {
    const plain = createSqliteConnectorStore(openWorkspaceDatabase(':memory:'));
    await plain.add(mine);
    expect(await sealedConnectorStore(plain, key).list(mine)).toEqual([mine]);
    const rows = createSqliteConnectorStore(openWorkspaceDatabase(':memory:'));
    await sealedConnectorStore(rows, key).add(mine);
    const { token: _token, ...withoutToken } = mine;
    expect(await sealedConnectorStore(rows, randomBytes(32)).list(mine)).toEqual([withoutToken]);
  });

  it('takes a key of 32 bytes as base64 or hex, and says what is wrong with any other', () => {
    expect(tokenKeyOf(key.toString('base64'))).toEqual(key);
    expect(tokenKeyOf(key.toString('hex'))).toEqual(key);
    expect(() => tokenKeyOf('too short')).toThrow('connectors.tokenKey must be 32 random bytes, as base64 or hex');
  });
});
