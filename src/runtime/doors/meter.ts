import type { CapabilityDescriptor } from '../capability';
import { createId } from '../ids';
import type { Principal } from '../principal';
import { createRateLimiter, createSharedRateLimiter, takeTokens, type RequestBuckets } from './sharedRateLimit';

/** Why the meter refused a call before it ran. */
export interface MeterBlock {
  ok: false;
  /** 402 when the user's budget is spent, 429 when it calls too often. */
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

/** Units held for one call while it runs. */
export interface MeterHold {
  /** Unique per call. */
  id: string;
  /** The principal's `user`: whose books. */
  user: string;
  units: number;
  /** Epoch ms after which the hold no longer counts (its process died with the call). */
  expiresAt: number;
}

/** What `MeterStore.hold` decided. */
export type MeterHoldResult = { ok: true } | { ok: false; charged: number; held: number };

/**
 * The meter's books per user: units charged, and units held by calls still
 * running. Small on purpose, so another database can be plugged in (and
 * shared by several server instances); methods may answer at once or with a
 * promise.
 */
export interface MeterStore {
  /**
   * Records `hold` if, atomically with every other hold of the user,
   * charged + unexpired holds + `hold.units` ≤ `budget`; otherwise records
   * nothing and tells the books as they are. Holds expired at `now` are dropped.
   */
  hold(hold: MeterHold, budget: number, now: number): MeterHoldResult | Promise<MeterHoldResult>;
  /** Drops the hold (if still there) and adds its units to the user's charged units, atomically. Called once per hold. */
  commit(hold: MeterHold): void | Promise<void>;
  /** Drops the hold, charging nothing. */
  release(hold: MeterHold): void | Promise<void>;
  /** Units charged to the user so far. */
  charged(user: string): number | Promise<number>;
  /**
   * The request limit's buckets, shared by every instance on the store
   * (`createSharedRateLimiter`). @default none: each process keeps its own
   */
  takeRequests?: RequestBuckets['takeRequests'];
}

export interface MemoryMeterOptions {
  /** Units one successful call costs. @default () => 1 */
  cost?: (capability: CapabilityDescriptor) => number;
  /** Budget of a principal that sets none. @default Infinity */
  budget?: number;
  /** Request limit of a principal that sets none. @default 600 */
  requestsPerMinute?: number;
  /** Clock. @default Date.now */
  now?: () => number;
}

/** The default meter's books, readable for dashboards and tests. */
export interface MemoryMeter extends Meter {
  /** Synchronous: the books are in memory. */
  reserve(principal: Principal, capability: CapabilityDescriptor): MeterReservation | MeterBlock;
  /** Units charged to a user so far. */
  charged(user: string): number;
}

/**
 * A meter in memory: a per-user budget (402 when the next call would exceed
 * it; a cost is held while the call runs, so concurrent calls cannot
 * overspend) and a per-user request limit (a token bucket refilled every
 * minute; 429). Forgets everything with the process; `createMeter` keeps the
 * books in a store.
 * @example
 * const meter = createMemoryMeter({ cost: (c) => (c.kind === 'mutate' ? 5 : 1) });
 */
export function createMemoryMeter(options: MemoryMeterOptions = {}): MemoryMeter {
  const { cost = () => 1, now = Date.now } = options;
  const rate = createRateLimiter(options.requestsPerMinute ?? 600, now);
  const books = new Map<string, { charged: number; held: number }>();

  return {
    charged: (user) => books.get(user)?.charged ?? 0,
    reserve(principal, capability) {
      const limited = rate.take(principal);
      if (limited) return limited;
      const budget = principal.budget ?? options.budget ?? Infinity;
      let b = books.get(principal.user);
      if (!b) {
        b = { charged: 0, held: 0 };
        books.set(principal.user, b);
      }
      const price = cost(capability);
      if (b.charged + b.held + price > budget) {
        rate.giveBack(principal);
        return overBudget(principal, capability, b.charged, budget, price);
      }
      b.held += price;
      const book = b;
      let open = true;
      return {
        ok: true,
        commit() {
          if (!open) return;
          open = false;
          book.held -= price;
          book.charged += price;
        },
        release() {
          if (!open) return;
          open = false;
          book.held -= price;
        },
      };
    },
  };
}

export interface MeterOptions extends MemoryMeterOptions {
  /** Where the books are kept: charged units and held reservations, and the request limit's buckets when the store has them (`takeRequests`). */
  store: MeterStore;
  /** How long a hold counts while its call runs; a hold left by a process that died frees itself after this. @default 1 h */
  holdMs?: number;
  /** Hears a failed commit or release (the call's answer stands). @default console.error */
  onStoreError?: (error: unknown) => void;
  /**
   * A principal with no budget holds nothing, so its successes are charged in
   * batches: added up in this process and written once per user every
   * `chargeBatchMs` (and by `flush`). 0 writes each charge at once. @default 1000
   */
  chargeBatchMs?: number;
}

/** A reservation whose commit and release tell when the store has them. */
export interface StoredMeterReservation extends MeterReservation {
  commit(): Promise<void>;
  release(): Promise<void>;
}

/** A meter over a `MeterStore`. */
export interface StoredMeter extends Meter {
  reserve(principal: Principal, capability: CapabilityDescriptor): Promise<StoredMeterReservation | MeterBlock>;
  /** Units charged to a user so far, from the store (after writing the charges waiting in a batch). */
  charged(user: string): Promise<number>;
  /** Writes the charges waiting in a batch (a server closing calls it). */
  flush(): Promise<void>;
}

/**
 * The default meter's rules (per-user budget, 402; per-user request limit,
 * 429) with the books in a store, so the budget survives a restart and is
 * shared by every instance on the same store, and so is the request limit
 * when the store keeps its buckets (`takeRequests`: the SQLite and
 * PostgreSQL stores do; tokens are taken in leases, so most requests never
 * wait for the database). The budget check and the hold
 * are one atomic step of the store.
 * @example
 * const meter = createMeter({ store: createSqliteMeterStore(db), cost: (c) => (c.kind === 'mutate' ? 5 : 1) });
 */
export function createMeter(options: MeterOptions): StoredMeter {
  const { store, cost = () => 1, now = Date.now, holdMs = 3_600_000 } = options;
  const onStoreError = options.onStoreError ?? ((error: unknown) => console.error('[chatsurface] meter store failed:', error));
  const perMinute = options.requestsPerMinute ?? 600;
  const rate = store.takeRequests
    ? createSharedRateLimiter({ takeRequests: store.takeRequests.bind(store) }, perMinute, now)
    : createRateLimiter(perMinute, now);
  const batch = chargeBatch(store, options.chargeBatchMs ?? 1_000, onStoreError);

  return {
    async charged(user) {
      await batch.flush();
      return store.charged(user);
    },
    flush: () => batch.flush(),
    async reserve(principal, capability) {
      const taken = rate.take(principal);
      const limited = taken instanceof Promise ? await taken : taken;
      if (limited) return limited;
      const budget = principal.budget ?? options.budget ?? Infinity;
      const price = cost(capability);
      if (!Number.isFinite(budget) && batch.on) {
        // With no budget nothing can be overspent: no hold at all; a success joins the user's batch, a failure writes nothing.
        let open = true;
        const settle = (charge: boolean) => {
          if (open && charge) batch.add(principal.user, price);
          open = false;
          return Promise.resolve();
        };
        return { ok: true, commit: () => settle(true), release: () => settle(false) };
      }
      const t = now();
      const hold: MeterHold = { id: createId('hold'), user: principal.user, units: price, expiresAt: t + holdMs };
      let result: MeterHoldResult = { ok: true };
      // With no budget nothing can be overspent: no hold to write, the success is still charged (at once, batches off).
      if (Number.isFinite(budget)) {
        try {
          result = await store.hold(hold, budget, t);
        } catch (error) {
          rate.giveBack(principal);
          throw error;
        }
      }
      if (!result.ok) {
        rate.giveBack(principal);
        return overBudget(principal, capability, result.charged, budget, price);
      }
      let done: Promise<void> | undefined;
      const settle = (op: () => void | Promise<void>) =>
        (done ??= Promise.resolve()
          .then(op)
          .catch((error: unknown) => onStoreError(error)));
      return {
        ok: true,
        commit: () => settle(() => store.commit(hold)),
        release: () => settle(() => store.release(hold)),
      };
    },
  };
}

/** Charges added up per user and written to the store once per user every `batchMs`. */
function chargeBatch(store: MeterStore, batchMs: number, onStoreError: (error: unknown) => void) {
  const pending = new Map<string, number>();
  let timer: ReturnType<typeof setTimeout> | null = null;
  let written: Promise<void> = Promise.resolve();
  const flush = (): Promise<void> => {
    if (timer) clearTimeout(timer);
    timer = null;
    if (pending.size) {
      const charges = [...pending];
      pending.clear();
      // A charge is a commit of a hold the store never had: its units are added, there is nothing to drop.
      const write = ([user, units]: [string, number]) =>
        Promise.resolve()
          .then(() => store.commit({ id: createId('charge'), user, units, expiresAt: 0 }))
          .catch((error: unknown) => onStoreError(error));
      written = written.then(() => Promise.all(charges.map(write))).then(() => undefined);
    }
    return written;
  };
  return {
    on: batchMs > 0,
    add(user: string, units: number) {
      pending.set(user, (pending.get(user) ?? 0) + units);
      if (timer) return;
      timer = setTimeout(() => void flush(), batchMs);
      (timer as { unref?: () => void }).unref?.();
    },
    flush,
  };
}

/**
 * Books in memory behind the `MeterStore` interface: the reference the SQLite
 * store's suite is checked against.
 * @example
 * const meter = createMeter({ store: createMemoryMeterStore() });
 */
export function createMemoryMeterStore(): MeterStore {
  const charged = new Map<string, number>();
  const holds = new Map<string, MeterHold>();
  const buckets = new Map<string, { tokens: number; refilledAt: number }>();
  return {
    hold(hold, budget, t) {
      let held = 0;
      for (const [id, h] of holds) {
        if (h.expiresAt <= t) holds.delete(id);
        else if (h.user === hold.user) held += h.units;
      }
      const spent = charged.get(hold.user) ?? 0;
      if (spent + held + hold.units > budget) return { ok: false, charged: spent, held };
      holds.set(hold.id, { ...hold });
      return { ok: true };
    },
    commit(hold) {
      holds.delete(hold.id);
      charged.set(hold.user, (charged.get(hold.user) ?? 0) + hold.units);
    },
    release(hold) {
      holds.delete(hold.id);
    },
    charged: (user) => charged.get(user) ?? 0,
    takeRequests(user, want, limit, now) {
      const { granted, left, refilledAt } = takeTokens(buckets.get(user), want, limit, now);
      buckets.set(user, { tokens: left, refilledAt });
      return { granted, left };
    },
  };
}

function overBudget(principal: Principal, capability: CapabilityDescriptor, charged: number, budget: number, price: number): MeterBlock {
  return {
    ok: false,
    status: 402,
    code: 'budget_exhausted',
    message: `User "${principal.user}" is over budget: ${charged} of its ${budget} units are used and "${capability.name}" costs ${price}. Nothing was run.`,
  };
}
