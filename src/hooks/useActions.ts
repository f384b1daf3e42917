import { useCallback, useMemo } from 'react';
import { useStore } from 'zustand';
import type { CapabilityResult } from '../runtime/envelope';
import type { DecisionRequest } from '../workspace/types';
import { useChatSurface } from './context';
import { noteUserAction } from './userAction';

/**
 * Sends a user message to the workspace's model; with `skill` (a slash name), the message is that
 * skill's task and the skill loads for it. Like `useInvoke` and `useDecide`, it is the user's own
 * action: the transcript follows to what comes of it.
 * @example
 * const send = useSend();
 * await send('build the report');
 * await send('the last import', '/summarize');
 */
export function useSend(): (text: string, skill?: string) => Promise<void> {
  const { workspace, threadId, store } = useChatSurface();
  return useCallback(
    (text: string, skill?: string) => {
      noteUserAction(store);
      return workspace.send({ threadId, text, ...(skill !== undefined ? { skill } : {}) });
    },
    [workspace, threadId, store],
  );
}

/**
 * Runs a capability directly, with no model call.
 * @example
 * const run = useInvoke();
 * run('notes.add', { text: 'call Ada' });
 */
export function useInvoke(): (capability: string, args: unknown) => Promise<CapabilityResult> {
  const { workspace, threadId, store } = useChatSurface();
  return useCallback(
    (capability: string, args: unknown) => {
      noteUserAction(store);
      return workspace.invoke({ threadId, capability, args });
    },
    [workspace, threadId, store],
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

/**
 * Answers a row that waits for the user: accept or dismiss a proposal,
 * approve or deny an approval, answer a question.
 * @example
 * const decide = useDecide();
 * await decide(row.id, 'approve');
 */
export function useDecide(): (id: string, decision: DecisionRequest['decision'], answer?: string) => Promise<void> {
  const { workspace, threadId, store } = useChatSurface();
  return useCallback(
    (id: string, decision: DecisionRequest['decision'], answer?: string) => {
      noteUserAction(store);
      return workspace.decide(answer === undefined ? { threadId, id, decision } : { threadId, id, decision, answer });
    },
    [workspace, threadId, store],
  );
}

/**
 * Stops the turn in progress (its model stream and the invocations it started); null when no turn runs.
 * @example
 * const stop = useStop();
 * stop?.();
 */
export function useStop(): (() => void) | null {
  const { store } = useChatSurface();
  const cancel = useCancel();
  const turn = useStore(store, (s) => s.thread.activeTurn);
  return useMemo(() => (turn === null ? null : () => cancel(turn)), [cancel, turn]);
}

/**
 * Stops the turn in progress, if one runs when it is called (true), else does nothing (false).
 * It reads the thread at that moment, so the component that uses it does not render when a turn
 * starts or ends (the message box, whose Escape key stops a reply).
 */
export function useStopTurn(): () => boolean {
  const { store } = useChatSurface();
  const cancel = useCancel();
  return useCallback(() => {
    const turn = store.getState().thread.activeTurn;
    if (turn === null) return false;
    cancel(turn);
    return true;
  }, [cancel, store]);
}
