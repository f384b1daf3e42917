import type { ThreadEvent } from '../events';
import { threadKey, type ThreadRef } from '../stores/threadRef';
import { createIndexFeed, decodeCursor, ftsQuery, pageOf, pageSize, shorten, TITLE_LENGTH, type ThreadIndex, type ThreadSummary } from '../stores/threadIndex';
import type { SqliteHandle } from './sqliteHandle';

type Row = { id: string; title: string; preview: string; lastActivity: number; archived: number };
const summary = (row: Row | undefined): ThreadSummary | null =>
  row ? { id: row.id, title: row.title, preview: row.preview, lastActivity: row.lastActivity, archived: row.archived === 1 } : null;
const COLUMNS = 'thread_id AS id, title, preview, last_activity AS lastActivity, archived';

/** The SQLite thread index, with the hook its event store calls inside each append's transaction. */
export interface SqliteThreadIndex extends ThreadIndex {
  /** Notes an appended batch: call it in the append's transaction. A batch without a message's start or end costs nothing. */
  noteAppend(ref: ThreadRef, events: readonly ThreadEvent[], key?: string): void;
}

/**
 * The thread list in the workspace database: a row per listed thread (title,
 * preview, last activity, archived) and a row per message text, searched
 * with SQLite's own full-text search (an FTS5 table over those texts, kept by
 * triggers). The event store updates it in each append's transaction, which
 * is one or two statements for a batch that starts or ends a message and
 * nothing for the rest (the deltas of a reply).
 * @example
 * const index = createSqliteThreadIndex(db); // the event store makes one: `events.threads`
 */
