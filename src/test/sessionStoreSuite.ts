import { afterEach, describe, expect, it } from 'vitest';
import type { SessionRecord, SessionStore } from '../runtime/stores/sessionStore';

/** A store under test, on a clock the suite moves; `close` (if any) runs after each test. */
export interface SessionStoreUnderTest {
  store: SessionStore;
  close?(): void | Promise<void>;
}

/**
 * The one behaviour every SessionStore has (memory, SQLite, PostgreSQL):
 * run it with a factory that builds a fresh, empty store on the given clock.
 * @example
 * sessionStoreSuite('memory', ({ now }) => ({ store: createMemorySessionStore({ now }) }));
 */
export function sessionStoreSuite(name: string, make: (clock: { now: () => number }) => SessionStoreUnderTest | Promise<SessionStoreUnderTest>): void {
  describe(`SessionStore: ${name}`, () => {
    let time = 1_700_000_000_000;
    const now = () => time;
    let current: SessionStoreUnderTest | null = null;
    const open = async () => {
      time = 1_700_000_000_000;
      current = await make({ now });
      return current.store;
    };
    afterEach(async () => {
      await current?.close?.();
      current = null;
    });

    const record = (over: Partial<SessionRecord> = {}): SessionRecord => ({
      tokenHash: 'hash-a',
      principal: { user: 'guest-1a2b' },
      createdAt: time,
      expiresAt: time + 60_000,
      ...over,
    });

    it('returns a created session by its token hash, and null for an unknown one', async () => {
      const store = await open();
      await store.create(record({ principal: { user: 'ada', space: 'acme', scopes: ['skills:space'], budget: 10, requestsPerMinute: 30 } }));
      expect(await store.get('hash-a')).toEqual({
        tokenHash: 'hash-a',
        principal: { user: 'ada', space: 'acme', scopes: ['skills:space'], budget: 10, requestsPerMinute: 30 },
        createdAt: time,
        expiresAt: time + 60_000,
      });
      expect(await store.get('hash-b')).toBeNull();
    });

    it('keeps sessions apart', async () => {
      const store = await open();
      await store.create(record({ tokenHash: 'hash-a', principal: { user: 'guest-a' } }));
      await store.create(record({ tokenHash: 'hash-b', principal: { user: 'guest-b' } }));
      expect((await store.get('hash-a'))?.principal.user).toBe('guest-a');
      expect((await store.get('hash-b'))?.principal.user).toBe('guest-b');
    });

    it('never returns an expired session', async () => {
      const store = await open();
      await store.create(record({ expiresAt: time + 1_000 }));
      time += 999;
      expect(await store.get('hash-a')).not.toBeNull();
      time += 1;
      expect(await store.get('hash-a')).toBeNull();
      time += 60_000;
      expect(await store.get('hash-a')).toBeNull();
      // Creating others (which may prune) leaves it gone and them readable.
      await store.create(record({ tokenHash: 'hash-b', expiresAt: time + 1_000 }));
      expect(await store.get('hash-a')).toBeNull();
      expect(await store.get('hash-b')).not.toBeNull();
    });

    it('moves a live session’s expiry with touch, and cannot revive an expired one', async () => {
      const store = await open();
      await store.create(record({ expiresAt: time + 1_000 }));
      await store.touch('hash-a', time + 10_000);
      time += 5_000;
      expect((await store.get('hash-a'))?.expiresAt).toBe(1_700_000_000_000 + 10_000);
      time += 5_000;
      expect(await store.get('hash-a')).toBeNull();
      await store.touch('hash-a', time + 10_000);
      expect(await store.get('hash-a')).toBeNull();
      await store.touch('unknown', time + 10_000);
      expect(await store.get('unknown')).toBeNull();
    });

    it('forgets a deleted session, and deleting an unknown one is fine', async () => {
      const store = await open();
      await store.create(record());
      await store.delete('hash-a');
      expect(await store.get('hash-a')).toBeNull();
      await store.delete('hash-a');
    });

    it('replaces a session created again with the same hash', async () => {
      const store = await open();
      await store.create(record({ principal: { user: 'first' } }));
      await store.create(record({ principal: { user: 'second' }, expiresAt: time + 120_000 }));
      expect(await store.get('hash-a')).toMatchObject({ principal: { user: 'second' }, expiresAt: time + 120_000 });
    });

    it('hands out copies: changing a returned record changes nothing stored', async () => {
      const store = await open();
      const original = record();
      await store.create(original);
      original.principal.user = 'mallory';
      const got = (await store.get('hash-a'))!;
      expect(got.principal.user).toBe('guest-1a2b');
      got.principal.user = 'mallory';
      expect((await store.get('hash-a'))!.principal.user).toBe('guest-1a2b');
    });
  });
}
