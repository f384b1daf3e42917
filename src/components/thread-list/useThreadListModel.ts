import { useCallback, useEffect, useRef, useState } from 'react';
import type { ThreadSummary, ThreadsApi } from '../../workspace/threadsProtocol';

/** What the list shows: enumerated, mirrored as `data-state` on `ThreadList.Root`. */
export type ThreadListState = 'loading' | 'error' | 'empty' | 'no-results' | 'ready';

export interface ThreadListModel {
  state: ThreadListState;
  threads: ThreadSummary[];
  /** Why the last load failed. */
  error: string | null;
  search: string;
  setSearch(search: string): void;
  /** The search the list shows (the typed one, once the typing pauses). */
  searched: string;
  archived: boolean;
  setArchived(archived: boolean): void;
  hasMore: boolean;
  loadingMore: boolean;
  loadMore(): void;
  refresh(): void;
  /** The id whose name is being edited, or null. */
  renaming: string | null;
  setRenaming(id: string | null): void;
  /** The id a delete waits to be confirmed for, or null. */
  confirming: string | null;
  setConfirming(id: string | null): void;
  rename(id: string, title: string): Promise<ThreadSummary>;
  setThreadArchived(id: string, archived: boolean): Promise<ThreadSummary>;
  remove(id: string): Promise<void>;
}

/** How long the typing pauses before a search is asked. */
const SEARCH_DELAY = 250;

/**
 * The thread list's state over the workspace's `threads`: the first page on
 * mount and whenever the search (after a pause) or the archived filter
 * changes, more pages on demand; rename, archive and delete update the list
 * in place once the workspace has done them. A stale answer (the search
 * changed meanwhile) is dropped.
 */
export function useThreadListModel(api: ThreadsApi, { pageSize = 20, defaultSearch = '', defaultArchived = false } = {}): ThreadListModel {
  const [search, setSearch] = useState(defaultSearch);
  const [searched, setSearched] = useState(defaultSearch.trim());
  const [archived, setArchived] = useState(defaultArchived);
  const [threads, setThreads] = useState<ThreadSummary[]>([]);
  const [status, setStatus] = useState<'loading' | 'ready' | 'error'>('loading');
  const [error, setError] = useState<string | null>(null);
  const [cursor, setCursor] = useState<string | null>(null);
  const [loadingMore, setLoadingMore] = useState(false);
  const [renaming, setRenaming] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<string | null>(null);
  const [reloads, setReloads] = useState(0);
  const asked = useRef(0);

  useEffect(() => {
    const timer = setTimeout(() => setSearched(search.trim()), search.trim() ? SEARCH_DELAY : 0);
    return () => clearTimeout(timer);
  }, [search]);

  useEffect(() => {
    const ask = ++asked.current;
    setStatus('loading');
    api.list({ search: searched, archived, limit: pageSize }).then(
      (page) => {
        if (ask !== asked.current) return;
        setThreads(page.threads);
        setCursor(page.nextCursor);
        setStatus('ready');
      },
      (reason: unknown) => {
        if (ask !== asked.current) return;
        setError(reason instanceof Error ? reason.message : String(reason));
        setStatus('error');
      },
    );
  }, [api, searched, archived, pageSize, reloads]);

  const loadMore = useCallback(() => {
    if (!cursor || loadingMore) return;
    const ask = asked.current;
    setLoadingMore(true);
    api.list({ search: searched, archived, limit: pageSize, cursor }).then(
      (page) => {
        if (ask !== asked.current) return;
        setThreads((all) => [...all, ...page.threads.filter((t) => !all.some((a) => a.id === t.id))]);
        setCursor(page.nextCursor);
        setLoadingMore(false);
      },
      (reason: unknown) => {
        setLoadingMore(false);
        setError(reason instanceof Error ? reason.message : String(reason));
      },
    );
  }, [api, cursor, loadingMore, searched, archived, pageSize]);

  const replace = (changed: ThreadSummary) => setThreads((all) => all.map((t) => (t.id === changed.id ? changed : t)));

  const state: ThreadListState =
    status !== 'ready' ? status : threads.length > 0 ? 'ready' : searched ? 'no-results' : 'empty';

  return {
    state,
    threads,
    error,
    search,
    setSearch,
    searched,
    archived,
    setArchived,
    hasMore: cursor !== null,
    loadingMore,
    loadMore,
    refresh: useCallback(() => setReloads((n) => n + 1), []),
    renaming,
    setRenaming,
    confirming,
    setConfirming,
    async rename(id, title) {
      const changed = await api.rename({ threadId: id, title });
      replace(changed);
      return changed;
    },
    async setThreadArchived(id, value) {
      const changed = await api.setArchived({ threadId: id, archived: value });
      // It leaves this list (the other filter shows it).
      setThreads((all) => all.filter((t) => t.id !== id));
      return changed;
    },
    async remove(id) {
      await api.remove(id);
      setThreads((all) => all.filter((t) => t.id !== id));
    },
  };
}
