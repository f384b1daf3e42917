import { DB_NOW_MS, type PostgresDatabase } from './postgres';
import { aliveSql } from './postgresInstances';

/** This instance's thread leases on PostgreSQL: a row per thread being written, taken over from a dead owner. */
export interface PostgresLeases {
  tryAcquire(key: string): Promise<boolean>;
  acquire(key: string, signal?: AbortSignal): Promise<void>;
  release(key: string): Promise<void>;
  holder(key: string): Promise<string | null>;
  /** A lease was given back (an `r key` notification): the acquires waiting for it look again. */
  released(key: string): void;
  /** Wakes every waiting acquire (the instance is closing). */
  wakeAll(): void;
  /** Forgets the leases this instance believes it holds (they were taken over, or given back on close). */
  forgetHeld(): void;
  /** Gives back every lease of this instance at once (leaving cleanly: the others need not wait out the lease). */
  dropAll(): Promise<void>;
}

export interface PostgresLeaseOptions {
  instance: string;
  leaseMs: number;
  /** True once the instance is shutting down: a waiting acquire gives up. */
  closed: () => boolean;
}

/** The leases of one instance: operations on one key run in order, a waiting acquire is woken by a release anywhere. */
export function createPostgresLeases(db: PostgresDatabase, { instance, leaseMs, closed }: PostgresLeaseOptions): PostgresLeases {
  /** Waiting `acquire`s by key: woken when a lease is given back. */
  const waiters = new Map<string, Set<() => void>>();
  /** Lease operations per key, in order (an acquire never overtakes the release before it). */
  const ops = new Map<string, Promise<unknown>>();
  const held = new Set<string>();

  const serial = <T>(key: string, op: () => Promise<T>): Promise<T> => {
    const next = (ops.get(key) ?? Promise.resolve()).then(op, op);
    const tail = next.catch(() => undefined);
    ops.set(key, tail);
    void tail.then(() => {
      if (ops.get(key) === tail) ops.delete(key);
    });
    return next;
  };

  const take = async (key: string): Promise<boolean> => {
    const { rowCount } = await db.query(
      `INSERT INTO thread_leases AS l (key, owner, taken_at) VALUES ($1, $2, ${DB_NOW_MS})
       ON CONFLICT (key) DO UPDATE SET owner = excluded.owner, taken_at = excluded.taken_at
       WHERE l.owner = excluded.owner OR NOT ${aliveSql('l.owner', 3)}`,
      [key, instance, leaseMs],
    );
    if (rowCount === 1) held.add(key);
    return rowCount === 1;
  };

  /** Resolves on a release of `key`, an abort, or after `delay` ms, whichever comes first. */
  const waitForRelease = (key: string, delay: number, signal?: AbortSignal) =>
    new Promise<void>((resolve) => {
      let set = waiters.get(key);
      if (!set) waiters.set(key, (set = new Set()));
      const done = () => {
        clearTimeout(timer);
        set.delete(done);
        if (set.size === 0 && waiters.get(key) === set) waiters.delete(key);
        signal?.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, delay);
      set.add(done);
      signal?.addEventListener('abort', done, { once: true });
    });

  const leases: PostgresLeases = {
    tryAcquire: (key) => serial(key, () => take(key)),
    async acquire(key, signal) {
      for (let delay = 10; ; delay = Math.min(delay * 2, 250)) {
        signal?.throwIfAborted();
        if (closed()) throw new Error('This instance is shutting down.');
        if (await leases.tryAcquire(key)) return;
        // Held by a live instance: wait for its release, its death (a reap frees it) or the next look.
        await waitForRelease(key, delay, signal);
      }
    },
    release: (key) =>
      serial(key, async () => {
        if (!held.delete(key)) return;
        await db.query(`DELETE FROM thread_leases WHERE key = $1 AND owner = $2 RETURNING pg_notify($3, 'r ' || key)`, [key, instance, db.channel]);
      }),
    async holder(key) {
      const { rows } = await db.query<{ owner: string }>(`SELECT owner FROM thread_leases l WHERE key = $1 AND ${aliveSql('l.owner', 2)}`, [key, leaseMs]);
      return rows[0]?.owner ?? null;
    },
    released(key) {
      for (const wake of [...(waiters.get(key) ?? [])]) wake();
    },
    wakeAll() {
      for (const set of waiters.values()) for (const wake of [...set]) wake();
    },
    forgetHeld() {
      held.clear();
    },
    async dropAll() {
      await db.query('DELETE FROM thread_leases WHERE owner = $1', [instance]);
    },
  };
  return leases;
}
