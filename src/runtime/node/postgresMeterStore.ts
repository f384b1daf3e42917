import type { MeterStore } from '../doors/meter';
import { epochMs, type PostgresDatabase } from './postgres';
import { takeTokens } from '../doors/sharedRateLimit';

/**
 * `takeTokens` in one statement on an existing bucket ($1 user, $2 want, $3 limit, $4 now, $5 now in
 * whole ms): refilled to now (never past the limit, a clock behind refills nothing), whole tokens
 * taken; answers what was granted and what is left, or no row when the user has no bucket yet.
 */
const TAKE_FROM_BUCKET = `UPDATE meter_rates AS r SET tokens = b.full - b.granted, refilled_at = greatest($5::bigint, b.refilled_at)
  FROM (SELECT o.user_id, o.refilled_at, o.full, greatest(0, least($2::double precision, floor(o.full))) AS granted
        FROM (SELECT user_id, refilled_at, least($3::double precision, tokens + (greatest(0, $4::double precision - refilled_at) * $3::double precision) / 60000) AS full
              FROM meter_rates WHERE user_id = $1 FOR UPDATE) o) b
  WHERE r.user_id = b.user_id
  RETURNING b.granted, r.tokens AS left`;

/**
 * The meter's books in PostgreSQL: charged units per user and the holds of
 * calls still running, shared by every instance on the database. A hold is
 * one transaction that first locks the user's book row, then checks
 * charged + held + price ≤ budget, so two instances cannot both spend the
 * last units. A commit (one statement) takes the same lock first, so the two never deadlock.
 * The request limit's buckets (`meter_rates`, created when missing) are
 * shared the same way: a take locks the user's bucket row, in one statement
 * (no transaction) once the bucket exists.
 * @example
 * const meter = createMeter({ store: createPostgresMeterStore(db) });
 */
export function createPostgresMeterStore(db: PostgresDatabase): MeterStore {
  /** Creates the user's book if it is new and locks it for the rest of the transaction. */
  let rates: Promise<void> | null = null;
  // Created on first use, under a lock: instances starting together do not race to create it.
  const ratesTable = () =>
    (rates ??= db
      .transaction(async (client) => {
        await client.query("SELECT pg_advisory_xact_lock(hashtext(current_schema() || '.meter_rates'))");
        await client.query('CREATE TABLE IF NOT EXISTS meter_rates (user_id text PRIMARY KEY, tokens double precision NOT NULL, refilled_at bigint NOT NULL)');
      })
      .catch((error: unknown) => {
        rates = null;
        throw error;
      }));
  const lockBook = 'INSERT INTO meter_books (user_id, charged) VALUES ($1, 0) ON CONFLICT (user_id) DO UPDATE SET charged = meter_books.charged RETURNING charged';
  return {
    hold: (h, budget, now) =>
      db.transaction(async (client) => {
        const { rows } = await client.query<{ charged: number }>(lockBook, [h.user]);
        const charged = rows[0]!.charged;
        await client.query('DELETE FROM meter_holds WHERE user_id = $1 AND expires_at <= $2', [h.user, epochMs(now)]);
        const sum = await client.query<{ held: number }>('SELECT COALESCE(sum(units), 0)::double precision AS held FROM meter_holds WHERE user_id = $1', [h.user]);
        const held = sum.rows[0]!.held;
        if (charged + held + h.units > budget) return { ok: false, charged, held };
        await client.query('INSERT INTO meter_holds (id, user_id, units, expires_at) VALUES ($1, $2, $3, $4)', [h.id, h.user, h.units, epochMs(h.expiresAt)]);
        return { ok: true };
      }),
    // One statement (no transaction): the book first (the subquery runs before any hold is touched,
    // so the lock order is a hold's), then the hold goes; a batch of charges has no hold to drop.
    async commit(h) {
      await db.query(
        `WITH book AS (INSERT INTO meter_books (user_id, charged) VALUES ($1, $2) ON CONFLICT (user_id) DO UPDATE SET charged = meter_books.charged + excluded.charged RETURNING 1)
         DELETE FROM meter_holds WHERE id = $3 AND EXISTS (SELECT 1 FROM book)`,
        [h.user, h.units, h.id],
      );
    },
    async release(h) {
      await db.query('DELETE FROM meter_holds WHERE id = $1', [h.id]);
    },
    async takeRequests(user, want, limit, now) {
      await ratesTable();
      // A bucket that exists: one statement, no transaction (the lease's one round trip). The subquery
      // locks the row (the latest version, whatever another instance committed meanwhile) and takes
      // tokens as takeTokens does; the update writes what is left.
      const taken = await db.query<{ granted: number; left: number }>(TAKE_FROM_BUCKET, [user, want, limit, now, epochMs(now)]);
      if (taken.rows[0]) return { granted: taken.rows[0].granted, left: taken.rows[0].left };
      // A new user: create the bucket (or find the one another instance just created) under its row's lock.
      return db.transaction(async (client) => {
        const { rows } = await client.query<{ tokens: number; refilled_at: string }>(
          'INSERT INTO meter_rates (user_id, tokens, refilled_at) VALUES ($1, $2, $3) ON CONFLICT (user_id) DO UPDATE SET user_id = excluded.user_id RETURNING tokens, refilled_at, (xmax = 0) AS created',
          [user, limit, epochMs(now)],
        );
        const row = rows[0] as { tokens: number; refilled_at: string; created: boolean };
        const { granted, left, refilledAt } = takeTokens(row.created ? undefined : { tokens: row.tokens, refilledAt: Number(row.refilled_at) }, want, limit, now);
        await client.query('UPDATE meter_rates SET tokens = $2, refilled_at = $3 WHERE user_id = $1', [user, left, epochMs(refilledAt)]);
        return { granted, left };
      });
    },
    async charged(user) {
      const { rows } = await db.query<{ charged: number }>('SELECT charged FROM meter_books WHERE user_id = $1', [user]);
      return rows[0]?.charged ?? 0;
    },
  };
}
