import type { IdempotencyRecord, IdempotencyStore } from '../doors/idempotency';
import { epochMs, type PostgresDatabase } from './postgres';

/**
 * Finished idempotent answers in PostgreSQL: a retry that reaches another
 * instance, or a restarted one, gets the first answer instead of a second
 * run (and charge). Answers with promises, so the cache takes `claim` (the
 * door's path), not the synchronous `run`.
 * @example
 * const idempotency = createIdempotencyCache<DoorResponse>({ store: createPostgresIdempotencyStore(db), keep: (r) => r.kind !== 'refused' });
 */
export function createPostgresIdempotencyStore(db: PostgresDatabase): IdempotencyStore {
  return {
    async get(scope, key) {
      const { rows } = await db.query<{ fingerprint: string; response: string; created_at: string; expires_at: string }>(
        'SELECT fingerprint, response, created_at, expires_at FROM idempotency WHERE scope = $1 AND key = $2',
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
}
