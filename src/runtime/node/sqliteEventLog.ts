import { deliver, type EventListener, type EventLog } from '../eventLog';
import type { Emit, ThreadEvent } from '../events';
import type { WorkspaceDatabase } from './sqliteDatabase';

export interface SqliteEventLogOptions {
  /** Clock for `ts`. @default Date.now */
  now?: () => number;
}

/**
 * A thread's event log kept in the workspace database: every event is written
 * (one row per seq) before listeners hear of it, so what a client was sent is
 * always on disk, and a restarted server resumes the thread where it stopped.
 * Use one log per thread per process (the server keeps them in a map).
 * @example
 * const db = openWorkspaceDatabase(':memory:');
 * const log = createSqliteEventLog(db, 'thread-1');
 */
export function createSqliteEventLog(db: WorkspaceDatabase, threadId: string, { now = Date.now }: SqliteEventLogOptions = {}): EventLog {
  const insert = db.prepare('INSERT INTO thread_events (thread_id, seq, body) VALUES (?, ?, ?)');
  const after = db.prepare('SELECT body FROM thread_events WHERE thread_id = ? AND seq > ? ORDER BY seq').pluck();
  const last = db.prepare('SELECT COALESCE(MAX(seq), 0) FROM thread_events WHERE thread_id = ?').pluck();
  let lastSeq = last.get(threadId) as number;
  const listeners = new Set<EventListener>();

  const read = (since: number): ThreadEvent[] => (after.all(threadId, Math.max(0, since)) as string[]).map((body) => JSON.parse(body) as ThreadEvent);

  const emit: Emit = (input) => {
    const event = { ...input, seq: lastSeq + 1, ts: now() } as ThreadEvent;
    insert.run(threadId, event.seq, JSON.stringify(event));
    lastSeq = event.seq;
    deliver(listeners, event);
    return event;
  };

  return {
    emit,
    since: (seq = 0) => read(seq),
    subscribe(listener, since) {
      if (since !== undefined) for (const event of read(since)) listener(event);
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    get lastSeq() {
      return lastSeq;
    },
  };
}

