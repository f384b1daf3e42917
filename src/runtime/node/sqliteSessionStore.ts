import type Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { requirePeer } from './requirePeer';
import type { Principal } from '../principal';
import type { SessionStore, SessionStoreOptions } from '../stores/sessionStore';
import type { WorkspaceDatabase } from './sqliteDatabase';
import { sqliteHandle, type SqliteHandle } from './sqliteHandle';

/** The SessionStore on SQLite, plus closing the database when the store opened it. */
export interface SqliteSessionStore extends SessionStore {
  /** Closes the database if the store opened it from a path; a database passed in is left open. */
  close(): void;
}

/**
 * Sessions in SQLite (a `sessions` table, created if missing): an open
 * workspace database, or a file path of its own (`':memory:'` for tests).
 * Only the token's hash is stored; expired rows are never returned and are
 * deleted as new sessions are created.
 * @example
 * const sessions = createSqliteSessionStore('data/sessions.db');
 */
export function createSqliteSessionStore(database: WorkspaceDatabase | string, { now = Date.now }: SessionStoreOptions = {}): SqliteSessionStore {
  const owned = typeof database === 'string';
  const db = owned ? openFile(database) : sqliteHandle(database);
  db.exec(`
    CREATE TABLE IF NOT EXISTS sessions (
      token_hash TEXT PRIMARY KEY,
      user_id TEXT NOT NULL,
      principal TEXT NOT NULL,
      created_at INTEGER NOT NULL,
      expires_at INTEGER NOT NULL
    ) WITHOUT ROWID;
    CREATE INDEX IF NOT EXISTS sessions_by_expiry ON sessions (expires_at);
  `);
  const upsert = db.prepare(
    `INSERT INTO sessions (token_hash, user_id, principal, created_at, expires_at) VALUES (@tokenHash, @user, @principal, @createdAt, @expiresAt)
     ON CONFLICT (token_hash) DO UPDATE SET user_id = excluded.user_id, principal = excluded.principal, created_at = excluded.created_at, expires_at = excluded.expires_at`,
  );
  const prune = db.prepare('DELETE FROM sessions WHERE expires_at <= ?');
  const byHash = db.prepare('SELECT principal, created_at AS createdAt, expires_at AS expiresAt FROM sessions WHERE token_hash = ? AND expires_at > ?');
  const touch = db.prepare('UPDATE sessions SET expires_at = ? WHERE token_hash = ? AND expires_at > ?');
  const remove = db.prepare('DELETE FROM sessions WHERE token_hash = ?');

  return {
    create(record) {
      prune.run(now());
      upsert.run({
        tokenHash: record.tokenHash,
        user: record.principal.user,
        principal: JSON.stringify(record.principal),
        createdAt: record.createdAt,
        expiresAt: record.expiresAt,
      });
    },
    get(tokenHash) {
      const row = byHash.get(tokenHash, now()) as { principal: string; createdAt: number; expiresAt: number } | undefined;
      return row ? { tokenHash, principal: JSON.parse(row.principal) as Principal, createdAt: row.createdAt, expiresAt: row.expiresAt } : null;
    },
    touch(tokenHash, expiresAt) {
      touch.run(expiresAt, tokenHash, now());
    },
    delete(tokenHash) {
      remove.run(tokenHash);
    },
    close() {
      if (owned && db.open) db.close();
    },
  };
}

function openFile(path: string): SqliteHandle {
  if (path.trim() === '') throw new Error('createSqliteSessionStore needs a database or a file path (":memory:" for one that lives only in this process).');
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const db = new (requirePeer<typeof Database>('better-sqlite3'))(path, { timeout: 5_000 });
  if (path !== ':memory:') db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  return db;
}
