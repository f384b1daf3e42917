/**
 * Runs `task` when the browser is idle: after the frame being drawn and the tasks already waiting
 * (or after `timeout` ms at the latest). Where it cannot tell (no `requestIdleCallback`), soon: a
 * timer. Returns how to cancel it.
 * @example
 * const cancel = whenIdle(() => void preload());
 */
export function whenIdle(task: () => void, timeout = 2000): () => void {
  if (typeof requestIdleCallback === 'function') {
    const id = requestIdleCallback(() => task(), { timeout });
    return () => cancelIdleCallback(id);
  }
  const id = setTimeout(task, Math.min(50, timeout));
  return () => clearTimeout(id);
}
