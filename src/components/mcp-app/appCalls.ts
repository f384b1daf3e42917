import { useSyncExternalStore } from 'react';

/**
 * Cards that a view's own tool call added to the thread, by invocation id,
 * with the card whose view asked: such a card says so instead of showing
 * the tool's view a second time. Process-wide and tiny (ids only).
 */
const origins = new Map<string, string>();
const listeners = new Set<() => void>();

/** Records that `invocationId` was a call made from the view of `fromInvocationId`. */
export function markAppCall(invocationId: string, fromInvocationId: string): void {
  if (origins.get(invocationId) === fromInvocationId) return;
  origins.set(invocationId, fromInvocationId);
  for (const listener of listeners) listener();
}

/** The card whose view made this invocation, or undefined; re-renders when it becomes known. */
export function useAppCallOrigin(invocationId: string): string | undefined {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => origins.get(invocationId),
    () => origins.get(invocationId),
  );
}
