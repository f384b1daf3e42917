import { useCallback, useId, useMemo, useState, type ComponentPropsWithRef, type ReactNode } from 'react';
import { useOptionalChatSurface } from '../../hooks/context';
import { useMessages } from '../messages/context';
import type { ThreadsApi, ThreadSummary } from '../../workspace/threadsProtocol';
import { ThreadListContext, type ThreadListContextValue } from './context';
import { useThreadListModel } from './useThreadListModel';

export interface ThreadListRootProps extends Omit<ComponentPropsWithRef<'section'>, 'children'> {
  /** The user's thread list. @default the surface workspace's `threads` */
  threads?: ThreadsApi;
  /** The thread the surface shows (marked `aria-current`). @default the surface's thread */
  value?: string;
  /** Told when the user opens a thread. */
  onValueChange?: (threadId: string) => void;
  /** Told when a thread was deleted (the surface moves off it when it showed it). */
  onDelete?: (threadId: string) => void;
  /** Threads per page. @default 20 */
  pageSize?: number;
  /** The search the list opens with (a link to "threads about X"). @default '' */
  defaultSearch?: string;
  /** Opens on the archived threads. @default false */
  defaultArchived?: boolean;
  /** The parts (`ThreadList.Search`, `ThreadList.Items`, …); `ThreadList.Panel` is them all, assembled. */
  children?: ReactNode;
}

/**
 * The user's threads from the workspace's store (the same in every browser
 * they sign into): holds the list's state and renders the panel, a
 * `<section>` named "Threads" with `data-state` =
 * `loading|error|empty|no-results|ready`.
 * @example
 * <ThreadList.Root value={threadId} onValueChange={setThreadId}>
 *   <ThreadList.Search />
 *   <ThreadList.Items />
 *   <ThreadList.Confirm />
 * </ThreadList.Root>
 */
export function ThreadListRoot({ threads, value, onValueChange, onDelete, pageSize, defaultSearch, defaultArchived, children, ...props }: ThreadListRootProps) {
  const surface = useOptionalChatSurface();
  const api = threads ?? surface?.workspace.threads;
  if (!api) throw new Error('ThreadList.Root needs a thread list: pass threads={workspace.threads} (a workspace on a server, or createLocalWorkspace, has one), or render it inside <ChatSurface.Root>.');
  const m = useMessages().threadList;
  const model = useThreadListModel(api, { ...(pageSize ? { pageSize } : {}), ...(defaultSearch ? { defaultSearch } : {}), ...(defaultArchived ? { defaultArchived } : {}) });
  const [announcement, setAnnouncement] = useState('');
  const listId = useId();
  const shown = value ?? surface?.threadId;
  const titleOf = useCallback((thread: ThreadSummary) => thread.title || m.untitled, [m]);
  const context = useMemo<ThreadListContextValue>(
    () => ({
      ...model,
      value: shown,
      open: (id) => onValueChange?.(id),
      announce: setAnnouncement,
      announcement,
      titleOf,
      deleted: (id) => onDelete?.(id),
      listId,
    }),
    [model, shown, onValueChange, onDelete, announcement, titleOf, listId],
  );
  return (
    <ThreadListContext.Provider value={context}>
      <section data-part="thread-list" data-state={model.state} aria-label={m.label} aria-busy={model.state === 'loading' || undefined} {...props}>
        {children}
      </section>
    </ThreadListContext.Provider>
  );
}
ThreadListRoot.displayName = 'ThreadList.Root';
