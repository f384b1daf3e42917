import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineCapability } from '../capability';
import { textResult } from '../envelope';
import { createMemoryMeter } from './meter';

const read = defineCapability({ name: 'a.read', title: 'Read', description: 'Reads.', input: z.object({}), handler: () => textResult('ok') });
const write = defineCapability({ name: 'a.write', title: 'Write', description: 'Writes.', kind: 'mutate', input: z.object({}), handler: () => textResult('ok') });

describe('createMemoryMeter', () => {
  it('charges a committed call, and only once however often commit is called', () => {
    const meter = createMemoryMeter();
    const held = meter.reserve({ id: 'k' }, read);
    if (!held.ok) throw new Error('expected a reservation');
    held.commit();
    held.commit();
    held.release();
    expect(meter.charged('k')).toBe(1);
  });

  it('blocks with 402 when the next call would exceed the budget, counting calls still running', () => {
    const meter = createMemoryMeter({ cost: (c) => (c.kind === 'mutate' ? 3 : 1) });
    const principal = { id: 'k', budget: 4 };
    const first = meter.reserve(principal, write);
    expect(first.ok).toBe(true);
    const second = meter.reserve(principal, write);
    expect(second).toMatchObject({ ok: false, status: 402, code: 'budget_exhausted' });
    expect(second.ok === false && second.message).toBe('Key "k" is over budget: 0 of its 4 units are used and "a.write" costs 3. Nothing was run.');
    expect(meter.reserve(principal, read).ok).toBe(true);
  });

  it('gives the held cost back when a call fails', () => {
    const meter = createMemoryMeter();
    const principal = { id: 'k', budget: 1 };
    const held = meter.reserve(principal, read);
    if (!held.ok) throw new Error('expected a reservation');
    held.release();
    expect(meter.charged('k')).toBe(0);
    expect(meter.reserve(principal, read).ok).toBe(true);
  });

  it('limits requests per minute per key with 429 and a retry delay, refilling over time', () => {
    let now = 0;
    const meter = createMemoryMeter({ requestsPerMinute: 2, now: () => now });
    expect(meter.reserve({ id: 'a' }, read).ok).toBe(true);
    expect(meter.reserve({ id: 'a' }, read).ok).toBe(true);
    const limited = meter.reserve({ id: 'a' }, read);
    expect(limited).toMatchObject({ ok: false, status: 429, code: 'rate_limited', retryAfterSeconds: 30 });
    expect(meter.reserve({ id: 'b' }, read).ok).toBe(true);
    now = 30_000;
    expect(meter.reserve({ id: 'a' }, read).ok).toBe(true);
    expect(meter.reserve({ id: 'a' }, read).ok).toBe(false);
  });

  it("uses the key's own limit over the meter's default", () => {
    const meter = createMemoryMeter({ requestsPerMinute: 100 });
    expect(meter.reserve({ id: 'tight', requestsPerMinute: 1 }, read).ok).toBe(true);
    expect(meter.reserve({ id: 'tight', requestsPerMinute: 1 }, read).ok).toBe(false);
  });
});
