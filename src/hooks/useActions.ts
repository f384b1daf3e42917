import { useCallback } from 'react';
import type { CapabilityResult } from '../runtime/envelope';
import { useChatSurface } from './context';

/**
 * Sends a user message to the workspace's model.
 * @example
 * const send = useSend();
 * await send('build the report');
 */
export function useSend(): (text: string) => Promise<void> {
  const { workspace, threadId } = useChatSurface();
  return useCallback((text: string) => workspace.send({ threadId, text }), [workspace, threadId]);
}

/**
 * Runs a capability directly, with no model call.
 * @example
 * const run = useInvoke();
 * run('notes.add', { text: 'call Ada' });
 */
export function useInvoke(): (capability: string, args: unknown) => Promise<CapabilityResult> {
  const { workspace, threadId } = useChatSurface();
  return useCallback(
    (capability: string, args: unknown) => workspace.invoke({ threadId, capability, args }),
    [workspace, threadId],
  );
}

/**
 * Cancels an invocation or stops a turn by id.
 * @example
 * const cancel = useCancel();
 * cancel(row.id);
 */
export function useCancel(): (id: string) => void {
  const { workspace, threadId } = useChatSurface();
  return useCallback((id: string) => workspace.cancel({ threadId, id }), [workspace, threadId]);
}
