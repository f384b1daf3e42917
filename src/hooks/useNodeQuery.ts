import { useQuery, type UseQueryResult } from '@tanstack/react-query';
import type { CatalogNode } from '../runtime/catalogNodes';
import { useChatSurface } from './context';
import { nodeQueryOptions } from './nodeQuery';

// The keys and options are in ./nodeQuery (no React Query there): the page's first script runs a
// slash command's fetch with them, and this hook comes with the slash UI's chunk.
export { NODE_QUERY_STALE_MS, nodeQueryKey, nodeQueryOptions } from './nodeQuery';

/**
 * Runs a node query (skills, agents, models, harnesses) through the
 * workspace, cached by React Query. Disabled when the workspace has no `query`.
 * @example
 * const agents = useNodeQuery('namespace:Agent nodeType:Agent sort:order');
 */
export function useNodeQuery(q: string, enabled = true): UseQueryResult<CatalogNode[], Error> {
  const { workspace, threadId } = useChatSurface();
  return useQuery({ ...nodeQueryOptions(workspace, threadId, q), enabled: enabled && typeof workspace.query === 'function' });
}
