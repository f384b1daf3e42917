import type { CapabilityDescriptor } from '../capability';
import type { Principal } from './apiKeys';

/** Why the meter refused a call before it ran. */
export interface MeterBlock {
  ok: false;
  /** 402 when the key's budget is spent, 429 when it calls too often. */
  status: 402 | 429;
  code: 'budget_exhausted' | 'rate_limited';
  message: string;
  /** Seconds until a retry can succeed (sent as `Retry-After`). */
  retryAfterSeconds?: number;
}

/** A held cost: committed once when the call succeeds, released otherwise. */
export interface MeterReservation {
  ok: true;
  /** Charges the call. Called at most once per execution, never for a replay. */
  commit(): void;
  /** Gives the held cost back (the call failed or never ran). */
  release(): void;
}

/**
 * The host's metering hook. `reserve` runs before the executor: a call over
 * budget or over the request limit is blocked there and its handler never runs.
 */
export interface Meter {
  reserve(principal: Principal, capability: CapabilityDescriptor): Promise<MeterReservation | MeterBlock> | MeterReservation | MeterBlock;
}

export interface MemoryMeterOptions {
  /** Units one successful call costs. @default () => 1 */
  cost?: (capability: CapabilityDescriptor) => number;
  /** Budget of a key that sets none. @default Infinity */
  budget?: number;
  /** Request limit of a key that sets none. @default 600 */
  requestsPerMinute?: number;
  /** Clock. @default Date.now */
  now?: () => number;
}

/** The default meter's books, readable for dashboards and tests. */
export interface MemoryMeter extends Meter {
  /** Synchronous: the books are in memory. */
  reserve(principal: Principal, capability: CapabilityDescriptor): MeterReservation | MeterBlock;
  /** Units charged to a key so far. */
  charged(keyId: string): number;
}

/**
 * A meter in memory: a per-key budget (402 when the next call would exceed it;
 * a cost is held while the call runs, so concurrent calls cannot overspend)
 * and a per-key request limit (a token bucket refilled every minute; 429).
 * @example
 * const meter = createMemoryMeter({ cost: (c) => (c.kind === 'mutate' ? 5 : 1) });
 */
export function createMemoryMeter(options: MemoryMeterOptions = {}): MemoryMeter {
  const { cost = () => 1, now = Date.now } = options;
  const books = new Map<string, { charged: number; held: number; tokens: number; refilledAt: number }>();

  const book = (principal: Principal, limit: number) => {
    let b = books.get(principal.id);
    if (!b) {
      b = { charged: 0, held: 0, tokens: limit, refilledAt: now() };
      books.set(principal.id, b);
    }
    return b;
  };

  return {
    charged: (keyId) => books.get(keyId)?.charged ?? 0,
    reserve(principal, capability) {
      const limit = principal.requestsPerMinute ?? options.requestsPerMinute ?? 600;
      const budget = principal.budget ?? options.budget ?? Infinity;
      const b = book(principal, limit);
      const t = now();
      b.tokens = Math.min(limit, b.tokens + ((t - b.refilledAt) * limit) / 60_000);
      b.refilledAt = t;
      if (b.tokens < 1) {
        const wait = Math.ceil(((1 - b.tokens) * 60_000) / limit / 1000);
        return {
          ok: false,
          status: 429,
          code: 'rate_limited',
          message: `Key "${principal.id}" made more than ${limit} requests in a minute. Retry after ${wait} s.`,
          retryAfterSeconds: wait,
        };
      }
      const price = cost(capability);
      if (b.charged + b.held + price > budget) {
        return {
          ok: false,
          status: 402,
          code: 'budget_exhausted',
          message: `Key "${principal.id}" is over budget: ${b.charged} of its ${budget} units are used and "${capability.name}" costs ${price}. Nothing was run.`,
        };
      }
      b.tokens -= 1;
      b.held += price;
      let open = true;
      return {
        ok: true,
        commit() {
          if (!open) return;
          open = false;
          b.held -= price;
          b.charged += price;
        },
        release() {
          if (!open) return;
          open = false;
          b.held -= price;
        },
      };
    },
  };
}
