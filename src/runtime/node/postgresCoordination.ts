import { randomBytes } from 'node:crypto';
import type { Coordination } from '../stores/coordination';
import type { PostgresDatabase } from './postgres';
import { listenToChannel } from './postgresChannel';
import { createInstanceMembership, type ReapedInstances } from './postgresInstances';
import { createPostgresLeases } from './postgresLeases';

export { appendPayload } from './postgresChannel';
export { aliveSql } from './postgresInstances';

export interface PostgresCoordinationOptions {
  /** An instance that misses its heartbeat this long is dead: its threads' work is closed as interrupted, its jobs fail. @default 10000 */
  leaseMs?: number;
  /** This instance's id. @default random */
  instance?: string;
  /** Hears a failed heartbeat, reap or reconnect. @default console.error */
  onError?: (error: unknown) => void;
}

/**
 * Several instances on one PostgreSQL: a row per instance with a heartbeat
 * (on the database's clock), a lease row per thread being written, and one
 * LISTEN connection for appends (`a seq key`, sent by the event store in the
 * append's own transaction), cancels (`c key id`) and given-back leases
 * (`r key`, which wake a waiting `acquire`). Every `leaseMs / 2` each
 * instance reaps the dead: deleting an instance row is atomic, so exactly one
 * survivor frees a dead instance's leases and hears `onReap`. The parts:
 * the instance rows (postgresInstances.ts), the leases (postgresLeases.ts)
 * and the channel (postgresChannel.ts).
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
  const reapListeners = new Set<(dead: ReapedInstances) => void>();
  let closed = false;

  const leases = createPostgresLeases(db, { instance, leaseMs, closed: () => closed });
  const membership = createInstanceMembership(db, {
    instance,
    leaseMs,
    onError,
    onTakenOver: () => leases.forgetHeld(),
    onReap: (dead) => call(reapListeners, onError, dead),
  });
  await membership.join();
  const channel = await listenToChannel(db, {
    onAppend: (key, seq) => call(appendListeners, onError, key, seq),
    onCancel: (key, id) => call(cancelListeners, onError, key, id),
    onRelease: (key) => leases.released(key),
    onError,
  });
  membership.start();

  return {
    instance,
    leaseMs,
    tryAcquire: (key) => leases.tryAcquire(key),
    acquire: (key, signal) => leases.acquire(key, signal),
    release: (key) => leases.release(key),
    holder: (key) => leases.holder(key),
    onAppend: (listener) => subscribe(appendListeners, listener),
    async requestCancel(key, id) {
      await db.query('SELECT pg_notify($1, $2)', [db.channel, `c ${key} ${id}`]);
    },
    onCancel: (listener) => subscribe(cancelListeners, listener),
    onReap: (listener) => subscribe(reapListeners, listener),
    async close() {
      if (closed) return;
      closed = true;
      membership.stop();
      leases.wakeAll();
      await channel.close();
      // Leaving cleanly: the others need not wait out the lease.
      await leases.dropAll().catch(onError);
      await membership.leave().catch(onError);
      leases.forgetHeld();
    },
  };
}

/** Calls every listener of a set; one that throws is reported and the others still hear. */
function call<A extends unknown[]>(set: Set<(...args: A) => void>, onError: (error: unknown) => void, ...args: A): void {
  for (const listener of [...set]) {
    try {
      listener(...args);
    } catch (error) {
      onError(error);
    }
  }
}

function subscribe<L>(set: Set<L>, listener: L): () => void {
  set.add(listener);
  return () => void set.delete(listener);
}
