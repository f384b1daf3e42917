/** A new task soon, without setTimeout's clamping: a MessageChannel message. */
export function taskQueue(): (work: () => void) => void {
  if (typeof MessageChannel !== 'function') return (work) => void setTimeout(work, 0);
  const channel = new MessageChannel();
  const pending: (() => void)[] = [];
  channel.port1.onmessage = () => pending.shift()?.();
  // Node (tests, server-side rendering): a port listening must not keep the process alive.
  (channel.port1 as { unref?: () => void }).unref?.();
  return (work) => {
    pending.push(work);
    channel.port2.postMessage(null);
  };
}
