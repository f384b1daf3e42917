import type { CatalogNode } from '../runtime/catalogNodes';
import type { WorkspaceAdapter } from '../workspace/types';

const keys = new WeakMap<WorkspaceAdapter, number>();
let nextKey = 0;

/**
 * The React Query key of a node query on one workspace: results are cached
 * per workspace (two surfaces on one workspace share them, two workspaces never do).
 * @example
 * queryClient.invalidateQueries({ queryKey: nodeQueryKey(workspace) });
 */
export function nodeQueryKey(workspace: WorkspaceAdapter, q?: string): readonly unknown[] {
  let key = keys.get(workspace);
  if (key === undefined) keys.set(workspace, (key = ++nextKey));
  return q === undefined ? ['chatsurface', 'nodes', key] : ['chatsurface', 'nodes', key, q];
}

/** How long query results are reused before a refetch; saving a skill invalidates them at once. */
export const NODE_QUERY_STALE_MS = 60_000;

/** The query options a surface uses for `q`, shared by the hooks and by imperative fetches. */
export function nodeQueryOptions(workspace: WorkspaceAdapter, threadId: string, q: string) {
  return {
    queryKey: nodeQueryKey(workspace, q),
    queryFn: (): Promise<CatalogNode[]> => {
      if (!workspace.query) return Promise.reject(new Error('This workspace offers no node query.'));
      return workspace.query({ threadId, q });
    },
    staleTime: NODE_QUERY_STALE_MS,
    retry: false,
  } as const;
}
