import { DB_NOW_MS, type PostgresDatabase } from './postgres';

/** The SQL condition "instance `column` is alive", with the lease length as parameter `$n`. */
export function aliveSql(column: string, n: number): string {
  return `EXISTS (SELECT 1 FROM instances i WHERE i.id = ${column} AND i.heartbeat_at >= ${DB_NOW_MS} - $${n})`;
}

/** Instances that missed their heartbeat, as one survivor removed them, with the thread leases they held. */
export interface ReapedInstances {
  instances: readonly string[];
  threads: readonly string[];
}

export interface InstanceMembershipOptions {
  instance: string;
  leaseMs: number;
  onError: (error: unknown) => void;
  /** This instance was counted dead (it stalled past its lease): its leases are gone. */
  onTakenOver: () => void;
  /** This instance removed dead ones. */
  onReap: (dead: ReapedInstances) => void;
}

/** This instance's row among the instances: joined, kept alive by a heartbeat, reaping the dead, left on close. */
export interface InstanceMembership {
  /** Adds this instance's row. */
  join(): Promise<void>;
  /** Starts the heartbeat (every `leaseMs / 3`) and the reaper (every `leaseMs / 2`). */
  start(): void;
  /** Stops both. */
  stop(): void;
  /** Removes this instance's row. */
  leave(): Promise<void>;
}

/**
 * A row per instance with a heartbeat on the database's clock. Deleting an
 * instance row is atomic, so exactly one survivor frees a dead instance's
 * leases and hears `onReap`.
 */
export function createInstanceMembership(db: PostgresDatabase, options: InstanceMembershipOptions): InstanceMembership {
  const { instance, leaseMs, onError } = options;
  let beat: ReturnType<typeof setInterval> | undefined;
  let reaper: ReturnType<typeof setInterval> | undefined;

  const heartbeat = async () => {
    const { rowCount } = await db.query(`UPDATE instances SET heartbeat_at = ${DB_NOW_MS} WHERE id = $1`, [instance]);
    if (rowCount === 0) {
      // Counted dead (this process stalled past its lease): its leases are gone, so it starts over.
      options.onTakenOver();
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
    if (dead.length) options.onReap({ instances: dead, threads: rows[0]?.threads ?? [] });
  };

  return {
    async join() {
      await db.query(`INSERT INTO instances (id, started_at, heartbeat_at) VALUES ($1, ${DB_NOW_MS}, ${DB_NOW_MS})`, [instance]);
    },
    start() {
      beat = setInterval(() => void heartbeat().catch(onError), Math.max(30, Math.floor(leaseMs / 3)));
      reaper = setInterval(() => void reap().catch(onError), Math.max(50, Math.floor(leaseMs / 2)));
      beat.unref();
      reaper.unref();
    },
    stop() {
      clearInterval(beat);
      clearInterval(reaper);
    },
    async leave() {
      await db.query('DELETE FROM instances WHERE id = $1', [instance]);
    },
  };
}
