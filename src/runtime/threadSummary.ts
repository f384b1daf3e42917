// The thread list's shapes, shared by the stores that keep it, the protocol that carries it and the parts that show it.

/** One thread as the thread list shows it. */
export interface ThreadSummary {
  /** The thread's id (unique within its owner). */
  id: string;
  /** From the first user message, until the user renames it. */
  title: string;
  /** The last message's text, cut short. */
  preview: string;
  /** Epoch ms of the last message (a view or composer change is not activity). */
  lastActivity: number;
  archived: boolean;
}

/** Which threads a list asks for. */
export interface ThreadListQuery {
  /** Words to find in titles and message text; empty lists every thread. @default '' */
  search?: string;
  /** `false` hides archived threads, `true` shows only them. @default false */
  archived?: boolean;
  /** Threads per page. @default 20, at most 100 */
  limit?: number;
  /** The `nextCursor` of the page before. */
  cursor?: string;
}

/** One page of threads, newest activity first. */
export interface ThreadPage {
  threads: ThreadSummary[];
  /** Hand it back as `cursor` for the next page; null on the last one. */
  nextCursor: string | null;
}
