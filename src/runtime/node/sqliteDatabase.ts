import type Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { requirePeer } from './requirePeer';
import { rememberDatabaseFile } from './sqliteFileGuard';

/**
 * An open workspace database, as `openWorkspaceDatabase` gives it (a better-sqlite3 `Database`, or one
 * a host opened itself): pass it to the SQLite stores. Its published type names only what a host
 * needs of it, so a server without better-sqlite3's types (`@types/better-sqlite3`) type-checks.
 */
export interface WorkspaceDatabase {
  /** The file it was opened on (`:memory:` for a private in-memory one). */
  readonly name: string;
  /** False once closed. */
  readonly open: boolean;
  /** Closes it; the stores on it stop working. */
  close(): unknown;
}

/**
 * The schema, one step per version: step i brings a file from version i to
 * i + 1 (version 0 is a new file). Add a step and the version follows.
 */
const MIGRATIONS: readonly string[] = [
  // 1: the thread event log and the jobs.
  `
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
  `,
  // 2: idempotent answers, the meter's books and saved skills.
  `
    CREATE TABLE IF NOT EXISTS idempotency (
      scope TEXT NOT NULL,
      key TEXT NOT NULL,
      fingerprint TEXT NOT NULL,
      response TEXT NOT NULL,
      created_at INTEGER NOT NULL,
      expires_at INTEGER NOT NULL,
      PRIMARY KEY (scope, key)
    ) WITHOUT ROWID;
    CREATE INDEX IF NOT EXISTS idempotency_by_expiry ON idempotency (expires_at);
    CREATE TABLE IF NOT EXISTS meter_books (
      user_id TEXT PRIMARY KEY,
      charged REAL NOT NULL
    ) WITHOUT ROWID;
    CREATE TABLE IF NOT EXISTS meter_holds (
      id TEXT PRIMARY KEY,
      user_id TEXT NOT NULL,
      units REAL NOT NULL,
      expires_at INTEGER NOT NULL
    ) WITHOUT ROWID;
    CREATE INDEX IF NOT EXISTS meter_holds_by_user ON meter_holds (user_id, expires_at);
    CREATE TABLE IF NOT EXISTS skills (
      path TEXT PRIMARY KEY,
      namespace TEXT NOT NULL,
      owner TEXT,
      saved_at INTEGER NOT NULL,
      body TEXT NOT NULL
    ) WITHOUT ROWID;
    CREATE INDEX IF NOT EXISTS skills_by_owner ON skills (owner);
  `,
  // 3: the users' own MCP servers (BYO MCP), by owner and label; the token stays on the server.
  `
    CREATE TABLE IF NOT EXISTS mcp_connectors (
      space TEXT NOT NULL,
      user_id TEXT NOT NULL,
      label TEXT NOT NULL,
      url TEXT NOT NULL,
      token TEXT,
      created_at INTEGER NOT NULL,
      PRIMARY KEY (space, user_id, label)
    ) WITHOUT ROWID;
  `,
];

const SCHEMA_VERSION = MIGRATIONS.length;

/**
 * Opens (or creates) the server's embedded database: the thread event log,
 * the jobs, idempotent answers, the meter's books and saved skills. A file
 * written by an earlier version gets the tables it lacks. `':memory:'` gives
 * a private in-memory database for tests. Files use write-ahead logging, so a
 * committed event survives the process being killed.
 * @example
 * const db = openWorkspaceDatabase('data/workspace.db');
 */
export function openWorkspaceDatabase(path: string): WorkspaceDatabase {
  if (typeof path !== 'string' || path.trim() === '') {
    throw new Error('openWorkspaceDatabase needs a file path (or ":memory:" for a database that lives only in this process).');
  }
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const db = new (requirePeer<typeof Database>('better-sqlite3'))(path, { timeout: 5_000 });
  if (path !== ':memory:') db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  // SQLite's own page cache size, 2 MB (better-sqlite3 builds with 16 MB): the cache fills as the file
  // grows and is never given back, so with 16 MB a server that had written 10,000 threads and evicted
  // them stayed 18 MB over where it started (2.6 MB with 2; bench/fanout-bench.mjs). A page it lacks
  // is one read from the OS's file cache.
  db.pragma('cache_size = -2000');
  db.pragma('foreign_keys = ON');
  const version = db.pragma('user_version', { simple: true }) as number;
  if (version > SCHEMA_VERSION) {
    db.close();
    throw new Error(`${path} was written by a newer ChatSurface (schema ${version}, this one knows ${SCHEMA_VERSION}); upgrade the package or use another file.`);
  }
  if (version < SCHEMA_VERSION) {
    // The steps after the file's version, in one transaction: a file is at one version or the next, never between.
    db.transaction(() => {
      for (const step of MIGRATIONS.slice(version)) db.exec(step);
      db.pragma(`user_version = ${SCHEMA_VERSION}`);
    }).immediate();
  }
  rememberDatabaseFile(db);
  return db;
}
