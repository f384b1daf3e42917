import { createContext, useContext } from 'react';
import type { ThreadSummary } from '../../workspace/threadsProtocol';
import type { ThreadListModel } from './useThreadListModel';

export interface ThreadListContextValue extends ThreadListModel {
  /** The thread the surface shows. */
  value: string | undefined;
  /** Opens a thread (the surface shows it). */
  open(id: string): void;
  /** Tells the live region what just happened ("Renamed to …"). */
  announce(text: string): void;
  announcement: string;
  /** A thread's name as the list shows it (its title, or "Untitled thread"). */
  titleOf(thread: ThreadSummary): string;
  /** Deleted: the surface moves off it when it was the one shown. */
  deleted(id: string): void;
  /** The list's element id (for `aria-controls`). */
  listId: string;
}

export const ThreadListContext = createContext<ThreadListContextValue | null>(null);

/** The list's state; `part` names the caller in the error a misplaced part throws. */
export function useThreadList(part = 'useThreadList'): ThreadListContextValue {
  const value = useContext(ThreadListContext);
  if (!value) throw new Error(`${part} must be used within <ThreadList.Root>: wrap it in one (inside <ChatSurface.Root>, or pass <ThreadList.Root threads={workspace.threads}>).`);
  return value;
}

/** The summary an item renders. */
export const ThreadItemContext = createContext<ThreadSummary | null>(null);

export function useThreadItem(part: string): ThreadSummary {
  const value = useContext(ThreadItemContext);
  if (!value) throw new Error(`${part} must be used within <ThreadList.Item>.`);
  return value;
}
