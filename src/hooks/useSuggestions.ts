import { useMemo } from 'react';
import { suggest, type Suggestion } from '../runtime/anticipation';
import { useChatSurface } from './context';
import { useThreadSelector } from './useThread';

/**
 * The suggested next verbs for this moment: the workspace's anticipation map
 * looked up by the active view and the capability that finished last.
 * Synchronous, no model call; changes the moment either one changes.
 * @example
 * const chips = useSuggestions(); // [{ capability: 'records.enrich', hint: 'Enrich the new records' }]
 */
export function useSuggestions(): readonly Suggestion[] {
  const { workspace } = useChatSurface();
  const view = useThreadSelector((t) => t.activeView);
  const last = useThreadSelector((t) => t.lastCapability);
  const map = workspace.manifest.anticipation;
  return useMemo(() => suggest(map, view, last), [map, view, last]);
}
