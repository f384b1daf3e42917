/**
 * Remembers what a request with an `Idempotency-Key` produced, so a retry
 * gets the first answer instead of a second execution (and a second charge).
 * Entries are per key holder: two API keys may use the same idempotency key.
 */
export interface IdempotencyCache<T> {
  /**
   * The first call with `(owner, key)` runs `work` and stores its promise;
   * later calls with the same fingerprint get that promise (`replayed: true`),
   * with another fingerprint `conflict: true` and nothing runs.
   */
  run(owner: string, key: string, fingerprint: string, work: () => Promise<T>): { conflict: true } | { conflict: false; replayed: boolean; value: Promise<T> };
  /** Forgets an entry (used when the first attempt was refused before running, so a retry may run). */
  forget(owner: string, key: string): void;
}

export interface IdempotencyCacheOptions {
  /** How long an answer is kept. @default 24 h */
  ttlMs?: number;
  /** Entries kept at most; the oldest go first. @default 10_000 */
  maxEntries?: number;
  /** @default Date.now */
  now?: () => number;
}

/**
 * An idempotency cache in memory.
 * @example
 * const cache = createIdempotencyCache<Response>();
 * const entry = cache.run(principal.id, key, fingerprint(name, body), () => execute());
 */
export function createIdempotencyCache<T>(options: IdempotencyCacheOptions = {}): IdempotencyCache<T> {
  const { ttlMs = 86_400_000, maxEntries = 10_000, now = Date.now } = options;
  const entries = new Map<string, { fingerprint: string; value: Promise<T>; at: number }>();
  const id = (owner: string, key: string) => `${owner}\u0000${key}`;

  return {
    run(owner, key, fingerprint, work) {
      const k = id(owner, key);
      const t = now();
      const existing = entries.get(k);
      if (existing && t - existing.at < ttlMs) {
        return existing.fingerprint === fingerprint ? { conflict: false, replayed: true, value: existing.value } : { conflict: true };
      }
      // Set before anything awaits, so concurrent retries find this entry.
      const entry = { fingerprint, value: Promise.resolve().then(work), at: t };
      entries.delete(k);
      entries.set(k, entry);
      while (entries.size > maxEntries) entries.delete(entries.keys().next().value!);
      return { conflict: false, replayed: false, value: entry.value };
    },
    forget(owner, key) {
      entries.delete(id(owner, key));
    },
  };
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
