import type { CapResult, CapStore } from '../stores/capStore';
import { epochMs, type PostgresDatabase } from './postgres';

/**
 * Caps beyond one user's (per space, per client address) counted in
 * PostgreSQL (`cap_claims`, created when missing), shared by every instance
 * on the database. A claim is one transaction that first takes an advisory
 * lock on its space, then one on its address (always in that order, so two
 * claims never deadlock), then counts: two instances cannot both take the
 * last place.
 * @example
 * const caps = createPostgresCapStore(db);
 */
export function createPostgresCapStore(db: PostgresDatabase): CapStore {
  let table: Promise<void> | null = null;
  // Created on first use, under a lock: instances starting together do not race to create it.
  const ready = () =>
    (table ??= db
      .transaction(async (client) => {
        await client.query("SELECT pg_advisory_xact_lock(hashtext(current_schema() || '.cap_claims'))");
        await client.query(`
          CREATE TABLE IF NOT EXISTS cap_claims (
            kind text NOT NULL,
            item text NOT NULL,
            space_id text NOT NULL,
            address text,
            at bigint NOT NULL,
            PRIMARY KEY (kind, item)
          );
          CREATE INDEX IF NOT EXISTS cap_claims_by_space ON cap_claims (kind, space_id);
          CREATE INDEX IF NOT EXISTS cap_claims_by_address ON cap_claims (kind, address, at) WHERE address IS NOT NULL;
        `);
      })
      .catch((error: unknown) => {
        table = null;
        throw error;
      }));

  return {
    async claim(c, limits) {
      await ready();
      return db.transaction(async (client): Promise<CapResult> => {
        await client.query("SELECT pg_advisory_xact_lock(hashtext(current_schema() || '.cap:space:' || $1 || ':' || $2))", [c.kind, c.space]);
        if (c.address !== undefined) await client.query("SELECT pg_advisory_xact_lock(hashtext(current_schema() || '.cap:address:' || $1 || ':' || $2))", [c.kind, c.address]);
        const seen = await client.query('SELECT 1 FROM cap_claims WHERE kind = $1 AND item = $2', [c.kind, c.item]);
        if (seen.rows.length) return { ok: true };
        const space = await client.query<{ n: number }>('SELECT count(*)::integer AS n FROM cap_claims WHERE kind = $1 AND space_id = $2', [c.kind, c.space]);
        const count = space.rows[0]!.n;
        if (count >= limits.perSpace) return { ok: false, over: 'space', count, limit: limits.perSpace };
        if (c.address !== undefined) {
          const since = c.at - limits.windowMs;
          const { rows } = await client.query<{ n: number; oldest: string | null }>(
            'SELECT count(*)::integer AS n, min(at) AS oldest FROM cap_claims WHERE kind = $1 AND address = $2 AND at > $3',
            [c.kind, c.address, epochMs(since)],
          );
          const recent = rows[0]!;
          if (recent.n >= limits.perAddress) {
            return { ok: false, over: 'address', count: recent.n, limit: limits.perAddress, retryAfterMs: Number(recent.oldest ?? c.at) - since };
          }
        }
        await client.query('INSERT INTO cap_claims (kind, item, space_id, address, at) VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING', [
          c.kind,
          c.item,
          c.space,
          c.address ?? null,
          epochMs(c.at),
        ]);
        return { ok: true };
      });
    },
    async release(kind, item) {
      await ready();
      await db.query('DELETE FROM cap_claims WHERE kind = $1 AND item = $2', [kind, item]);
    },
  };
}
