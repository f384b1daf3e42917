import { ThreadListConfirm } from './ThreadListConfirm';
import { ThreadListFilter } from './ThreadListFilter';
import { ThreadListActions, ThreadListItem, ThreadListTitle } from './ThreadListItem';
import { ThreadListItems } from './ThreadListItems';
import { ThreadListMore } from './ThreadListMore';
import { ThreadListPanel } from './ThreadListPanel';
import { ThreadListRename } from './ThreadListRename';
import { ThreadListRoot } from './ThreadListRoot';
import { ThreadListSearch } from './ThreadListSearch';
import { ThreadListStatus } from './ThreadListStatus';

/**
 * The user's thread list, kept by the workspace's store: `Root` holds it,
 * `Search`, `Filter`, `Status`, `Items` (each `Item`: `Title`, `Actions` or
 * `Rename`), `More` and `Confirm` show it; `Panel` is them all, assembled.
 */
export const ThreadList = {
  Root: ThreadListRoot,
  Search: ThreadListSearch,
  Filter: ThreadListFilter,
  Status: ThreadListStatus,
  Items: ThreadListItems,
  Item: ThreadListItem,
  Title: ThreadListTitle,
  Actions: ThreadListActions,
  Rename: ThreadListRename,
  More: ThreadListMore,
  Confirm: ThreadListConfirm,
  Panel: ThreadListPanel,
};
