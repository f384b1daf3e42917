import type { ThreadEvent } from '../events';
import { threadKey, type EventStore, type ThreadRef } from '../stores/eventStore';
import type { WorkspaceDatabase } from './sqliteDatabase';
import { sqliteHandle } from './sqliteHandle';
import { checkDatabaseFile } from './sqliteFileGuard';
import { createSqliteThreadIndex } from './sqliteThreadIndex';

/**
 * Threads' event logs in the workspace database: one row per event (written
 * before any listener hears of it, so what a client was sent is on disk) and
 * one row per thread with its owner, last seq and whether work was in flight.
 * Its thread list (`threads`, see `./sqliteThreadIndex`) is updated in the same transaction.
 * @example
 * const events = createSqliteEventStore(openWorkspaceDatabase('data/workspace.db'));
 */
export function createSqliteEventStore(database: WorkspaceDatabase): EventStore {
  const db = sqliteHandle(database);
  db.exec(`
    CREATE TABLE IF NOT EXISTS threads (
      key TEXT PRIMARY KEY,
      user_id TEXT NOT NULL,
      space_id TEXT NOT NULL,
      thread_id TEXT NOT NULL,
      last_seq INTEGER NOT NULL,
      open INTEGER NOT NULL DEFAULT 0,
      updated_at INTEGER NOT NULL
    );
    CREATE INDEX IF NOT EXISTS threads_by_owner ON threads (space_id, user_id);
    CREATE INDEX IF NOT EXISTS threads_open ON threads (open) WHERE open = 1;
  `);
  // After the threads table: deleting a thread removes its row there too.
  const index = createSqliteThreadIndex(db);
  const info = db.prepare('SELECT last_seq AS lastSeq, open, updated_at AS updatedAt FROM threads WHERE key = ?');
  const count = db.prepare('SELECT COUNT(*) FROM threads WHERE space_id = ? AND user_id = ?').pluck();
  const insertEvent = db.prepare('INSERT INTO thread_events (thread_id, seq, body) VALUES (?, ?, ?)');
  const upsertThread = db.prepare(
    `INSERT INTO threads (key, user_id, space_id, thread_id, last_seq, updated_at) VALUES (@key, @user, @space, @id, @seq, @now)
     ON CONFLICT (key) DO UPDATE SET last_seq = excluded.last_seq, updated_at = excluded.updated_at`,
  );
  const lastSeq = db.prepare('SELECT last_seq FROM threads WHERE key = ?').pluck();
  const after = db.prepare('SELECT body FROM thread_events WHERE thread_id = ? AND seq > ? ORDER BY seq').pluck();
  const setOpen = db.prepare('UPDATE threads SET open = ? WHERE key = ?');
  const open = db.prepare('SELECT user_id AS user, space_id AS space, thread_id AS id FROM threads WHERE open = 1');

  const append = db.transaction((ref: ThreadRef, events: readonly ThreadEvent[]) => {
    const key = threadKey(ref);
    let last = (lastSeq.get(key) as number | undefined) ?? 0;
    for (const event of events) {
      if (event.seq !== last + 1) throw new Error(`Event seq ${event.seq} does not follow ${last} in thread ${ref.id}.`);
      insertEvent.run(key, event.seq, JSON.stringify(event));
      last = event.seq;
    }
    upsertThread.run({ key, user: ref.user, space: ref.space, id: ref.id, seq: last, now: Date.now() });
    index.noteAppend(ref, events, key);
  });

  return {
    threads: index,
    info(ref) {
      const row = info.get(threadKey(ref)) as { lastSeq: number; open: number; updatedAt: number } | undefined;
      return row ? { lastSeq: row.lastSeq, open: row.open === 1, updatedAt: row.updatedAt } : null;
    },
    count: ({ user, space }) => count.get(space, user) as number,
    append(ref, events) {
      if (!events.length) return;
      checkDatabaseFile(db);
      append(ref, events);
    },
    read: (ref, since = 0) => (after.all(threadKey(ref), Math.max(0, since)) as string[]).map((body) => JSON.parse(body) as ThreadEvent),
    setOpen(ref, value) {
      setOpen.run(value ? 1 : 0, threadKey(ref));
    },
    listOpen: () => open.all() as ThreadRef[],
  };
}
