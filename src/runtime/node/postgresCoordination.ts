import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import type { Coordination } from '../stores/coordination';
import { DB_NOW_MS, type PostgresDatabase } from './postgres';

export interface PostgresCoordinationOptions {
  /** An instance that misses its heartbeat this long is dead: its threads' work is closed as interrupted, its jobs fail. @default 10000 */
  leaseMs?: number;
  /** This instance's id. @default random */
  instance?: string;
  /** Hears a failed heartbeat, reap or reconnect. @default console.error */
  onError?: (error: unknown) => void;
}

/** The SQL condition "instance `column` is alive", with the lease length as parameter `$n`. */
export function aliveSql(column: string, n: number): string {
  return `EXISTS (SELECT 1 FROM instances i WHERE i.id = ${column} AND i.heartbeat_at >= ${DB_NOW_MS} - $${n})`;
}

/** The payload NOTIFY carries: short, so it always fits PostgreSQL's 8000 bytes (a longer key says "re-read everything"). */
export function appendPayload(key: string, seq: number): string {
  return Buffer.byteLength(key) > 7_000 ? `a ${seq} *` : `a ${seq} ${key}`;
}

/**
 * Several instances on one PostgreSQL: a row per instance with a heartbeat
 * (on the database's clock), a lease row per thread being written, and one
 * LISTEN connection for appends (`a seq key`, sent by the event store in the
 * append's own transaction), cancels (`c key id`) and given-back leases
 * (`r key`, which wake a waiting `acquire`). Every `leaseMs / 2` each
 * instance reaps the dead: deleting an instance row is atomic, so exactly one
 * survivor frees a dead instance's leases and hears `onReap`.
 * @example
 * const db = await openPostgres(url);
 * const coordination = await createPostgresCoordination(db, { leaseMs: 10_000 });
 * const host = createThreadHost({ capabilities, events: createPostgresEventStore(db), coordination });
 */
