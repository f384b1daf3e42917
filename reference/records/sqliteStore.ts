import type { Database } from 'better-sqlite3';
import { insertRecords, openRecordsDb } from './db.mjs';
import type { RecordRow, RecordStore } from './store';

/** The records in SQLite: the same file the CSV ingest script writes to. */
export function createSqliteRecordStore(path: string): RecordStore & { db: Database; close(): void } {
  const db = openRecordsDb(path);
  const where = (enriched?: boolean) => (enriched === undefined ? '' : enriched ? 'WHERE enriched_at IS NOT NULL' : 'WHERE enriched_at IS NULL');
  return {
    db,
    async list({ limit = 100, offset = 0, enriched } = {}) {
      return db.prepare(`SELECT * FROM records ${where(enriched)} ORDER BY id LIMIT ? OFFSET ?`).all(limit, offset) as RecordRow[];
    },
    async get(id) {
      return db.prepare('SELECT * FROM records WHERE id = ?').get(id) as RecordRow | undefined;
    },
    async count({ enriched } = {}) {
      return (db.prepare(`SELECT COUNT(*) AS n FROM records ${where(enriched)}`).get() as { n: number }).n;
    },
    async insert(records) {
      return insertRecords(db, records);
    },
    async enrich(id, e) {
      const info = db
        .prepare('UPDATE records SET industry = ?, website = ?, employees = ?, enriched_at = ? WHERE id = ?')
        .run(e.industry, e.website, e.employees, new Date().toISOString(), id);
      if (info.changes === 0) throw new Error(`There is no record ${id}.`);
    },
    close: () => db.close(),
  };
}
