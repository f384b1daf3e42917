import type { ThreadEvent } from '../events';
import { threadKey, type EventStore, type ThreadRef } from '../stores/eventStore';
import type { PostgresDatabase } from './postgres';
import { appendPayload } from './postgresCoordination';

/**
 * Threads' event logs in PostgreSQL: one row per event and one per thread
 * (owner, last seq, whether work was in flight), as in SQLite. Several
 * server instances may append to one database: an append is one transaction
 * that locks the thread's row, checks that the first event follows its last
 * seq, writes the events and moves the last seq, so seqs stay contiguous,
 * with neither gaps nor repeats, whoever writes. The same transaction
 * NOTIFYs the schema's channel (`a seq key`), so every instance's followers
 * of the thread hear of the events exactly when they are committed.
 * @example
 * const events = createPostgresEventStore(await openPostgres(process.env.DATABASE_URL!));
 */
export function createPostgresEventStore(db: PostgresDatabase): EventStore {
  return {
    async info(ref) {
      const { rows } = await db.query<{ last_seq: number; open: boolean; updated_at: string }>('SELECT last_seq, open, updated_at FROM threads WHERE key = $1', [
        threadKey(ref),
      ]);
      const row = rows[0];
      return row ? { lastSeq: row.last_seq, open: row.open, updatedAt: Number(row.updated_at) } : null;
    },
    async count({ user, space }) {
      const { rows } = await db.query<{ n: number }>('SELECT count(*)::integer AS n FROM threads WHERE space_id = $1 AND user_id = $2', [space, user]);
      return rows[0]?.n ?? 0;
    },
    async append(ref, events) {
      if (events.length === 0) return;
      const key = threadKey(ref);
      await db.transaction(async (client) => {
        // Creates the thread's row if it is new and locks it either way: a concurrent append waits here, then sees this one's last seq.
        const { rows } = await client.query<{ last_seq: number }>(
          `INSERT INTO threads (key, user_id, space_id, thread_id, last_seq, updated_at) VALUES ($1, $2, $3, $4, 0, $5)
           ON CONFLICT (key) DO UPDATE SET last_seq = threads.last_seq
           RETURNING last_seq`,
          [key, ref.user, ref.space, ref.id, Date.now()],
        );
        let last = rows[0]!.last_seq;
        const seqs: number[] = [];
        const bodies: string[] = [];
        for (const event of events) {
          if (event.seq !== last + 1) throw new Error(`Event seq ${event.seq} does not follow ${last} in thread ${ref.id}.`);
          seqs.push(event.seq);
          bodies.push(JSON.stringify(event));
          last = event.seq;
        }
        await client.query('INSERT INTO thread_events (thread_key, seq, body) SELECT $1, * FROM unnest($2::integer[], $3::text[])', [key, seqs, bodies]);
        // Every instance on the schema hears of it when (and only if) this commits: their followers read the new events.
        await client.query('UPDATE threads SET last_seq = $2, updated_at = $3 WHERE key = $1 RETURNING pg_notify($4, $5)', [
          key,
          last,
          Date.now(),
          db.channel,
          appendPayload(key, last),
        ]);
      });
    },
    async read(ref, since = 0) {
      if (since === Infinity) return [];
      const after = Number.isFinite(since) ? Math.max(0, Math.floor(since)) : 0;
      const { rows } = await db.query<{ body: string }>('SELECT body FROM thread_events WHERE thread_key = $1 AND seq > $2 ORDER BY seq', [threadKey(ref), after]);
      return rows.map((row) => JSON.parse(row.body) as ThreadEvent);
    },
    async setOpen(ref, open) {
      await db.query('UPDATE threads SET open = $1 WHERE key = $2', [open, threadKey(ref)]);
    },
    async listOpen() {
      const { rows } = await db.query<ThreadRef>('SELECT user_id AS "user", space_id AS space, thread_id AS id FROM threads WHERE open ORDER BY key');
      return rows.map((row) => ({ user: row.user, space: row.space, id: row.id }));
    },
  };
}