export async function createPostgresCoordination(db: PostgresDatabase, options: PostgresCoordinationOptions = {}): Promise<Coordination> {
  const leaseMs = options.leaseMs ?? 10_000;
  if (!(leaseMs >= 100)) throw new Error(`leaseMs must be at least 100 ms, not ${String(options.leaseMs)}.`);
  const instance = options.instance ?? `inst_${randomBytes(9).toString('base64url')}`;
  const onError = options.onError ?? ((error: unknown) => console.error('[chatsurface] instance coordination failed:', error));
  const appendListeners = new Set<(key: string, seq: number) => void>();
  const cancelListeners = new Set<(key: string, id: string) => void>();
  const reapListeners = new Set<(dead: { instances: readonly string[]; threads: readonly string[] }) => void>();
  /** Waiting `acquire`s by key: woken when a lease is given back. */
  const waiters = new Map<string, Set<() => void>>();
  /** Lease operations per key, in order (an acquire never overtakes the release before it). */
  const ops = new Map<string, Promise<unknown>>();
  const held = new Set<string>();
  let closed = false;

  const serial = <T>(key: string, op: () => Promise<T>): Promise<T> => {
    const next = (ops.get(key) ?? Promise.resolve()).then(op, op);
    const tail = next.catch(() => undefined);
    ops.set(key, tail);
    void tail.then(() => {
      if (ops.get(key) === tail) ops.delete(key);
    });
    return next;
  };

  const call = <T>(set: Set<(...args: never[]) => void>, ...args: unknown[]) => {
    for (const listener of [...set]) {
      try {
        (listener as (...a: unknown[]) => T)(...args);
      } catch (error) {
        onError(error);
      }
    }
  };

  const onNotification = (payload: string) => {
    const kind = payload[0];
    const rest = payload.slice(2);
    if (kind === 'a') {
      const space = rest.indexOf(' ');
      call(appendListeners, rest.slice(space + 1), Number(rest.slice(0, space)));
    } else if (kind === 'c') {
      const space = rest.lastIndexOf(' ');
      call(cancelListeners, rest.slice(0, space), rest.slice(space + 1));
    } else if (kind === 'r') {
      for (const wake of [...(waiters.get(rest) ?? [])]) wake();
    }
  };

  // One connection outside the pool hears the channel; when it drops, a new one follows and the followers re-read.
  let listener: pg.Client | null = null;
  const listen = async (): Promise<void> => {
    const client = db.dedicated();
    client.on('notification', (message) => {
      if (message.channel === db.channel && message.payload) onNotification(message.payload);
    });
    client.on('error', (error) => {
      onError(error);
      if (listener === client) void reconnect();
    });
    await client.connect();
    await client.query(`LISTEN "${db.channel}"`);
    listener = client;
  };
  let reconnecting = false;
  const reconnect = async () => {
    if (closed || reconnecting) return;
    reconnecting = true;
    listener = null;
    for (let delay = 100; !closed; delay = Math.min(delay * 2, 2_000)) {
      try {
        await listen();
        // Appends made while nobody listened: every follower reads what it missed.
        call(appendListeners, '*', 0);
        break;
      } catch (error) {
        onError(error);
        await sleep(delay);
      }
    }
    reconnecting = false;
  };

  await db.query(`INSERT INTO instances (id, started_at, heartbeat_at) VALUES ($1, ${DB_NOW_MS}, ${DB_NOW_MS})`, [instance]);
  await listen();

  const heartbeat = async () => {
    const { rowCount } = await db.query(`UPDATE instances SET heartbeat_at = ${DB_NOW_MS} WHERE id = $1`, [instance]);
    if (rowCount === 0) {
      // Counted dead (this process stalled past its lease): its leases are gone, so it starts over.
      held.clear();
      await db.query(`INSERT INTO instances (id, started_at, heartbeat_at) VALUES ($1, ${DB_NOW_MS}, ${DB_NOW_MS}) ON CONFLICT (id) DO NOTHING`, [instance]);
      onError(new Error(`Instance ${instance} missed its heartbeat for over ${leaseMs} ms; its thread leases were taken over.`));
    }
  };
  const reap = async () => {
    const { rows } = await db.query<{ instances: string[] | null; threads: string[] | null }>(
      `WITH dead AS (DELETE FROM instances WHERE heartbeat_at < ${DB_NOW_MS} - $1 RETURNING id),
            freed AS (DELETE FROM thread_leases WHERE owner IN (SELECT id FROM dead) RETURNING key)
       SELECT (SELECT array_agg(id) FROM dead) AS instances, (SELECT array_agg(key) FROM freed) AS threads`,
      [leaseMs],
    );
    const dead = rows[0]?.instances ?? [];
    if (dead.length) call(reapListeners, { instances: dead, threads: rows[0]?.threads ?? [] });
  };
  const beat = setInterval(() => void heartbeat().catch(onError), Math.max(30, Math.floor(leaseMs / 3)));
  const reaper = setInterval(() => void reap().catch(onError), Math.max(50, Math.floor(leaseMs / 2)));
  beat.unref();
  reaper.unref();

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

  const coordination: Coordination = {
    instance,
    leaseMs,
    tryAcquire: (key) => serial(key, () => take(key)),
    async acquire(key, signal) {
      for (let delay = 10; ; delay = Math.min(delay * 2, 250)) {
        signal?.throwIfAborted();
        if (closed) throw new Error('This instance is shutting down.');
        if (await coordination.tryAcquire(key)) return;
        // Held by a live instance: wait for its release, its death (a reap frees it) or the next look.
        await new Promise<void>((resolve) => {
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
    onAppend: (listener) => subscribe(appendListeners, listener),
    async requestCancel(key, id) {
      await db.query('SELECT pg_notify($1, $2)', [db.channel, `c ${key} ${id}`]);
    },
    onCancel: (listener) => subscribe(cancelListeners, listener),
    onReap: (listener) => subscribe(reapListeners, listener),
    async close() {
      if (closed) return;
      closed = true;
      clearInterval(beat);
      clearInterval(reaper);
      for (const set of waiters.values()) for (const wake of [...set]) wake();
      const client = listener;
      listener = null;
      await client?.end().catch(() => undefined);
      // Leaving cleanly: the others need not wait out the lease.
      await db.query('DELETE FROM thread_leases WHERE owner = $1', [instance]).catch(onError);
      await db.query('DELETE FROM instances WHERE id = $1', [instance]).catch(onError);
      held.clear();
    },
  };
  return coordination;
}

function subscribe<L>(set: Set<L>, listener: L): () => void {
  set.add(listener);
  return () => void set.delete(listener);
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
