import type { ComponentPropsWithRef } from 'react';
import { useMessages } from '../messages/context';
import { useThreadList } from './context';

export type ThreadListMoreProps = Omit<ComponentPropsWithRef<'button'>, 'onClick'>;

/**
 * "Show more": the next page of threads; absent on the last page.
 * @example
 * <ThreadList.More />
 */
export function ThreadListMore(props: ThreadListMoreProps) {
  const { hasMore, loadMore, loadingMore, state, listId } = useThreadList('ThreadList.More');
  const m = useMessages().threadList;
  if (!hasMore || state !== 'ready') return null;
  return (
    <button type="button" data-part="thread-list-more" data-state={loadingMore ? 'loading' : 'idle'} aria-controls={listId} aria-disabled={loadingMore || undefined} {...props} onClick={loadMore}>
      {m.more}
    </button>
  );
}
ThreadListMore.displayName = 'ThreadList.More';
