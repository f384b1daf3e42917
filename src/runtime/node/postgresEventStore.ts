import type { ThreadEvent } from '../events';
import { threadKey, type EventStore, type ThreadRef } from '../stores/eventStore';
import type { PostgresDatabase } from './postgres';
import { appendPayload } from './postgresCoordination';
import { createPostgresThreadIndex } from './postgresThreadIndex';

/**
 * An append to a thread that has a row: the row moves to the new last seq only if its last seq is
 * the one before the first event (the UPDATE locks it: a concurrent append waits, then finds it
 * moved and writes nothing); the events go in only if it moved; the NOTIFY goes out on commit, one
 * per append however many events it holds (a thread's events that come while an append is in
 * flight are the next append: one NOTIFY per batch). An UPDATE of one row found by its key rather
 * than an upsert, which probes for a conflict and writes more.
 */
const APPEND_SQL = `WITH up AS (
    UPDATE threads SET last_seq = $3, updated_at = $4 WHERE key = $1 AND last_seq = $2::integer - 1 RETURNING pg_notify($7, $8)
  )
  INSERT INTO thread_events (thread_key, seq, body) SELECT $1, s, b FROM unnest($5::integer[], $6::text[]) AS u(s, b) WHERE EXISTS (SELECT 1 FROM up)`;

/** `APPEND_SQL` for one event (the common case: a thread keeping up): plain parameters, no arrays to build and parse. */
const APPEND_ONE_SQL = `WITH up AS (
    UPDATE threads SET last_seq = $2, updated_at = $3 WHERE key = $1 AND last_seq = $2::integer - 1 RETURNING pg_notify($5, $6)
  )
  INSERT INTO thread_events (thread_key, seq, body) SELECT $1, $2, $4 FROM up`;

/**
 * The first append of a thread makes its row (or moves a row left at seq 0), then writes its events;
 * one made meanwhile by another instance's first append is not moved, and nothing is written.
 */
const CREATE_SQL = `WITH up AS (
    INSERT INTO threads AS t (key, user_id, space_id, thread_id, last_seq, updated_at) VALUES ($1, $2, $3, $4, $5, $6)
    ON CONFLICT (key) DO UPDATE SET last_seq = excluded.last_seq, updated_at = excluded.updated_at WHERE t.last_seq = 0
    RETURNING pg_notify($9, $10)
  )
  INSERT INTO thread_events (thread_key, seq, body) SELECT $1, s, b FROM unnest($7::integer[], $8::text[]) AS u(s, b) WHERE EXISTS (SELECT 1 FROM up)`;

/**
 * Threads' event logs in PostgreSQL: one row per event and one per thread
 * (owner, last seq, whether work was in flight), as in SQLite. Several
 * server instances may append to one database: an append is one statement
 * that locks the thread's row, moves its last seq only when the first event
 * follows it, and writes the events only then, so seqs stay contiguous, with
 * neither gaps nor repeats, whoever writes. The same statement
 * NOTIFYs the schema's channel (`a seq key`), so every instance's followers
 * of the thread hear of the events exactly when they are committed. It is
 * prepared, one round trip, and reads nothing back. The
 * thread list (`threads`, see `./postgresThreadIndex`) is updated by one more
 * statement after it, only for a batch that starts or ends a message.
 * @example
 * const events = createPostgresEventStore(await openPostgres(process.env.DATABASE_URL!));
 */
export function createPostgresEventStore(db: PostgresDatabase): EventStore {
  const index = createPostgresThreadIndex(db);
  const store: EventStore = {
    threads: index,
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
      const first = events[0]!.seq;
      const seqs: number[] = [];
      const bodies: string[] = [];
      for (const [i, event] of events.entries()) {
        if (event.seq !== first + i) throw new Error(`Event seq ${event.seq} does not follow ${first + i - 1} in thread ${ref.id}.`);
        seqs.push(event.seq);
        bodies.push(JSON.stringify(event));
      }
      const last = seqs[seqs.length - 1]!;
      const notice = appendPayload(key, last);
      // One prepared statement, so one round trip and atomic on its own; nothing is read back (the
      // rows it wrote say whether it moved).
      let written: number;
      if (first === 1) written = (await db.query(CREATE_SQL, [key, ref.user, ref.space, ref.id, last, Date.now(), seqs, bodies, db.channel, notice])).rowCount ?? 0;
      else if (events.length === 1) written = (await db.query(APPEND_ONE_SQL, [key, first, Date.now(), bodies[0], db.channel, notice])).rowCount ?? 0;
      else written = (await db.query(APPEND_SQL, [key, first, last, Date.now(), seqs, bodies, db.channel, notice])).rowCount ?? 0;
      if (written !== events.length) {
        const info = await store.info(ref);
        throw new Error(`Event seq ${first} does not follow ${info?.lastSeq ?? 0} in thread ${ref.id}.`);
      }
      await index.noteAppend(ref, events);
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
  return store;
}
