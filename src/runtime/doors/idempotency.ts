import { createOrderedWrites, type OrderedWrites } from './orderedWrites';

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

/** One call of `run` or `claim`: who asks, with what, and the work to run when nothing answers yet. */
interface Request<T> {
  /** The entry's id: owner and key. */
  k: string;
  owner: string;
  key: string;
  fingerprint: string;
  work: () => Promise<T>;
}

/** What the cache's parts share: its settings, the entries in this process and the store's writes. */
interface Cache<T> {
  ttlMs: number;
  maxEntries: number;
  now: () => number;
  store: IdempotencyStore | undefined;
  keep: (value: T) => boolean;
  revive: (response: unknown) => T;
  onStoreError: (error: unknown) => void;
  /** The entries in this process, oldest first. */
  entries: Map<string, Slot<T>>;
  writes: OrderedWrites;
  /** When the store's expired records were last purged. */
  purgedAt: number;
}

/**
 * An idempotency cache: single-flight in this process, and with a `store`,
 * finished answers that outlive it.
 * @example
 * const cache = createIdempotencyCache<DoorResponse>({ store: createSqliteIdempotencyStore(db), keep: (r) => r.kind !== 'refused' });
 * const entry = await cache.claim(principal.user, key, fingerprint(name, body), () => execute());
 */
export function createIdempotencyCache<T>(options: IdempotencyCacheOptions<T> = {}): IdempotencyCache<T> {
  const onStoreError = options.onStoreError ?? ((error: unknown) => console.error('[chatsurface] idempotency store failed:', error));
  const cache: Cache<T> = {
    ttlMs: options.ttlMs ?? 86_400_000,
    maxEntries: options.maxEntries ?? 10_000,
    now: options.now ?? Date.now,
    store: options.store,
    keep: options.keep ?? (() => true),
    revive: options.revive ?? ((response: unknown) => response as T),
    onStoreError,
    entries: new Map(),
    writes: createOrderedWrites(onStoreError),
    purgedAt: -Infinity,
  };
  return {
    async flushed() {
      // The answers still being run write when they finish: wait for those, then for the writes.
      await Promise.all([...cache.entries.values()].map((slot) => Promise.resolve(slot.head).then((head) => head.value).catch(() => undefined)));
      await cache.writes.drained();
    },
    run: (owner, key, fingerprint, work) => run(cache, { k: id(owner, key), owner, key, fingerprint, work }),
    claim: (owner, key, fingerprint, work) => claim(cache, { k: id(owner, key), owner, key, fingerprint, work }),
    forget(owner, key) {
      const k = id(owner, key);
      const slot = cache.entries.get(k);
      if (slot) slot.forgotten = true;
      cache.entries.delete(k);
      const { store } = cache;
      if (store) cache.writes.write(k, () => store.delete(owner, key));
    },
  };
}

const id = (owner: string, key: string) => `${owner}\u0000${key}`;

/** `run`: synchronous, consulting only a store that answers at once. */
function run<T>(cache: Cache<T>, request: Request<T>): IdempotencyOutcome<T> {
  const { k, owner, key, fingerprint } = request;
  const t = cache.now();
  const existing = live(cache, k, t);
  if (existing) {
    if (isPromise(existing.head)) {
      throw new Error(`Idempotency-Key "${key}" is being looked up in the store by claim(); a cache with a store that answers asynchronously takes claim() only.`);
    }
    return decide(existing.head, fingerprint, true);
  }
  if (cache.store) {
    const record = cache.store.get(owner, key);
    if (isPromise(record)) {
      void record.catch(() => undefined);
      throw new Error('This idempotency store answers asynchronously, so run() cannot consult it; call claim() instead.');
    }
    const kept = fromRecord(cache, record, t);
    if (kept) {
      remember(cache, k, { at: record!.createdAt, head: kept });
      return decide(kept, fingerprint, true);
    }
  }
  // Set before anything awaits, so concurrent retries find this entry.
  const slot: Slot<T> = { at: t, head: undefined! };
  slot.head = start(cache, slot, request);
  remember(cache, k, slot);
  return decide(slot.head, fingerprint, false);
}

/** `claim`: asks the store first (any store), holding the entry meanwhile so concurrent claims wait for this one. */
async function claim<T>(cache: Cache<T>, request: Request<T>): Promise<IdempotencyOutcome<T>> {
  const { k, fingerprint } = request;
  const t = cache.now();
  const existing = live(cache, k, t);
  if (existing) return decide(await existing.head, fingerprint, true);
  const slot: Slot<T> = { at: t, head: undefined! };
  if (!cache.store) {
    slot.head = start(cache, slot, request);
    remember(cache, k, slot);
    return decide(slot.head, fingerprint, false);
  }
  // Take the slot before the store answers, so concurrent claims wait for this one's lookup.
  const lookup = lookUp(cache, cache.store, slot, request);
  slot.head = lookup;
  remember(cache, k, slot);
  let head: Head<T>;
  try {
    head = await lookup;
  } catch (error) {
    if (cache.entries.get(k) === slot) cache.entries.delete(k);
    if (error instanceof PendingConflict) return { conflict: true };
    throw error;
  }
  if (cache.entries.get(k) === slot) slot.head = head;
  return decide(head, fingerprint, false);
}