export function createSqliteThreadIndex(db: SqliteHandle): SqliteThreadIndex {
  db.exec(`
    CREATE TABLE IF NOT EXISTS thread_meta (
      key TEXT PRIMARY KEY,
      user_id TEXT NOT NULL,
      space_id TEXT NOT NULL,
      thread_id TEXT NOT NULL,
      title TEXT NOT NULL DEFAULT '',
      preview TEXT NOT NULL DEFAULT '',
      last_activity INTEGER NOT NULL,
      archived INTEGER NOT NULL DEFAULT 0
    ) WITHOUT ROWID;
    CREATE INDEX IF NOT EXISTS thread_meta_by_owner ON thread_meta (space_id, user_id, archived, last_activity DESC, thread_id DESC);
    CREATE TABLE IF NOT EXISTS thread_texts (
      id INTEGER PRIMARY KEY,
      thread_key TEXT NOT NULL,
      kind TEXT NOT NULL,
      body TEXT NOT NULL
    );
    CREATE INDEX IF NOT EXISTS thread_texts_by_thread ON thread_texts (thread_key, kind);
    CREATE VIRTUAL TABLE IF NOT EXISTS thread_texts_fts USING fts5(body, content='thread_texts', content_rowid='id', tokenize='unicode61 remove_diacritics 2');
    CREATE TRIGGER IF NOT EXISTS thread_texts_ai AFTER INSERT ON thread_texts BEGIN
      INSERT INTO thread_texts_fts (rowid, body) VALUES (new.id, new.body);
    END;
    CREATE TRIGGER IF NOT EXISTS thread_texts_ad AFTER DELETE ON thread_texts BEGIN
      INSERT INTO thread_texts_fts (thread_texts_fts, rowid, body) VALUES ('delete', old.id, old.body);
    END;
    CREATE TRIGGER IF NOT EXISTS thread_texts_au AFTER UPDATE ON thread_texts BEGIN
      INSERT INTO thread_texts_fts (thread_texts_fts, rowid, body) VALUES ('delete', old.id, old.body);
      INSERT INTO thread_texts_fts (rowid, body) VALUES (new.id, new.body);
    END;
  `);
  const feed = createIndexFeed();
  const upsert = db.prepare(
    `INSERT INTO thread_meta (key, user_id, space_id, thread_id, title, preview, last_activity) VALUES (@key, @user, @space, @id, @title, @preview, @at)
     ON CONFLICT (key) DO UPDATE SET
       title = CASE WHEN thread_meta.title = '' THEN excluded.title ELSE thread_meta.title END,
       preview = CASE WHEN excluded.preview = '' THEN thread_meta.preview ELSE excluded.preview END,
       last_activity = max(thread_meta.last_activity, excluded.last_activity)`,
  );
  const addText = db.prepare("INSERT INTO thread_texts (thread_key, kind, body) VALUES (?, 'message', ?)");
  const get = db.prepare(`SELECT ${COLUMNS} FROM thread_meta WHERE key = ?`);
  const setTitle = db.prepare('UPDATE thread_meta SET title = ? WHERE key = ?');
  const setTitleText = db.prepare("UPDATE thread_texts SET body = ? WHERE thread_key = ? AND kind = 'title'");
  const addTitleText = db.prepare("INSERT INTO thread_texts (thread_key, kind, body) VALUES (?, 'title', ?)");
  const setArchived = db.prepare('UPDATE thread_meta SET archived = ? WHERE key = ?');
  const list = (search: boolean) =>
    db.prepare(
      `SELECT ${COLUMNS} FROM thread_meta
       WHERE space_id = @space AND user_id = @user AND archived = @archived
         AND (@at IS NULL OR last_activity < @at OR (last_activity = @at AND thread_id < @after))
         ${search ? 'AND key IN (SELECT t.thread_key FROM thread_texts_fts JOIN thread_texts t ON t.id = thread_texts_fts.rowid WHERE thread_texts_fts MATCH @q)' : ''}
       ORDER BY last_activity DESC, thread_id DESC LIMIT @n`,
    );
  const listAll = list(false);
  const listFound = list(true);
  const removals = [
    db.prepare('DELETE FROM thread_events WHERE thread_id = ?'),
    db.prepare('DELETE FROM thread_texts WHERE thread_key = ?'),
    db.prepare('DELETE FROM jobs WHERE thread_id = ?'),
  ];
  const removeThread = db.prepare('DELETE FROM threads WHERE key = ?');
  const removeMeta = db.prepare('DELETE FROM thread_meta WHERE key = ?');

  const rename = db.transaction((key: string, title: string) => {
    if (setTitle.run(title, key).changes === 0) return false;
    if (setTitleText.run(title, key).changes === 0) addTitleText.run(key, title);
    return true;
  });
  const remove = db.transaction((key: string) => {
    for (const statement of removals) statement.run(key);
    return removeThread.run(key).changes + removeMeta.run(key).changes > 0;
  });

  return {
    noteAppend(ref, events, key = threadKey(ref)) {
      const change = feed.take(key, events);
      if (!change) return;
      upsert.run({ key, user: ref.user, space: ref.space, id: ref.id, title: change.title ?? '', preview: change.preview, at: change.lastActivity });
      for (const text of change.texts) addText.run(key, text);
    },
    list({ user, space }, query = {}) {
      const n = pageSize(query);
      const cursor = decodeCursor(query.cursor);
      const q = ftsQuery(query.search ?? '');
      const params = { user, space, archived: query.archived ? 1 : 0, at: cursor?.lastActivity ?? null, after: cursor?.id ?? '', n: n + 1 };
      const rows = (q ? listFound.all({ ...params, q }) : listAll.all(params)) as Row[];
      return pageOf(rows.map((row) => summary(row)!), n);
    },
    get: (ref) => summary(get.get(threadKey(ref)) as Row | undefined),
    rename(ref, title) {
      const key = threadKey(ref);
      return rename(key, shorten(title, TITLE_LENGTH)) ? summary(get.get(key) as Row) : null;
    },
    setArchived(ref, archived) {
      const key = threadKey(ref);
      return setArchived.run(archived ? 1 : 0, key).changes ? summary(get.get(key) as Row) : null;
    },
    remove(ref) {
      const key = threadKey(ref);
      feed.forget(key);
      return remove(key);
    },
  };
}
