import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';

/** An open workspace database (better-sqlite3). */
export type WorkspaceDatabase = Database.Database;

const SCHEMA_VERSION = 1;

/**
 * Opens (or creates) the server's embedded database: the thread event log and
 * the jobs. `':memory:'` gives a private in-memory database for tests. Files
 * use write-ahead logging, so a committed event survives the process being
 * killed.
 * @example
 * const db = openWorkspaceDatabase('data/workspace.db');
 */
export function openWorkspaceDatabase(path: string): WorkspaceDatabase {
  if (typeof path !== 'string' || path.trim() === '') {
    throw new Error('openWorkspaceDatabase needs a file path (or ":memory:" for a database that lives only in this process).');
  }
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const db = new Database(path, { timeout: 5_000 });
  if (path !== ':memory:') db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  const version = db.pragma('user_version', { simple: true }) as number;
  if (version > SCHEMA_VERSION) {
    db.close();
    throw new Error(`${path} was written by a newer ChatSurface (schema ${version}, this one knows ${SCHEMA_VERSION}); upgrade the package or use another file.`);
  }
  db.exec(`
    CREATE TABLE IF NOT EXISTS thread_events (
      thread_id TEXT NOT NULL,
      seq INTEGER NOT NULL,
      body TEXT NOT NULL,
      PRIMARY KEY (thread_id, seq)
    ) WITHOUT ROWID;
    CREATE TABLE IF NOT EXISTS jobs (
      id TEXT PRIMARY KEY,
      thread_id TEXT NOT NULL,
      status TEXT NOT NULL,
      created_at INTEGER NOT NULL,
      body TEXT NOT NULL
    );
    CREATE INDEX IF NOT EXISTS jobs_by_thread ON jobs (thread_id, created_at DESC);
    CREATE INDEX IF NOT EXISTS jobs_by_time ON jobs (created_at DESC);
    CREATE INDEX IF NOT EXISTS jobs_unfinished ON jobs (status) WHERE status IN ('queued', 'running');
  `);
  db.pragma(`user_version = ${SCHEMA_VERSION}`);
  return db;
}
