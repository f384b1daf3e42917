/**
 * Remembers what a request with an `Idempotency-Key` produced, so a retry
 * gets the first answer instead of a second execution (and a second charge).
 * Entries are per key holder (the principal's `user`): two users may use the
 * same idempotency key.
 */
export interface IdempotencyCache<T> {
  /**
   * The first call with `(owner, key)` runs `work` and keeps its promise;
   * later calls with the same fingerprint get that promise (`replayed: true`),
   * with another fingerprint `conflict: true` and nothing runs. Synchronous:
   * with a `store`, it consults the store only when the store answers at once
   * (memory, SQLite) and throws for one that answers later; use `claim` there.
   */
  run(owner: string, key: string, fingerprint: string, work: () => Promise<T>): IdempotencyOutcome<T>;
  /**
   * `run`, asking the store first (any store: a network database too): a
   * restarted server, or another instance, replays a finished answer kept
   * there instead of running `work` again. Concurrent claims of one key in this
   * process run `work` once.
   */
  claim(owner: string, key: string, fingerprint: string, work: () => Promise<T>): Promise<IdempotencyOutcome<T>>;
  /** Forgets an entry, here and in the store (used when the first attempt was refused before running, so a retry may run). */
  forget(owner: string, key: string): void;
  /** Resolves once every store write begun so far has landed (a server closing waits for it). */
  flushed(): Promise<void>;
}

/** What `run` and `claim` decided. */
export type IdempotencyOutcome<T> = { conflict: true } | { conflict: false; replayed: boolean; value: Promise<T> };

/** A finished request's answer as kept in a store: enough to answer a retry without running again. */
export interface IdempotencyRecord {
  /** The request's `fingerprint(capability, args)`: a retry with another one is a conflict. */
  fingerprint: string;
  /** The first answer, JSON-safe (a store may keep it as JSON text). */
  response: unknown;
  /** Epoch ms the request was first run. */
  createdAt: number;
  /** Epoch ms from which the record no longer counts (the cache treats it as absent). */
  expiresAt: number;
}

/**
 * Where finished idempotent answers are kept, by scope (the principal's
 * `user`) and key. Small on purpose, so another database can be plugged in;
 * methods may answer at once or with a promise.
 */
export interface IdempotencyStore {
  /** The record as stored (expired or not), or undefined. */
  get(scope: string, key: string): IdempotencyRecord | undefined | Promise<IdempotencyRecord | undefined>;
  /** Adds or replaces the record of `(scope, key)`. */
  put(scope: string, key: string, record: IdempotencyRecord): void | Promise<void>;
  /** Removes the record of `(scope, key)`, if any. */
  delete(scope: string, key: string): void | Promise<void>;
  /** Removes every record with `expiresAt <= now`; returns how many went. */
  purge(now: number): number | Promise<number>;
  /**
   * For a store shared by several instances: claims `(scope, key)` for this
   * instance before the work runs, in one atomic step. `begun` means this
   * instance runs it (a claim whose instance died, or an expired record, is
   * taken over); otherwise the answer is the finished record, or the
   * fingerprint of a run still in flight on a live instance (ask again
   * later). `get` does not return claims in flight; `put` finishes one,
   * `delete` drops it.
   */
  begin?(scope: string, key: string, claim: { fingerprint: string; createdAt: number; expiresAt: number }): Promise<IdempotencyBegin>;
}

/** What `IdempotencyStore.begin` found. */
export type IdempotencyBegin = { begun: true } | { begun: false; record: IdempotencyRecord } | { begun: false; pending: string };

/** A retry that found the key in flight elsewhere with another request. */
class PendingConflict extends Error {}

export interface IdempotencyCacheOptions<T = unknown> {
  /** How long an answer is kept. @default 24 h */
  ttlMs?: number;
  /** Entries kept in this process at most; the oldest go first (the store keeps its own until they expire). @default 10_000 */
  maxEntries?: number;
  /** @default Date.now */
  now?: () => number;
  /** Where finished answers are kept beyond this process (see `claim`). @default none: this process only */
  store?: IdempotencyStore;
  /** Which finished answers go to the store; the others stay in this process only. The door passes `(r) => r.kind !== 'refused'`. @default every one */
  keep?: (value: T) => boolean;
  /** Turns a stored `response` back into an answer. @default the stored value as is */
  revive?: (response: unknown) => T;
  /** Hears a failed store write (the answer still counts in this process). @default console.error */
  onStoreError?: (error: unknown) => void;
}

interface Head<T> {
  fingerprint: string;
  value: Promise<T>;
  /** True when the answer came from the store: every caller gets a replay. */
  stored: boolean;
}

