import { statSync } from 'node:fs';
import type Database from 'better-sqlite3';

/** The better-sqlite3 database (as `SqliteHandle`, named here without importing it: sqliteDatabase.ts imports this file). */
type SqliteHandle = Database.Database;

/** The file a database was opened on, as the file system knows it (device and inode), by database. */
const opened = new WeakMap<SqliteHandle, { dev: number; ino: number }>();

function identity(path: string): { dev: number; ino: number } | null {
  try {
    const stat = statSync(path);
    return { dev: stat.dev, ino: stat.ino };
  } catch {
    return null;
  }
}

/** Notes the file `db` was opened on (nothing for `:memory:`), for `checkDatabaseFile`. */
export function rememberDatabaseFile(db: SqliteHandle): void {
  if (db.memory) return;
  const known = identity(db.name);
  if (known) opened.set(db, known);
}

/**
 * Before a write: throws, loudly and with code `SQLITE_READONLY_DBMOVED`, when the file the database
 * was opened on is gone or another file stands at its path (deleted or replaced while the server
 * ran). SQLite would go on writing to the removed file, which nobody reads again: what the server
 * said it stored would be lost. The server answers such a request 503 and logs why.
 */
export function checkDatabaseFile(db: SqliteHandle): void {
  const known = opened.get(db);
  if (!known) return;
  const now = identity(db.name);
  if (now && now.dev === known.dev && now.ino === known.ino) return;
  throw Object.assign(
    new Error(`The database file ${db.name} was ${now ? 'replaced' : 'removed'} while the server ran, so nothing more is written to it (it would be lost). Restart the server to open the file now at that path.`),
    { code: 'SQLITE_READONLY_DBMOVED' },
  );
}
