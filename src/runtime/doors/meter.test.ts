import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineCapability } from '../capability';
import { textResult } from '../results';
import { createMemoryMeter, createMemoryMeterStore, createMeter, type MeterStore } from './meter';
import { meterStoreSuite } from './meterStore.suite';

meterStoreSuite('memory', () => createMemoryMeterStore());

const read = defineCapability({ name: 'a.read', title: 'Read', description: 'Reads.', input: z.object({}), handler: () => textResult('ok') });
const write = defineCapability({ name: 'a.write', title: 'Write', description: 'Writes.', kind: 'mutate', input: z.object({}), handler: () => textResult('ok') });

describe('createMemoryMeter', () => {
  it('charges a committed call, and only once however often commit is called', () => {
    const meter = createMemoryMeter();
    const held = meter.reserve({ user: 'k' }, read);
    if (!held.ok) throw new Error('expected a reservation');
    held.commit();
    held.commit();
    held.release();
    expect(meter.charged('k')).toBe(1);
  });

  it('blocks with 402 when the next call would exceed the budget, counting calls still running', () => {
    const meter = createMemoryMeter({ cost: (c) => (c.kind === 'mutate' ? 3 : 1) });
    const principal = { user: 'k', budget: 4 };
    const first = meter.reserve(principal, write);
    expect(first.ok).toBe(true);
    const second = meter.reserve(principal, write);
    expect(second).toMatchObject({ ok: false, status: 402, code: 'budget_exhausted' });
    expect(second.ok === false && second.message).toBe('User "k" is over budget: 0 of its 4 units are used and "a.write" costs 3. Nothing was run.');
    expect(meter.reserve(principal, read).ok).toBe(true);
  });

  it('gives the held cost back when a call fails', () => {
    const meter = createMemoryMeter();
    const principal = { user: 'k', budget: 1 };
    const held = meter.reserve(principal, read);
    if (!held.ok) throw new Error('expected a reservation');
    held.release();
    expect(meter.charged('k')).toBe(0);
    expect(meter.reserve(principal, read).ok).toBe(true);
  });

  it('limits requests per minute per user with 429 and a retry delay, refilling over time', () => {
    let now = 0;
    const meter = createMemoryMeter({ requestsPerMinute: 2, now: () => now });
    expect(meter.reserve({ user: 'a' }, read).ok).toBe(true);
    expect(meter.reserve({ user: 'a' }, read).ok).toBe(true);
    const limited = meter.reserve({ user: 'a' }, read);
    expect(limited).toMatchObject({ ok: false, status: 429, code: 'rate_limited', retryAfterSeconds: 30 });
    expect(limited.ok === false && limited.message).toBe('User "a" made more than 2 requests in a minute. Retry after 30 s.');
    expect(meter.reserve({ user: 'b' }, read).ok).toBe(true);
    now = 30_000;
    expect(meter.reserve({ user: 'a' }, read).ok).toBe(true);
    expect(meter.reserve({ user: 'a' }, read).ok).toBe(false);
  });

  it("uses the principal's own limit over the meter's default", () => {
    const meter = createMemoryMeter({ requestsPerMinute: 100 });
    expect(meter.reserve({ user: 'tight', requestsPerMinute: 1 }, read).ok).toBe(true);
    expect(meter.reserve({ user: 'tight', requestsPerMinute: 1 }, read).ok).toBe(false);
  });
});

describe('createMeter: the books touched only when they must be', () => {
  /** A memory store whose every write is counted. */
  function countingStore() {
    const inner = createMemoryMeterStore();
    const writes = { hold: 0, commit: 0, release: 0 };
    const store: MeterStore = {
      hold: (h, b, t) => (writes.hold++, inner.hold(h, b, t)),
      commit: (h) => (writes.commit++, inner.commit(h)),
      release: (h) => (writes.release++, inner.release(h)),
      charged: (u) => inner.charged(u),
    };
    return { store, writes };
  }

  it('with no budget, holds nothing and writes the successes of a batch as one charge per user', async () => {
    const { store, writes } = countingStore();
    const meter = createMeter({ store, requestsPerMinute: 1e9, chargeBatchMs: 60_000 });
    for (let i = 0; i < 100; i++) {
      const held = await meter.reserve({ user: i % 2 ? 'a' : 'b' }, read);
      if (!held.ok) throw new Error('expected a reservation');
      await (i % 10 === 0 ? held.release() : held.commit());
    }
    expect(writes).toEqual({ hold: 0, commit: 0, release: 0 });
    await meter.flush();
    expect(writes).toEqual({ hold: 0, commit: 2, release: 0 });
    expect(await meter.charged('a')).toBe(50);
    expect(await meter.charged('b')).toBe(40);
  });

  it('writes a batch by itself after chargeBatchMs, and charged() includes what waits in one', async () => {
    const { store, writes } = countingStore();
    const meter = createMeter({ store, chargeBatchMs: 20 });
    const held = await meter.reserve({ user: 'a' }, read);
    if (!held.ok) throw new Error('expected a reservation');
    await held.commit();
    await new Promise((r) => setTimeout(r, 60));
    expect(writes.commit).toBe(1);
    const again = await meter.reserve({ user: 'a' }, read);
    if (!again.ok) throw new Error('expected a reservation');
    await again.commit();
    expect(await meter.charged('a')).toBe(2);
  });

  it('with a budget, each call is held and charged in the store at once (no overspending across instances)', async () => {
    const { store, writes } = countingStore();
    const meter = createMeter({ store, chargeBatchMs: 60_000 });
    const held = await meter.reserve({ user: 'a', budget: 1 }, read);
    if (!held.ok) throw new Error('expected a reservation');
    await held.commit();
    expect(writes).toEqual({ hold: 1, commit: 1, release: 0 });
    expect(await meter.reserve({ user: 'a', budget: 1 }, read)).toMatchObject({ ok: false, status: 402 });
  });
});
