import type { IdempotencyRecord, IdempotencyStore } from '../doors/idempotency';
import type { WorkspaceDatabase } from './sqliteDatabase';
import { sqliteHandle } from './sqliteHandle';

/**
 * Finished idempotent answers in the workspace database: a restarted server
 * replays a retry's first answer instead of running (and charging) it again.
 * Answers at once, so the cache's synchronous `run` can use it too.
 * @example
 * const idempotency = createIdempotencyCache<DoorResponse>({ store: createSqliteIdempotencyStore(db), keep: (r) => r.kind !== 'refused' });
 */
export function createSqliteIdempotencyStore(database: WorkspaceDatabase): IdempotencyStore {
  const db = sqliteHandle(database);
  const select = db.prepare('SELECT fingerprint, response, created_at AS createdAt, expires_at AS expiresAt FROM idempotency WHERE scope = ? AND key = ?');
  const upsert = db.prepare(
    `INSERT INTO idempotency (scope, key, fingerprint, response, created_at, expires_at) VALUES (@scope, @key, @fingerprint, @response, @createdAt, @expiresAt)
     ON CONFLICT (scope, key) DO UPDATE SET fingerprint = excluded.fingerprint, response = excluded.response, created_at = excluded.created_at, expires_at = excluded.expires_at`,
  );
  const remove = db.prepare('DELETE FROM idempotency WHERE scope = ? AND key = ?');
  const purge = db.prepare('DELETE FROM idempotency WHERE expires_at <= ?');

  return {
    get(scope, key) {
      const row = select.get(scope, key) as { fingerprint: string; response: string; createdAt: number; expiresAt: number } | undefined;
      return row && { fingerprint: row.fingerprint, response: JSON.parse(row.response) as unknown, createdAt: row.createdAt, expiresAt: row.expiresAt };
    },
    put(scope, key, record: IdempotencyRecord) {
      upsert.run({
        scope,
        key,
        fingerprint: record.fingerprint,
        response: JSON.stringify(record.response ?? null),
        createdAt: Math.floor(record.createdAt),
        expiresAt: finite(record.expiresAt),
      });
    },
    delete(scope, key) {
      remove.run(scope, key);
    },
    purge(now) {
      return purge.run(finite(now)).changes;
    },
  };
}

/** Epoch ms as an INTEGER column takes it (an endless TTL kept as the largest safe integer). */
function finite(ms: number): number {
  return Number.isFinite(ms) ? Math.floor(ms) : ms > 0 ? Number.MAX_SAFE_INTEGER : Number.MIN_SAFE_INTEGER;
}