interface Slot<T> {
  at: number;
  /** A promise while `claim` is asking the store. */
  head: Head<T> | Promise<Head<T>>;
  /** Set by `forget`: the answer is not to be kept. */
  forgotten?: boolean;
}

/**
 * An idempotency cache: single-flight in this process, and with a `store`,
 * finished answers that outlive it.
 * @example
 * const cache = createIdempotencyCache<DoorResponse>({ store: createSqliteIdempotencyStore(db), keep: (r) => r.kind !== 'refused' });
 * const entry = await cache.claim(principal.user, key, fingerprint(name, body), () => execute());
 */
export function createIdempotencyCache<T>(options: IdempotencyCacheOptions<T> = {}): IdempotencyCache<T> {
  const { ttlMs = 86_400_000, maxEntries = 10_000, now = Date.now, store, keep = () => true } = options;
  const revive = options.revive ?? ((response: unknown) => response as T);
  const onStoreError = options.onStoreError ?? ((error: unknown) => console.error('[chatsurface] idempotency store failed:', error));
  const entries = new Map<string, Slot<T>>();
  /** Store writes per entry, in order: a put is never overtaken by the delete of a `forget` after it. */
  const writes = new Map<string, Promise<void>>();
  let purgedAt = -Infinity;
  const id = (owner: string, key: string) => `${owner}\u0000${key}`;

  const live = (k: string, t: number) => {
    const slot = entries.get(k);
    return slot && t - slot.at < ttlMs ? slot : undefined;
  };

  const remember = (k: string, slot: Slot<T>) => {
    entries.delete(k);
    entries.set(k, slot);
    while (entries.size > maxEntries) entries.delete(entries.keys().next().value!);
  };

  const write = (k: string, op: () => void | Promise<unknown>) => {
    const next = (writes.get(k) ?? Promise.resolve()).then(op).then(
      () => undefined,
      (error: unknown) => onStoreError(error),
    );
    writes.set(k, next);
    void next.then(() => {
      if (writes.get(k) === next) writes.delete(k);
    });
  };

  const fromRecord = (record: IdempotencyRecord | undefined, t: number): Head<T> | undefined =>
    record && record.expiresAt > t ? { fingerprint: record.fingerprint, value: Promise.resolve().then(() => revive(record.response)), stored: true } : undefined;

  /**
   * Runs the work (after the caller's synchronous part) and keeps its answer in the store once finished.
   * `claimed`: the store holds this run's claim, which an answer not kept, or a failure, must drop.
   */
  const start = (k: string, slot: Slot<T>, owner: string, key: string, fingerprint: string, work: () => Promise<T>, claimed = false): Head<T> => {
    const t = slot.at;
    const head: Head<T> = { fingerprint, value: Promise.resolve().then(work), stored: false };
    if (store) {
      head.value.then(
        (value) => {
          // Forgotten before it finished: nothing to keep.
          if (slot.forgotten || !keep(value)) {
            if (claimed && !slot.forgotten) write(k, () => store.delete(owner, key));
            return;
          }
          write(k, () => store.put(owner, key, { fingerprint, response: value, createdAt: t, expiresAt: t + ttlMs }));
        },
        () => {
          if (claimed) write(k, () => store.delete(owner, key));
        },
      );
      if (t - purgedAt >= Math.min(ttlMs, 3_600_000)) {
        purgedAt = t;
        Promise.resolve()
          .then(() => store.purge(t))
          .catch(onStoreError);
      }
    }
    return head;
  };

  /** Several instances: claims the key in the store; a run in flight elsewhere is waited for, then replayed. */
  const begin = async (
    claimIn: NonNullable<IdempotencyStore['begin']>,
    k: string,
    slot: Slot<T>,
    owner: string,
    key: string,
    fingerprint: string,
    work: () => Promise<T>,
  ): Promise<Head<T>> => {
    const t = slot.at;
    for (let delay = 10; ; delay = Math.min(delay * 2, 250)) {
      const found = await claimIn(owner, key, { fingerprint, createdAt: t, expiresAt: t + ttlMs });
      if (found.begun) return start(k, slot, owner, key, fingerprint, work, true);
      if ('record' in found) {
        const kept = fromRecord(found.record, now());
        if (kept) {
          slot.at = found.record.createdAt;
          return kept;
        }
      } else if (found.pending !== fingerprint) {
        throw new PendingConflict();
      }
      // In flight on another instance (or a record that just expired): ask again shortly.
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  };

  const decide = (head: Head<T>, fingerprint: string, replayed: boolean): IdempotencyOutcome<T> =>
    head.fingerprint === fingerprint ? { conflict: false, replayed: replayed || head.stored, value: head.value } : { conflict: true };

  return {
    async flushed() {
      // The answers still being run write when they finish: wait for those, then for the writes.
      await Promise.all([...entries.values()].map((slot) => Promise.resolve(slot.head).then((head) => head.value).catch(() => undefined)));
      while (writes.size) await Promise.all([...writes.values()]);
    },
    run(owner, key, fingerprint, work) {
      const k = id(owner, key);
      const t = now();
      const existing = live(k, t);
      if (existing) {
        if (isPromise(existing.head)) {
          throw new Error(`Idempotency-Key "${key}" is being looked up in the store by claim(); a cache with a store that answers asynchronously takes claim() only.`);
        }
        return decide(existing.head, fingerprint, true);
      }
      if (store) {
        const record = store.get(owner, key);
        if (isPromise(record)) {
          void record.catch(() => undefined);
          throw new Error('This idempotency store answers asynchronously, so run() cannot consult it; call claim() instead.');
        }
        const kept = fromRecord(record, t);
        if (kept) {
          remember(k, { at: record!.createdAt, head: kept });
          return decide(kept, fingerprint, true);
        }
      }
      // Set before anything awaits, so concurrent retries find this entry.
      const slot: Slot<T> = { at: t, head: undefined! };
      slot.head = start(k, slot, owner, key, fingerprint, work);
      remember(k, slot);
      return decide(slot.head, fingerprint, false);
    },

    async claim(owner, key, fingerprint, work) {
      const k = id(owner, key);
      const t = now();
      const existing = live(k, t);
      if (existing) return decide(await existing.head, fingerprint, true);
      const slot: Slot<T> = { at: t, head: undefined! };
      if (!store) {
        slot.head = start(k, slot, owner, key, fingerprint, work);
        remember(k, slot);
        return decide(slot.head, fingerprint, false);
      }
      // Take the slot before the store answers, so concurrent claims wait for this one's lookup.
      const lookup = (async (): Promise<Head<T>> => {
        if (store.begin) return begin(store.begin.bind(store), k, slot, owner, key, fingerprint, work);
        const record = await store.get(owner, key);
        const kept = fromRecord(record, t);
        if (kept) {
          slot.at = record!.createdAt;
          return kept;
        }
        return start(k, slot, owner, key, fingerprint, work);
      })();
      slot.head = lookup;
      remember(k, slot);
      let head: Head<T>;
      try {
        head = await lookup;
      } catch (error) {
        if (entries.get(k) === slot) entries.delete(k);
        if (error instanceof PendingConflict) return { conflict: true };
        throw error;
      }
      if (entries.get(k) === slot) slot.head = head;
      return decide(head, fingerprint, false);
    },

    forget(owner, key) {
      const k = id(owner, key);
      const slot = entries.get(k);
      if (slot) slot.forgotten = true;
      entries.delete(k);
      if (store) write(k, () => store.delete(owner, key));
    },
  };
}

/**
 * Finished answers in memory: the reference the SQLite store's suite is
 * checked against. Responses are copied through JSON, as a database would.
 * @example
 * const cache = createIdempotencyCache({ store: createMemoryIdempotencyStore() });
 */
export function createMemoryIdempotencyStore(): IdempotencyStore {
  const records = new Map<string, IdempotencyRecord>();
  const id = (scope: string, key: string) => `${scope}\u0000${key}`;
  const copy = (record: IdempotencyRecord): IdempotencyRecord => ({ ...record, response: JSON.parse(JSON.stringify(record.response ?? null)) });
  return {
    get(scope, key) {
      const record = records.get(id(scope, key));
      return record && copy(record);
    },
    put(scope, key, record) {
      records.set(id(scope, key), copy(record));
    },
    delete(scope, key) {
      records.delete(id(scope, key));
    },
    purge(t) {
      let n = 0;
      for (const [k, record] of records) {
        if (record.expiresAt <= t) {
          records.delete(k);
          n++;
        }
      }
      return n;
    },
  };
}

function isPromise<T>(value: T | Promise<T>): value is Promise<T> {
  return typeof (value as { then?: unknown } | null | undefined)?.then === 'function';
}

/** A stable fingerprint of a request: object keys sorted, so `{a,b}` and `{b,a}` match. */
export function fingerprint(capability: string, args: unknown): string {
  return `${capability}\u0000${stableStringify(args)}`;
}

function stableStringify(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'undefined';
  if (Array.isArray(value)) return `[${value.map(stableStringify).join(',')}]`;
  const keys = Object.keys(value).sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${stableStringify((value as Record<string, unknown>)[k])}`).join(',')}}`;
}
