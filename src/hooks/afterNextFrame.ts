/**
 * Runs `work` in a task after the next frame is drawn (a task posted from an animation frame
 * callback runs after that frame's layout and paint), or simply in the next task on a page that
 * draws no frames (hidden, or no DOM). `nextTask` posts the task (default: `setTimeout(…, 0)`).
 * Returns how to cancel it.
 * @example
 * const cancel = afterNextFrame(() => setOverscan(6));
 */
export function afterNextFrame(work: () => void, nextTask: (task: () => void) => void = (task) => void setTimeout(task, 0)): () => void {
  let cancelled = false;
  const run = () => {
    if (!cancelled) work();
  };
  if (typeof requestAnimationFrame !== 'function' || typeof document === 'undefined' || document.hidden) {
    nextTask(run);
    return () => {
      cancelled = true;
    };
  }
  const frame = requestAnimationFrame(() => nextTask(run));
  return () => {
    cancelled = true;
    cancelAnimationFrame(frame);
  };
}
