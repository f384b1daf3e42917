import type { Composer } from '../runtime/events';
import { useThreadSelector } from './useThread';

/**
 * The thread's selections (harness, agent, model: node paths), from the
 * composer, their single source of truth. Changes only when one of them does.
 * @example
 * const { agentName } = useComposerSelection(); // 'Agent/researcher'
 */
export function useComposerSelection(): Composer {
  return useThreadSelector((t) => t.composer);
}
