import type { ThreadEvent } from '../events';
import type { ThreadListQuery, ThreadPage, ThreadSummary } from '../threadSummary';
import type { MaybePromise, ThreadRef } from './threadRef';

export type { ThreadListQuery, ThreadPage, ThreadSummary } from '../threadSummary';

/**
 * The per-user thread list beside an event store: kept up to date as events
 * are appended (title, last activity, preview, searchable text) and asked by
 * owner. Only threads with at least one message are listed. Every method is
 * scoped to its owner: another user's thread id is a thread that is not there.
 */
export interface ThreadIndex {
  list(owner: { user: string; space: string }, query?: ThreadListQuery): MaybePromise<ThreadPage>;
  /** The listed thread, or null. */
  get(ref: ThreadRef): MaybePromise<ThreadSummary | null>;
  /** Renames a listed thread; null when it is not there. */
  rename(ref: ThreadRef, title: string): MaybePromise<ThreadSummary | null>;
  /** Archives or unarchives a listed thread; null when it is not there. */
  setArchived(ref: ThreadRef, archived: boolean): MaybePromise<ThreadSummary | null>;
  /** Removes the thread for good: its events, its record, its index rows (and, in a database, its jobs). False when there was nothing. */
  remove(ref: ThreadRef): MaybePromise<boolean>;
}

export const DEFAULT_PAGE = 20;
export const MAX_PAGE = 100;
/** How long a title may be: the first message, cut at a word; a rename is cut at this too. */
export const TITLE_LENGTH = 80;
/** How long a preview is. */
export const PREVIEW_LENGTH = 140;

/** One line, at most `max` characters, cut at a word. */
export function shorten(text: string, max: number): string {
  const line = text.replace(/\s+/g, ' ').trim();
  if (line.length <= max) return line;
  const cut = line.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > max / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

/** What a batch of appended events changes in the index. */
export interface IndexChange {
  /** The batch's first user message, shortened: the title of a thread that has none yet. */
  title?: string;
  /** Full message texts to make searchable. */
  texts: string[];
  /** The last message's text. */
  preview: string;
  /** Epoch ms of the batch's last message event. */
  lastActivity: number;
}

/**
 * Turns appended events into index changes. A user message is whole in its
 * `message.created`; an assistant reply streams as deltas, kept here until
 * its `message.done`, so a batch of deltas changes nothing (and costs the
 * append nothing). One feed per store: the instance that writes a thread
 * sees all its appends.
 */
export function createIndexFeed() {
  /** Replies streaming, by thread key, then message id: the text so far. */
  const streaming = new Map<string, Map<string, string>>();
  return {
    /** The change for `key`'s batch, or null when it holds no message's start or end. */
    take(key: string, events: readonly ThreadEvent[]): IndexChange | null {
      let change: IndexChange | null = null;
      const note = (text: string, ts: number) => {
        change ??= { texts: [], preview: '', lastActivity: ts };
        if (text.trim()) {
          change.texts.push(text);
          change.preview = shorten(text, PREVIEW_LENGTH);
        }
        change.lastActivity = ts;
      };
      let replies = streaming.get(key);
      for (const event of events) {
        if (event.type === 'message.delta') {
          const sofar = replies?.get(event.message_id);
          if (sofar !== undefined) replies!.set(event.message_id, sofar + event.delta);
        } else if (event.type === 'message.created') {
          if (event.role === 'assistant') {
            if (!replies) streaming.set(key, (replies = new Map()));
            replies.set(event.message_id, event.text);
            continue;
          }
          const text = event.skill ? `${event.skill} ${event.text}`.trim() : event.text;
          note(text, event.ts);
          if (text.trim()) change!.title ??= shorten(text, TITLE_LENGTH);
        } else if (event.type === 'message.done') {
          const text = replies?.get(event.message_id);
          if (text === undefined) continue;
          replies!.delete(event.message_id);
          if (replies!.size === 0) streaming.delete(key);
          note(text, event.ts);
        }
      }
      return change;
    },
    /** Forgets a removed thread. */
    forget(key: string) {
      streaming.delete(key);
    },
  };
}

/** The page size a query asks for, within bounds. */
export function pageSize(query: ThreadListQuery): number {
  const n = Math.floor(query.limit ?? DEFAULT_PAGE);
  return Number.isFinite(n) ? Math.min(MAX_PAGE, Math.max(1, n)) : DEFAULT_PAGE;
}

/** A cursor: the last listed thread's activity and id (the order's key). */
export function encodeCursor(summary: Pick<ThreadSummary, 'lastActivity' | 'id'>): string {
  return `${summary.lastActivity}~${summary.id}`;
}

/** The position a cursor names, or null for none or one that is not ours. */
export function decodeCursor(cursor: string | undefined): { lastActivity: number; id: string } | null {
  const match = cursor ? /^(\d{1,16})~([A-Za-z0-9_.-]{1,200})$/.exec(cursor) : null;
  return match ? { lastActivity: Number(match[1]), id: match[2]! } : null;
}

/** Newest activity first; ties by id, descending (the cursor's order). */
export function byActivity(a: ThreadSummary, b: ThreadSummary): number {
  return b.lastActivity - a.lastActivity || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);
}

/** True when `summary` comes after the cursor's position in list order. */
export function afterCursor(summary: ThreadSummary, cursor: { lastActivity: number; id: string } | null): boolean {
  if (!cursor) return true;
  return summary.lastActivity < cursor.lastActivity || (summary.lastActivity === cursor.lastActivity && summary.id < cursor.id);
}

/** The page out of rows fetched one beyond its size. */
export function pageOf(rows: ThreadSummary[], size: number): ThreadPage {
  const threads = rows.slice(0, size);
  return { threads, nextCursor: rows.length > size ? encodeCursor(threads[threads.length - 1]!) : null };
}

/**
 * A search as FTS5 query text: each word quoted (so nothing in it is FTS5
 * syntax), all of them required. Null when it holds no word.
 */
export function ftsQuery(search: string): string | null {
  const words = searchWords(search);
  return words.length ? words.map((w) => `"${w}"`).join(' ') : null;
}

/** The words of a search, lower-cased: letters, digits and `_` (everything else separates them). */
export function searchWords(search: string): string[] {
  return (search.match(/[\p{L}\p{N}_]+/gu) ?? []).map((w) => w.toLowerCase());
}
