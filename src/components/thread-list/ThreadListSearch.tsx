import { useId, type ComponentPropsWithRef } from 'react';
import { useMessages } from '../messages/context';
import { useThreadList } from './context';

export type ThreadListSearchProps = Omit<ComponentPropsWithRef<'input'>, 'value' | 'onChange' | 'type'>;

/**
 * The search box: titles and message text, with the store's own full-text
 * search; the list follows once the typing pauses. Escape clears it.
 * @example
 * <ThreadList.Search />
 */
export function ThreadListSearch(props: ThreadListSearchProps) {
  const { search, setSearch, listId } = useThreadList('ThreadList.Search');
  const m = useMessages().threadList;
  const id = useId();
  return (
    <span data-part="thread-list-search">
      <label htmlFor={id}>{m.search}</label>
      <input
        id={id}
        type="search"
        autoComplete="off"
        aria-controls={listId}
        maxLength={200}
        {...props}
        value={search}
        onChange={(event) => setSearch(event.target.value)}
        onKeyDown={(event) => {
          props.onKeyDown?.(event);
          if (event.key === 'Escape' && search) {
            event.preventDefault();
            setSearch('');
          }
        }}
      />
    </span>
  );
}
ThreadListSearch.displayName = 'ThreadList.Search';
