import type { ComponentPropsWithRef, ReactNode } from 'react';
import { useMessages } from '../messages/context';
import { useThreadItem, useThreadList } from './context';
import { ThreadListRename } from './ThreadListRename';

export interface ThreadListItemProps extends ComponentPropsWithRef<'li'> {
  /** The item's parts. @default title, preview and time, then Rename, Archive and Delete */
  children?: ReactNode;
}

/**
 * One thread of the list: `data-state` says whether it is the one shown
 * (`current`), being renamed, or neither (`idle`); `data-archived` when it is.
 * @example
 * <ThreadList.Item><ThreadList.Title /><ThreadList.Actions /></ThreadList.Item>
 */
export function ThreadListItem({ children, ...props }: ThreadListItemProps) {
  const thread = useThreadItem('ThreadList.Item');
  const { value, renaming } = useThreadList('ThreadList.Item');
  const state = renaming === thread.id ? 'renaming' : value === thread.id ? 'current' : 'idle';
  return (
    <li data-part="thread-list-item" data-state={state} data-archived={thread.archived || undefined} {...props}>
      {state === 'renaming' ? <ThreadListRename /> : (children ?? (
        <>
          <ThreadListTitle />
          <ThreadListActions />
        </>
      ))}
    </li>
  );
}
ThreadListItem.displayName = 'ThreadList.Item';

export type ThreadListTitleProps = Omit<ComponentPropsWithRef<'button'>, 'onClick' | 'children'>;

/**
 * Opens the thread: a button with its title, then its last message and when
 * it was, `aria-current` on the one the surface shows.
 * @example
 * <ThreadList.Title />
 */
export function ThreadListTitle(props: ThreadListTitleProps) {
  const thread = useThreadItem('ThreadList.Title');
  const { value, open, titleOf } = useThreadList('ThreadList.Title');
  const m = useMessages().threadList;
  const current = value === thread.id;
  return (
    <button type="button" data-part="thread-list-open" data-thread-id={thread.id} aria-current={current ? 'true' : undefined} {...props} onClick={() => open(thread.id)}>
      <span data-part="thread-list-title">
        {titleOf(thread)}
        {current ? <span data-part="thread-list-shown"> ({m.shown})</span> : null}
      </span>
      {thread.preview ? <span data-part="thread-list-preview">{thread.preview}</span> : null}
      <time data-part="thread-list-time" dateTime={new Date(thread.lastActivity).toISOString()}>
        {m.lastActivity(thread.lastActivity)}
      </time>
    </button>
  );
}
ThreadListTitle.displayName = 'ThreadList.Title';

export type ThreadListActionsProps = ComponentPropsWithRef<'div'>;

/**
 * Rename, Archive (or Unarchive) and Delete for the item's thread, each named with its title.
 * Delete asks first (`ThreadList.Confirm`).
 * @example
 * <ThreadList.Actions />
 */
export function ThreadListActions(props: ThreadListActionsProps) {
  const thread = useThreadItem('ThreadList.Actions');
  const list = useThreadList('ThreadList.Actions');
  const m = useMessages().threadList;
  const title = list.titleOf(thread);
  const archive = () =>
    list.setThreadArchived(thread.id, !thread.archived).then(
      () => list.announce(thread.archived ? m.unarchived(title) : m.archived(title)),
      (error: unknown) => list.announce(m.failed(error instanceof Error ? error.message : String(error))),
    );
  return (
    <div data-part="thread-list-actions" role="group" aria-label={title} {...props}>
      <button type="button" aria-label={m.renameThread(title)} onClick={() => list.setRenaming(thread.id)}>
        {m.rename}
      </button>
      <button type="button" aria-label={thread.archived ? m.unarchiveThread(title) : m.archiveThread(title)} onClick={archive}>
        {thread.archived ? m.unarchive : m.archive}
      </button>
      <button type="button" aria-label={m.deleteThread(title)} aria-haspopup="dialog" data-part="thread-list-delete" onClick={() => list.setConfirming(thread.id)}>
        {m.delete}
      </button>
    </div>
  );
}
ThreadListActions.displayName = 'ThreadList.Actions';
