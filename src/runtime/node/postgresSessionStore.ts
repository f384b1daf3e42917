import type { Principal } from '../principal';
import type { SessionStore, SessionStoreOptions } from '../stores/sessionStore';
import { epochMs, type PostgresDatabase } from './postgres';

/**
 * Sessions in PostgreSQL, shared by every instance on the database: a browser
 * signed in through one instance is signed in on all. Only the token's hash
 * is stored; expired rows are never returned and are deleted as new
 * sessions are created.
 * @example
 * const sessions = createPostgresSessionStore(await openPostgres(process.env.DATABASE_URL!));
 */
export function createPostgresSessionStore(db: PostgresDatabase, { now = Date.now }: SessionStoreOptions = {}): SessionStore {
  return {
    async create(record) {
      await db.query('DELETE FROM sessions WHERE expires_at <= $1', [epochMs(now())]);
      await db.query(
        `INSERT INTO sessions (token_hash, user_id, principal, created_at, expires_at) VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (token_hash) DO UPDATE SET user_id = excluded.user_id, principal = excluded.principal, created_at = excluded.created_at, expires_at = excluded.expires_at`,
        [record.tokenHash, record.principal.user, JSON.stringify(record.principal), epochMs(record.createdAt), epochMs(record.expiresAt)],
      );
    },
    async get(tokenHash) {
      const { rows } = await db.query<{ principal: string; created_at: string; expires_at: string }>(
        'SELECT principal, created_at, expires_at FROM sessions WHERE token_hash = $1 AND expires_at > $2',
        [tokenHash, epochMs(now())],
      );
      const row = rows[0];
      return row ? { tokenHash, principal: JSON.parse(row.principal) as Principal, createdAt: Number(row.created_at), expiresAt: Number(row.expires_at) } : null;
    },
    async touch(tokenHash, expiresAt) {
      await db.query('UPDATE sessions SET expires_at = $1 WHERE token_hash = $2 AND expires_at > $3', [epochMs(expiresAt), tokenHash, epochMs(now())]);
    },
    async delete(tokenHash) {
      await db.query('DELETE FROM sessions WHERE token_hash = $1', [tokenHash]);
    },
  };
}
