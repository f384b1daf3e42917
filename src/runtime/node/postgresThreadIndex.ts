import type { ThreadEvent } from '../events';
import { threadKey, type ThreadRef } from '../stores/threadRef';
import { createIndexFeed, decodeCursor, pageOf, pageSize, searchWords, shorten, TITLE_LENGTH, type ThreadIndex, type ThreadSummary } from '../stores/threadIndex';
import type { PostgresDatabase } from './postgres';

type Row = { id: string; title: string; preview: string; last_activity: string; archived: boolean };
const summary = (row: Row | undefined): ThreadSummary | null =>
  row ? { id: row.id, title: row.title, preview: row.preview, lastActivity: Number(row.last_activity), archived: row.archived } : null;
const COLUMNS = 'thread_id AS id, title, preview, last_activity, archived';

/** The PostgreSQL thread index, with the hook its event store calls after each append. */
export interface PostgresThreadIndex extends ThreadIndex {
  /** Notes an appended batch; a batch without a message's start or end costs no statement. */
  noteAppend(ref: ThreadRef, events: readonly ThreadEvent[]): Promise<void>;
}

/**
 * The thread list in PostgreSQL: a row per listed thread and a row per
 * message text with its `tsvector` (the `simple` configuration: no language's
 * stemming or stop words, as users write in any), searched with
 * `websearch_to_tsquery` through a GIN index. The event store updates it with
 * one statement after an append commits, only for a batch that starts or
 * ends a message (the deltas of a reply cost nothing).
 * @example
 * const index = createPostgresThreadIndex(db); // the event store makes one: `events.threads`
 */
export function createPostgresThreadIndex(db: PostgresDatabase): PostgresThreadIndex {
  const feed = createIndexFeed();
  const one = async (sql: string, values: unknown[]) => summary((await db.query<Row>(sql, values)).rows[0]);
  return {
    async noteAppend(ref, events) {
      const key = threadKey(ref);
      const change = feed.take(key, events);
      if (!change) return;
      await db.query(
        `WITH meta AS (
           INSERT INTO thread_meta AS m (key, user_id, space_id, thread_id, title, preview, last_activity) VALUES ($1, $2, $3, $4, $5, $6, $7)
           ON CONFLICT (key) DO UPDATE SET
             title = CASE WHEN m.title = '' THEN excluded.title ELSE m.title END,
             preview = CASE WHEN excluded.preview = '' THEN m.preview ELSE excluded.preview END,
             last_activity = greatest(m.last_activity, excluded.last_activity)
         )
         INSERT INTO thread_texts (thread_key, kind, body) SELECT $1, 'message', b FROM unnest($8::text[]) AS u(b)`,
        [key, ref.user, ref.space, ref.id, change.title ?? '', change.preview, change.lastActivity, change.texts],
      );
    },
    async list({ user, space }, query = {}) {
      const n = pageSize(query);
      const cursor = decodeCursor(query.cursor);
      const words = searchWords(query.search ?? '');
      const { rows } = await db.query<Row>(
        `SELECT ${COLUMNS} FROM thread_meta
         WHERE space_id = $1 AND user_id = $2 AND archived = $3
           AND ($4::bigint IS NULL OR last_activity < $4 OR (last_activity = $4 AND thread_id < $5))
           AND ($6::text IS NULL OR key IN (SELECT thread_key FROM thread_texts WHERE words @@ websearch_to_tsquery('simple', $6)))
         ORDER BY last_activity DESC, thread_id DESC LIMIT $7`,
        [space, user, query.archived ?? false, cursor?.lastActivity ?? null, cursor?.id ?? '', words.length ? words.join(' ') : null, n + 1],
      );
      return pageOf(rows.map((row) => summary(row)!), n);
    },
    get: (ref) => one(`SELECT ${COLUMNS} FROM thread_meta WHERE key = $1`, [threadKey(ref)]),
    rename(ref, title) {
      // The title row is the searchable copy of a name the user gave (a first message's words are searchable already).
      return one(
        `WITH renamed AS (UPDATE thread_meta SET title = $2 WHERE key = $1 RETURNING ${COLUMNS}),
         updated AS (UPDATE thread_texts SET body = $2 WHERE thread_key = $1 AND kind = 'title' AND EXISTS (SELECT 1 FROM renamed) RETURNING 1),
         added AS (INSERT INTO thread_texts (thread_key, kind, body) SELECT $1, 'title', $2 WHERE EXISTS (SELECT 1 FROM renamed) AND NOT EXISTS (SELECT 1 FROM thread_texts WHERE thread_key = $1 AND kind = 'title'))
         SELECT * FROM renamed`,
        [threadKey(ref), shorten(title, TITLE_LENGTH)],
      );
    },
    setArchived: (ref, archived) => one(`UPDATE thread_meta SET archived = $2 WHERE key = $1 RETURNING ${COLUMNS}`, [threadKey(ref), archived]),
    async remove(ref) {
      const key = threadKey(ref);
      feed.forget(key);
      return db.transaction(async (client) => {
        for (const table of ['thread_events', 'thread_texts']) await client.query(`DELETE FROM ${table} WHERE thread_key = $1`, [key]);
        await client.query('DELETE FROM jobs WHERE thread_id = $1', [key]);
        const threads = await client.query('DELETE FROM threads WHERE key = $1', [key]);
        const meta = await client.query('DELETE FROM thread_meta WHERE key = $1', [key]);
        return (threads.rowCount ?? 0) + (meta.rowCount ?? 0) > 0;
      });
    },
  };
}
