import type { ComponentPropsWithRef } from 'react';
import { useMessages } from '../messages/context';
import { useThreadList } from './context';

export type ThreadListStatusProps = ComponentPropsWithRef<'div'>;

/**
 * What the list is doing, said once in a live region: loading, how many
 * threads it found, none yet, none matching the search, or why it could not
 * load (with "Try again"); then what an action did ("Renamed to …").
 * @example
 * <ThreadList.Status />
 */
export function ThreadListStatus(props: ThreadListStatusProps) {
  const { state, threads, searched, archived, error, refresh, announcement, hasMore } = useThreadList('ThreadList.Status');
  const m = useMessages().threadList;
  const text =
    state === 'loading'
      ? m.loading
      : state === 'error'
        ? m.loadFailed(error ?? '')
        : state === 'empty'
          ? archived
            ? m.emptyArchived
            : m.empty
          : state === 'no-results'
            ? m.noResults(searched)
            : hasMore
              ? m.countMore(threads.length)
              : m.count(threads.length);
  return (
    <div data-part="thread-list-status" data-state={state} {...props}>
      <p role="status">{announcement ? `${text}. ${announcement}` : text}</p>
      {state === 'error' ? (
        <button type="button" onClick={refresh}>
          {m.retry}
        </button>
      ) : null}
    </div>
  );
}
ThreadListStatus.displayName = 'ThreadList.Status';
