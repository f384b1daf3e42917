import type { MeterHold, MeterHoldResult, MeterStore } from '../doors/meter';
import { takeTokens, type RequestGrant } from '../doors/sharedRateLimit';
import type { WorkspaceDatabase } from './sqliteDatabase';
import { sqliteHandle } from './sqliteHandle';

/**
 * The meter's books in the workspace database: charged units per user and
 * the holds of calls still running, so a budget survives a restart and is
 * shared by every process on the file. A hold is one immediate transaction
 * (the write lock first, then the check of charged + held + price ≤ budget),
 * so two processes cannot both spend the last units. The request limit's
 * buckets (`meter_rates`, created when missing) are shared the same way.
 * @example
 * const meter = createMeter({ store: createSqliteMeterStore(db) });
 */
export function createSqliteMeterStore(database: WorkspaceDatabase): MeterStore {
  const db = sqliteHandle(database);
  db.exec(`
    CREATE TABLE IF NOT EXISTS meter_rates (
      user_id TEXT PRIMARY KEY,
      tokens REAL NOT NULL,
      refilled_at INTEGER NOT NULL
    ) WITHOUT ROWID;
  `);
  const bucketOf = db.prepare('SELECT tokens, refilled_at AS refilledAt FROM meter_rates WHERE user_id = ?');
  const setBucket = db.prepare(
    'INSERT INTO meter_rates (user_id, tokens, refilled_at) VALUES (?, ?, ?) ON CONFLICT (user_id) DO UPDATE SET tokens = excluded.tokens, refilled_at = excluded.refilled_at',
  );
  const takeRequests = db.transaction((user: string, want: number, limit: number, now: number): RequestGrant => {
    const bucket = bucketOf.get(user) as { tokens: number; refilledAt: number } | undefined;
    const { granted, left, refilledAt } = takeTokens(bucket, want, limit, now);
    setBucket.run(user, left, epoch(refilledAt));
    return { granted, left };
  });
  const dropExpired = db.prepare('DELETE FROM meter_holds WHERE user_id = ? AND expires_at <= ?');
  const chargedOf = db.prepare('SELECT charged FROM meter_books WHERE user_id = ?').pluck();
  const heldOf = db.prepare('SELECT COALESCE(SUM(units), 0) FROM meter_holds WHERE user_id = ?').pluck();
  const insertHold = db.prepare('INSERT INTO meter_holds (id, user_id, units, expires_at) VALUES (?, ?, ?, ?)');
  const deleteHold = db.prepare('DELETE FROM meter_holds WHERE id = ?');
  const charge = db.prepare('INSERT INTO meter_books (user_id, charged) VALUES (?, ?) ON CONFLICT (user_id) DO UPDATE SET charged = charged + excluded.charged');

  const hold = db.transaction((h: MeterHold, budget: number, now: number): MeterHoldResult => {
    dropExpired.run(h.user, epoch(now));
    const charged = (chargedOf.get(h.user) as number | undefined) ?? 0;
    const held = heldOf.get(h.user) as number;
    if (charged + held + h.units > budget) return { ok: false, charged, held };
    insertHold.run(h.id, h.user, h.units, epoch(h.expiresAt));
    return { ok: true };
  });
  const commit = db.transaction((h: MeterHold) => {
    deleteHold.run(h.id);
    charge.run(h.user, h.units);
  });

  return {
    hold: (h, budget, now) => hold.immediate(h, budget, now),
    commit: (h) => commit.immediate(h),
    release(h) {
      deleteHold.run(h.id);
    },
    charged: (user) => (chargedOf.get(user) as number | undefined) ?? 0,
    takeRequests: (user, want, limit, now) => takeRequests.immediate(user, want, limit, now),
  };
}

/** Epoch ms as an INTEGER column takes it (a hold that never expires kept as the largest safe integer). */
function epoch(ms: number): number {
  return Number.isFinite(ms) ? Math.floor(ms) : ms > 0 ? Number.MAX_SAFE_INTEGER : Number.MIN_SAFE_INTEGER;
}
