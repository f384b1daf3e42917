// @ts-check
// The records table in SQLite (better-sqlite3). Shared by the server's
// capabilities and the CSV ingest script, which runs as its own process.
import Database from 'better-sqlite3';

/**
 * @typedef {{ id: number, name: string, email: string, company: string | null, website: string | null,
 *   employees: number | null, country: string | null, since: string | null,
 *   industry: string | null, enriched_at: string | null, created_at: string }} RecordRow
 */

/**
 * Opens (and creates when needed) the records database.
 * @param {string} path a file path, or ':memory:'
 */
export function openRecordsDb(path) {
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.pragma('busy_timeout = 5000');
  db.exec(`CREATE TABLE IF NOT EXISTS records (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    name TEXT NOT NULL,
    email TEXT NOT NULL UNIQUE,
    company TEXT,
    website TEXT,
    employees INTEGER,
    country TEXT,
    since TEXT,
    industry TEXT,
    enriched_at TEXT,
    created_at TEXT NOT NULL
  )`);
  return db;
}

/**
 * Inserts records; a record whose email already exists is skipped.
 * @param {import('better-sqlite3').Database} db
 * @param {Record<string, unknown>[]} records
 * @returns {number} how many rows were inserted
 */
export function insertRecords(db, records) {
  const insert = db.prepare(`INSERT OR IGNORE INTO records (name, email, company, website, employees, country, since, created_at)
    VALUES (@name, @email, @company, @website, @employees, @country, @since, @created_at)`);
  const now = new Date().toISOString();
  const run = db.transaction((/** @type {Record<string, unknown>[]} */ rows) => {
    let inserted = 0;
    for (const r of rows) {
      inserted += insert.run({
        name: r.name ?? null,
        email: r.email ?? null,
        company: r.company ?? null,
        website: r.website ?? null,
        employees: r.employees ?? null,
        country: r.country ?? null,
        since: r.since ?? null,
        created_at: now,
      }).changes;
    }
    return inserted;
  });
  return run(records);
}

/**
 * @param {import('better-sqlite3').Database} db
 * @returns {number}
 */
export function countRecords(db) {
  return /** @type {{ n: number }} */ (db.prepare('SELECT COUNT(*) AS n FROM records').get()).n;
}