/** The answer a store keeps for the request, or the work started (claimed in the store when it can claim). */
async function lookUp<T>(cache: Cache<T>, store: IdempotencyStore, slot: Slot<T>, request: Request<T>): Promise<Head<T>> {
  if (store.begin) return begin(cache, store.begin.bind(store), slot, request);
  const record = await store.get(request.owner, request.key);
  const kept = fromRecord(cache, record, slot.at);
  if (kept) {
    slot.at = record!.createdAt;
    return kept;
  }
  return start(cache, slot, request);
}

/** Several instances: claims the key in the store; a run in flight elsewhere is waited for, then replayed. */
async function begin<T>(cache: Cache<T>, claimIn: NonNullable<IdempotencyStore['begin']>, slot: Slot<T>, request: Request<T>): Promise<Head<T>> {
  const { owner, key, fingerprint } = request;
  const t = slot.at;
  for (let delay = 10; ; delay = Math.min(delay * 2, 250)) {
    const found = await claimIn(owner, key, { fingerprint, createdAt: t, expiresAt: t + cache.ttlMs });
    if (found.begun) return start(cache, slot, request, true);
    if ('record' in found) {
      const kept = fromRecord(cache, found.record, cache.now());
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
}

/**
 * Runs the work (after the caller's synchronous part) and keeps its answer in the store once finished.
 * `claimed`: the store holds this run's claim, which an answer not kept, or a failure, must drop.
 */
function start<T>(cache: Cache<T>, slot: Slot<T>, request: Request<T>, claimed = false): Head<T> {
  const head: Head<T> = { fingerprint: request.fingerprint, value: Promise.resolve().then(request.work), stored: false };
  if (cache.store) {
    keepWhenDone(cache, cache.store, slot, request, head.value, claimed);
    purgeNowAndThen(cache, cache.store, slot.at);
  }
  return head;
}

/** Once the work finishes: its answer goes to the store, or the claim is dropped (not kept, forgotten, failed). */
function keepWhenDone<T>(cache: Cache<T>, store: IdempotencyStore, slot: Slot<T>, request: Request<T>, value: Promise<T>, claimed: boolean): void {
  const { k, owner, key, fingerprint } = request;
  const t = slot.at;
  value.then(
    (answer) => {
      // Forgotten before it finished: nothing to keep.
      if (slot.forgotten || !cache.keep(answer)) {
        if (claimed && !slot.forgotten) cache.writes.write(k, () => store.delete(owner, key));
        return;
      }
      cache.writes.write(k, () => store.put(owner, key, { fingerprint, response: answer, createdAt: t, expiresAt: t + cache.ttlMs }));
    },
    () => {
      if (claimed) cache.writes.write(k, () => store.delete(owner, key));
    },
  );
}

/** Purges the store's expired records at most once an hour (or once a ttl, when shorter). */
function purgeNowAndThen<T>(cache: Cache<T>, store: IdempotencyStore, t: number): void {
  if (t - cache.purgedAt < Math.min(cache.ttlMs, 3_600_000)) return;
  cache.purgedAt = t;
  Promise.resolve()
    .then(() => store.purge(t))
    .catch(cache.onStoreError);
}

/** The entry of `k` in this process while its ttl runs. */
function live<T>(cache: Cache<T>, k: string, t: number): Slot<T> | undefined {
  const slot = cache.entries.get(k);
  return slot && t - slot.at < cache.ttlMs ? slot : undefined;
}

/** Keeps an entry as the newest; the oldest go past `maxEntries`. */
function remember<T>(cache: Cache<T>, k: string, slot: Slot<T>): void {
  cache.entries.delete(k);
  cache.entries.set(k, slot);
  while (cache.entries.size > cache.maxEntries) cache.entries.delete(cache.entries.keys().next().value!);
}

function fromRecord<T>(cache: Cache<T>, record: IdempotencyRecord | undefined, t: number): Head<T> | undefined {
  return record && record.expiresAt > t ? { fingerprint: record.fingerprint, value: Promise.resolve().then(() => cache.revive(record.response)), stored: true } : undefined;
}

function decide<T>(head: Head<T>, fingerprint: string, replayed: boolean): IdempotencyOutcome<T> {
  return head.fingerprint === fingerprint ? { conflict: false, replayed: replayed || head.stored, value: head.value } : { conflict: true };
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
