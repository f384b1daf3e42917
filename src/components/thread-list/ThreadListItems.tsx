import type { ComponentPropsWithRef, KeyboardEvent, ReactNode } from 'react';
import type { ThreadSummary } from '../../workspace/threadsProtocol';
import { useMessages } from '../messages/context';
import { ThreadItemContext, useThreadList } from './context';
import { ThreadListItem } from './ThreadListItem';

export interface ThreadListItemsProps extends Omit<ComponentPropsWithRef<'ul'>, 'children'> {
  /** Renders one thread (inside its item context). @default <ThreadList.Item /> */
  renderItem?: (thread: ThreadSummary) => ReactNode;
}

/** The threads' open buttons, in list order: what the arrow keys move between. */
const OPENERS = '[data-part="thread-list-open"]';

/**
 * The list of threads, newest activity first, named "Your threads" (or
 * "Archived threads"). Up and Down (Home, End) move between threads, Enter
 * opens one, F2 renames it, Delete asks before deleting it. Renders nothing
 * while there is no thread to show (the status says why).
 * @example
 * <ThreadList.Items renderItem={(thread) => <ThreadList.Item><ThreadList.Title /></ThreadList.Item>} />
 */
export function ThreadListItems({ renderItem, ...props }: ThreadListItemsProps) {
  const { threads, state, archived, listId, setRenaming, setConfirming, renaming } = useThreadList('ThreadList.Items');
  const m = useMessages().threadList;
  if (state !== 'ready' && !(state === 'loading' && threads.length > 0)) return <ul id={listId} hidden aria-label={archived ? m.archivedList : m.list} />;

  const onKeyDown = (event: KeyboardEvent<HTMLUListElement>) => {
    props.onKeyDown?.(event);
    if (event.defaultPrevented || renaming) return;
    const openers = [...event.currentTarget.querySelectorAll<HTMLButtonElement>(OPENERS)];
    const current = (event.target as HTMLElement).closest('li')?.querySelector<HTMLButtonElement>(OPENERS);
    const at = current ? openers.indexOf(current) : -1;
    const id = current?.dataset.threadId;
    const move = (to: number) => {
      event.preventDefault();
      openers[Math.max(0, Math.min(openers.length - 1, to))]?.focus();
    };
    if (event.key === 'ArrowDown') move(at + 1);
    else if (event.key === 'ArrowUp') move(at - 1);
    else if (event.key === 'Home') move(0);
    else if (event.key === 'End') move(openers.length - 1);
    else if (event.key === 'F2' && id) {
      event.preventDefault();
      setRenaming(id);
    } else if (event.key === 'Delete' && id && (event.target as HTMLElement).tagName !== 'INPUT') {
      event.preventDefault();
      setConfirming(id);
    }
  };

  return (
    <ul id={listId} data-part="thread-list-items" aria-label={archived ? m.archivedList : m.list} aria-describedby={`${listId}-keys`} {...props} onKeyDown={onKeyDown}>
      {threads.map((thread) => (
        <ThreadItemContext.Provider key={thread.id} value={thread}>
          {renderItem ? renderItem(thread) : <ThreadListItem />}
        </ThreadItemContext.Provider>
      ))}
      <li hidden id={`${listId}-keys`}>
        {m.keys}
      </li>
    </ul>
  );
}
ThreadListItems.displayName = 'ThreadList.Items';
