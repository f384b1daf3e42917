import { describe, expect, it } from 'vitest';
import type { CapClaim, CapStore } from './capStore';

/**
 * What every `CapStore` must do; run from each store's test file with a
 * factory giving a fresh, empty store.
 * @example
 * capStoreSuite('sqlite', () => createSqliteCapStore(openWorkspaceDatabase(':memory:')));
 */
export function capStoreSuite(name: string, make: () => CapStore | Promise<CapStore>): void {
  const claim = (item: string, patch: Partial<CapClaim> = {}): CapClaim => ({ kind: 'thread', item, space: 'acme', address: '198.51.100.7', at: 1_000, ...patch });
  const limits = { perSpace: 100, perAddress: 100, windowMs: 10_000 };

  describe(`CapStore: ${name}`, () => {
    it('counts a space’s things up to its cap, kind by kind and space by space', async () => {
      const store = await make();
      const caps = { ...limits, perSpace: 3 };
      for (const item of ['a', 'b', 'c']) expect(await store.claim(claim(item, { address: item }), caps)).toEqual({ ok: true });
      expect(await store.claim(claim('d', { address: 'd' }), caps)).toEqual({ ok: false, over: 'space', count: 3, limit: 3 });
      expect(await store.claim(claim('d', { space: 'other', address: 'd' }), caps)).toEqual({ ok: true });
      expect(await store.claim(claim('d', { kind: 'skill', address: 'd' }), caps)).toEqual({ ok: true });
    });

    it('counts an address’s new things within the window, across spaces, and says when the oldest leaves it', async () => {
      const store = await make();
      const caps = { ...limits, perAddress: 2 };
      expect(await store.claim(claim('a', { at: 1_000 }), caps)).toEqual({ ok: true });
      expect(await store.claim(claim('b', { at: 4_000, space: 'other' }), caps)).toEqual({ ok: true });
      expect(await store.claim(claim('c', { at: 5_000 }), caps)).toEqual({ ok: false, over: 'address', count: 2, limit: 2, retryAfterMs: 6_000 });
      expect(await store.claim(claim('c', { at: 5_000, address: '203.0.113.9' }), caps)).toEqual({ ok: true });
      // Once the first has left the window, one more fits.
      expect(await store.claim(claim('c2', { at: 11_000 }), caps)).toEqual({ ok: true });
      expect(await store.claim(claim('c3', { at: 11_000 }), caps)).toMatchObject({ ok: false, over: 'address' });
    });

    it('a claim with no address meets only the space’s cap', async () => {
      const store = await make();
      const caps = { ...limits, perAddress: 1 };
      const { address: _none, ...unknown } = claim('x');
      expect(await store.claim(unknown, caps)).toEqual({ ok: true });
      expect(await store.claim({ ...unknown, item: 'y' }, caps)).toEqual({ ok: true });
    });

    it('counts an item once, however often it is claimed, and frees it on release', async () => {
      const store = await make();
      const caps = { ...limits, perSpace: 1 };
      expect(await store.claim(claim('a'), caps)).toEqual({ ok: true });
      expect(await store.claim(claim('a'), caps)).toEqual({ ok: true });
      expect(await store.claim(claim('b'), caps)).toMatchObject({ ok: false, over: 'space' });
      await store.release('thread', 'a');
      expect(await store.claim(claim('b'), caps)).toEqual({ ok: true });
    });

    it('claims racing each other never pass the cap', async () => {
      const store = await make();
      const caps = { ...limits, perSpace: 5 };
      const results = await Promise.all(Array.from({ length: 20 }, (_, i) => store.claim(claim(`t${i}`, { address: `a${i}` }), caps)));
      expect(results.filter((r) => r.ok)).toHaveLength(5);
    });
  });
}
