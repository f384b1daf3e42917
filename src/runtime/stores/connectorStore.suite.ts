import { describe, expect, it } from 'vitest';
import type { Connector, ConnectorStore } from './connectorStore';

/**
 * What every `ConnectorStore` must do; run from each store's test file
 * with a factory giving a fresh, empty store.
 * @example
 * connectorStoreSuite('sqlite', () => createSqliteConnectorStore(openWorkspaceDatabase(':memory:')));
 */
export function connectorStoreSuite(name: string, make: () => ConnectorStore | Promise<ConnectorStore>): void {
  const alice = { user: 'alice', space: 'acme' };
  const bob = { user: 'bob', space: 'acme' };
  const row = (owner: typeof alice, label: string, patch: Partial<Connector> = {}): Connector => ({
    ...owner,
    label,
    url: `https://${label}.example.com/mcp`,
    createdAt: 1_000,
    ...patch,
  });

  describe(`ConnectorStore: ${name}`, () => {
    it("adds, lists by owner oldest first, and keeps each owner's rows apart", async () => {
      const store = await make();
      expect(await store.list(alice)).toEqual([]);
      expect(await store.add(row(alice, 'notes', { token: 's3cret', createdAt: 2_000 }))).toBe(true);
      expect(await store.add(row(alice, 'crm', { createdAt: 1_000 }))).toBe(true);
      expect(await store.add(row(bob, 'notes'))).toBe(true);
      expect(await store.list(alice)).toEqual([row(alice, 'crm', { createdAt: 1_000 }), row(alice, 'notes', { token: 's3cret', createdAt: 2_000 })]);
      expect(await store.list(bob)).toEqual([row(bob, 'notes')]);
      // Another space is another owner, even for the same user name.
      expect(await store.list({ user: 'alice', space: 'other' })).toEqual([]);
    });

    it('refuses a second connector with the same label for one owner, keeping the first', async () => {
      const store = await make();
      expect(await store.add(row(alice, 'notes', { url: 'https://one.example.com/mcp' }))).toBe(true);
      expect(await store.add(row(alice, 'notes', { url: 'https://two.example.com/mcp' }))).toBe(false);
      expect((await store.list(alice)).map((c) => c.url)).toEqual(['https://one.example.com/mcp']);
    });

    it("removes only the owner's connector with that label", async () => {
      const store = await make();
      await store.add(row(alice, 'notes'));
      await store.add(row(bob, 'notes'));
      expect(await store.remove(alice, 'missing')).toBe(false);
      expect(await store.remove(alice, 'notes')).toBe(true);
      expect(await store.remove(alice, 'notes')).toBe(false);
      expect(await store.list(alice)).toEqual([]);
      expect(await store.list(bob)).toHaveLength(1);
    });

    it("replaces only the owner's connector with that label and time, when the store can", async () => {
      const store = await make();
      if (!store.update) return;
      await store.add(row(alice, 'notes', { token: 'old' }));
      await store.add(row(bob, 'notes', { token: 'bobs' }));
      expect(await store.update(row(alice, 'missing', { token: 'new' }))).toBe(false);
      // A connector removed and connected again since is another one: a late renewal does not land on it.
      expect(await store.update(row(alice, 'notes', { token: 'stale', createdAt: 999 }))).toBe(false);
      expect(await store.update(row(alice, 'notes', { token: 'new' }))).toBe(true);
      expect(await store.list(alice)).toEqual([row(alice, 'notes', { token: 'new' })]);
      expect(await store.list(bob)).toEqual([row(bob, 'notes', { token: 'bobs' })]);
    });
  });
}
