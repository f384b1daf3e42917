import { useId, type ComponentPropsWithRef } from 'react';
import { useMessages } from '../messages/context';
import { useThreadList } from './context';

export type ThreadListFilterProps = Omit<ComponentPropsWithRef<'input'>, 'checked' | 'onChange' | 'type'>;

/**
 * "Show archived": the list shows the archived threads instead of the others.
 * @example
 * <ThreadList.Filter />
 */
export function ThreadListFilter(props: ThreadListFilterProps) {
  const { archived, setArchived, listId } = useThreadList('ThreadList.Filter');
  const m = useMessages().threadList;
  const id = useId();
  return (
    <span data-part="thread-list-filter" data-state={archived ? 'archived' : 'active'}>
      <input id={id} type="checkbox" aria-controls={listId} {...props} checked={archived} onChange={(event) => setArchived(event.target.checked)} />
      <label htmlFor={id}>{m.showArchived}</label>
    </span>
  );
}
ThreadListFilter.displayName = 'ThreadList.Filter';
