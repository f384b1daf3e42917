import * as z from 'zod/mini';
import type { ThreadListQuery, ThreadPage, ThreadSummary } from '../runtime/threadSummary';

export type { ThreadListQuery, ThreadPage, ThreadSummary } from '../runtime/threadSummary';

/**
 * The user's thread list on the workspace protocol: the list (paged, searched,
 * archived or not), rename, archive and delete. Their routes are in
 * `protocol/routes.ts` (`listThreads`, `renameThread`, `archiveThread`,
 * `deleteThread`); every one acts on the caller's own threads only.
 */

export { THREADS_FEATURE } from './protocol/features';

/** The list's query string: `q` searched words, `archived=true` for the archived ones, `cursor` from the page before, `limit` per page. */
export const ThreadListParams = z.object({
  q: z.optional(z.string().check(z.maxLength(200, 'A search is at most 200 characters.'))),
  archived: z.optional(z.enum(['true', 'false'])),
  cursor: z.optional(z.string().check(z.maxLength(240))),
  limit: z.optional(z.string().check(z.regex(/^\d{1,3}$/, 'limit is a number of threads, 1 to 100.'))),
});

export const RenameThreadBody = z.object({
  title: z.string().check(z.trim(), z.minLength(1, 'Give the thread a name.'), z.maxLength(80, 'A thread name is at most 80 characters.')),
});
export const ArchiveThreadBody = z.object({ archived: z.boolean() });

export const ThreadSummarySchema = z.object({
  id: z.string(),
  title: z.string(),
  preview: z.string(),
  lastActivity: z.number(),
  archived: z.boolean(),
});
export const ThreadPageAnswer = z.object({ threads: z.array(ThreadSummarySchema), nextCursor: z.nullable(z.string()) });
export const ThreadAnswer = z.object({ thread: ThreadSummarySchema });
export const ThreadDeletedAnswer = z.object({ deleted: z.string() });

/** The adapter's view of the user's thread list (`WorkspaceAdapter.threads`). */
export interface ThreadsApi {
  /** The user's threads, newest activity first, one page at a time. */
  list(query?: ThreadListQuery): Promise<ThreadPage>;
  /** Renames a thread; rejects saying why (no such thread, an empty name). */
  rename(request: { threadId: string; title: string }): Promise<ThreadSummary>;
  /** Archives (hidden from the default list) or unarchives a thread. */
  setArchived(request: { threadId: string; archived: boolean }): Promise<ThreadSummary>;
  /** Deletes a thread for good (what runs in it is stopped first): its messages leave the store. */
  remove(threadId: string): Promise<void>;
}
