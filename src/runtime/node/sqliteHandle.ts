import type Database from 'better-sqlite3';
import type { WorkspaceDatabase } from './sqliteDatabase';

/** The better-sqlite3 `Database` the SQLite stores work on: inside the kit only, never in its published types. */
export type SqliteHandle = Database.Database;

/**
 * The better-sqlite3 database behind a `WorkspaceDatabase`. `openWorkspaceDatabase` makes one, and a
 * host's own `new Database(file)` is one too; the published type only hides which package it is.
 */
export function sqliteHandle(db: WorkspaceDatabase): SqliteHandle {
  return db as SqliteHandle;
}
