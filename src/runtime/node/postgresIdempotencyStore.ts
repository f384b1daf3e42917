import type { IdempotencyRecord, IdempotencyStore } from '../doors/idempotency';
import { epochMs, type PostgresDatabase } from './postgres';
import { aliveSql } from './postgresCoordination';

export interface PostgresIdempotencyStoreOptions {
  /**
   * This instance, among several on the database: with it, a request is
   * claimed in the database before it runs, so a retry that reaches another
   * instance waits for the first run's answer instead of running again.
   */
  instance?: { id: string; leaseMs: number };
}

/**
 * Finished idempotent answers in PostgreSQL: a retry that reaches another
 * instance, or a restarted one, gets the first answer instead of a second
 * run (and charge). Answers with promises, so the cache takes `claim` (the
 * door's path), not the synchronous `run`.
 * @example
 * const idempotency = createIdempotencyCache<DoorResponse>({ store: createPostgresIdempotencyStore(db), keep: (r) => r.kind !== 'refused' });
 */
export function createPostgresIdempotencyStore(db: PostgresDatabase, options: PostgresIdempotencyStoreOptions = {}): IdempotencyStore {
  const { instance } = options;
  const store: IdempotencyStore = {
    async get(scope, key) {
      // A claim in flight (no response yet) is not an answer.
      const { rows } = await db.query<{ fingerprint: string; response: string; created_at: string; expires_at: string }>(
        'SELECT fingerprint, response, created_at, expires_at FROM idempotency WHERE scope = $1 AND key = $2 AND response IS NOT NULL',
        [scope, key],
      );
      const row = rows[0];
      return (
        row && { fingerprint: JSON.parse(row.fingerprint) as string, response: JSON.parse(row.response) as unknown, createdAt: Number(row.created_at), expiresAt: Number(row.expires_at) }
      );
    },
    async put(scope, key, record: IdempotencyRecord) {
      await db.query(
        `INSERT INTO idempotency (scope, key, fingerprint, response, created_at, expires_at) VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT (scope, key) DO UPDATE SET fingerprint = excluded.fingerprint, response = excluded.response, created_at = excluded.created_at, expires_at = excluded.expires_at`,
        // As JSON: a fingerprint holds a NUL between the verb and its arguments, which PostgreSQL text cannot.
        [scope, key, JSON.stringify(record.fingerprint), JSON.stringify(record.response ?? null), epochMs(record.createdAt), epochMs(record.expiresAt)],
      );
    },
    async delete(scope, key) {
      await db.query('DELETE FROM idempotency WHERE scope = $1 AND key = $2', [scope, key]);
    },
    async purge(now) {
      const { rowCount } = await db.query('DELETE FROM idempotency WHERE expires_at <= $1', [epochMs(now)]);
      return rowCount ?? 0;
    },
  };
  if (!instance) return store;
  store.begin = async (scope, key, claim) => {
    // Claimed when the key is new, expired, or claimed by an instance that died; never over a live claim or a kept answer.
    const { rowCount } = await db.query(
      `INSERT INTO idempotency AS r (scope, key, fingerprint, response, created_at, expires_at, owner) VALUES ($1, $2, $3, NULL, $4, $5, $6)
       ON CONFLICT (scope, key) DO UPDATE SET fingerprint = excluded.fingerprint, response = NULL, created_at = excluded.created_at,
         expires_at = excluded.expires_at, owner = excluded.owner
       WHERE r.expires_at <= $4 OR (r.response IS NULL AND (r.owner IS NULL OR NOT ${aliveSql('r.owner', 7)}))`,
      [scope, key, JSON.stringify(claim.fingerprint), epochMs(claim.createdAt), epochMs(claim.expiresAt), instance.id, instance.leaseMs],
    );
    if (rowCount === 1) return { begun: true };
    const { rows } = await db.query<{ fingerprint: string; response: string | null; created_at: string; expires_at: string }>(
      'SELECT fingerprint, response, created_at, expires_at FROM idempotency WHERE scope = $1 AND key = $2',
      [scope, key],
    );
    const row = rows[0];
    // Gone meanwhile (its run failed and dropped the claim): the caller asks again.
    if (!row) return { begun: false, pending: claim.fingerprint };
    const fingerprint = JSON.parse(row.fingerprint) as string;
    if (row.response === null) return { begun: false, pending: fingerprint };
    return {
      begun: false,
      record: { fingerprint, response: JSON.parse(row.response) as unknown, createdAt: Number(row.created_at), expiresAt: Number(row.expires_at) },
    };
  };
  return store;
}
