import type { CapClaim, CapLimits, CapResult, CapStore } from '../stores/capStore';
import type { WorkspaceDatabase } from './sqliteDatabase';
import { checkDatabaseFile } from './sqliteFileGuard';
import { sqliteHandle } from './sqliteHandle';

/**
 * Caps beyond one user's (per space, per client address) counted in the
 * workspace database (`cap_claims`, created when missing): a restart or a
 * new guest cookie does not reset them. A claim is one immediate
 * transaction (the write lock first, then the counts), so two processes on
 * the file cannot both take the last place.
 * @example
 * const caps = createSqliteCapStore(db);
 */
export function createSqliteCapStore(database: WorkspaceDatabase): CapStore {
  const db = sqliteHandle(database);
  db.exec(`
    CREATE TABLE IF NOT EXISTS cap_claims (
      kind TEXT NOT NULL,
      item TEXT NOT NULL,
      space_id TEXT NOT NULL,
      address TEXT,
      at INTEGER NOT NULL,
      PRIMARY KEY (kind, item)
    ) WITHOUT ROWID;
    CREATE INDEX IF NOT EXISTS cap_claims_by_space ON cap_claims (kind, space_id);
    CREATE INDEX IF NOT EXISTS cap_claims_by_address ON cap_claims (kind, address, at) WHERE address IS NOT NULL;
  `);
  const exists = db.prepare('SELECT 1 FROM cap_claims WHERE kind = ? AND item = ?').pluck();
  const inSpace = db.prepare('SELECT count(*) FROM cap_claims WHERE kind = ? AND space_id = ?').pluck();
  const fromAddress = db.prepare('SELECT count(*) AS n, min(at) AS oldest FROM cap_claims WHERE kind = ? AND address = ? AND at > ?');
  const insert = db.prepare('INSERT INTO cap_claims (kind, item, space_id, address, at) VALUES (?, ?, ?, ?, ?)');
  const remove = db.prepare('DELETE FROM cap_claims WHERE kind = ? AND item = ?');

  const claim = db.transaction((c: CapClaim, limits: CapLimits): CapResult => {
    if (exists.get(c.kind, c.item)) return { ok: true };
    const count = inSpace.get(c.kind, c.space) as number;
    if (count >= limits.perSpace) return { ok: false, over: 'space', count, limit: limits.perSpace };
    if (c.address !== undefined) {
      const since = c.at - limits.windowMs;
      const recent = fromAddress.get(c.kind, c.address, since) as { n: number; oldest: number | null };
      if (recent.n >= limits.perAddress) return { ok: false, over: 'address', count: recent.n, limit: limits.perAddress, retryAfterMs: (recent.oldest ?? c.at) - since };
    }
    insert.run(c.kind, c.item, c.space, c.address ?? null, Math.floor(c.at));
    return { ok: true };
  });

  return {
    claim(c, limits) {
      // A claim written to a file removed under the server would be lost: refused loudly instead.
      checkDatabaseFile(db);
      return claim.immediate(c, limits);
    },
    release(kind, item) {
      remove.run(kind, item);
    },
  };
}
