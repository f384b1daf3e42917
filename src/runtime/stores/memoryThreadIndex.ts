import type { ThreadEvent } from '../events';
import { threadKey, type ThreadRef } from './threadRef';
import { afterCursor, byActivity, createIndexFeed, decodeCursor, pageOf, pageSize, searchWords, shorten, TITLE_LENGTH, type ThreadIndex, type ThreadSummary } from './threadIndex';

interface Entry {
  ref: ThreadRef;
  summary: ThreadSummary;
  /** Every message's text, lower-cased, for search. */
  text: string[];
}

/**
 * The memory store's thread list: kept in step with its appends, searched by
 * a plain case-insensitive match on titles and message text.
 * @example
 * const index = createMemoryThreadIndex((ref) => threads.delete(threadKey(ref)));
 */
export function createMemoryThreadIndex(dropEvents: (ref: ThreadRef) => boolean): ThreadIndex & { noteAppend(ref: ThreadRef, events: readonly ThreadEvent[]): void } {
  const entries = new Map<string, Entry>();
  const feed = createIndexFeed();
  const copy = (entry: Entry | undefined) => (entry ? { ...entry.summary } : null);
  const owned = (ref: ThreadRef) => entries.get(threadKey(ref));
  return {
    noteAppend(ref, events) {
      const key = threadKey(ref);
      const change = feed.take(key, events);
      if (!change) return;
      let entry = entries.get(key);
      if (!entry) {
        entry = { ref: { ...ref }, summary: { id: ref.id, title: '', preview: '', lastActivity: 0, archived: false }, text: [] };
        entries.set(key, entry);
      }
      if (!entry.summary.title && change.title) entry.summary.title = change.title;
      if (change.preview) entry.summary.preview = change.preview;
      entry.summary.lastActivity = Math.max(entry.summary.lastActivity, change.lastActivity);
      entry.text.push(...change.texts.map((t) => t.toLowerCase()));
    },
    list({ user, space }, query = {}) {
      const size = pageSize(query);
      const cursor = decodeCursor(query.cursor);
      const words = searchWords(query.search ?? '');
      const archived = query.archived ?? false;
      const rows = [...entries.values()]
        .filter((e) => e.ref.user === user && e.ref.space === space && e.summary.archived === archived)
        .filter((e) => words.every((w) => e.summary.title.toLowerCase().includes(w) || e.text.some((t) => t.includes(w))))
        .map((e) => ({ ...e.summary }))
        .sort(byActivity)
        .filter((s) => afterCursor(s, cursor));
      return pageOf(rows.slice(0, size + 1), size);
    },
    get: (ref) => copy(owned(ref)),
    rename(ref, title) {
      const entry = owned(ref);
      if (entry) entry.summary.title = shorten(title, TITLE_LENGTH);
      return copy(entry);
    },
    setArchived(ref, archived) {
      const entry = owned(ref);
      if (entry) entry.summary.archived = archived;
      return copy(entry);
    },
    remove(ref) {
      const key = threadKey(ref);
      feed.forget(key);
      const listed = entries.delete(key);
      return dropEvents(ref) || listed;
    },
  };
}
