import { ThreadListConfirm } from './ThreadListConfirm';
import { ThreadListFilter } from './ThreadListFilter';
import { ThreadListItems } from './ThreadListItems';
import { ThreadListMore } from './ThreadListMore';
import { ThreadListRoot, type ThreadListRootProps } from './ThreadListRoot';
import { ThreadListSearch } from './ThreadListSearch';
import { ThreadListStatus } from './ThreadListStatus';

export type ThreadListPanelProps = Omit<ThreadListRootProps, 'children'>;

/**
 * The assembled thread list, built from the parts a host can recompose: search,
 * the archived filter, the status, the threads, "Show more" and the delete confirmation.
 * @example
 * <ThreadList.Panel value={threadId} onValueChange={setThreadId} />
 */
export function ThreadListPanel(props: ThreadListPanelProps) {
  return (
    <ThreadListRoot {...props}>
      <div data-part="thread-list-tools">
        <ThreadListSearch />
        <ThreadListFilter />
      </div>
      <ThreadListStatus />
      <ThreadListItems />
      <ThreadListMore />
      <ThreadListConfirm />
    </ThreadListRoot>
  );
}
ThreadListPanel.displayName = 'ThreadList.Panel';
