/**
 * What the remote workspace keeps per thread between its writes and its
 * event streams: the highest seq each thread's stream has delivered and who
 * waits for a higher one (so a write resolves once its events are on the
 * page), how many subscriptions listen, and the streams that wait for a
 * thread's first write (a new thread is 404 until then).
 */
export interface DeliveryLedger {
  /** A subscription of the thread opened. */
  listen(threadId: string): void;
  /** A subscription closed; when it was the last, whoever waits for delivery stops waiting. */
  unlisten(threadId: string): void;
  /** Resolves once this client's stream of the thread has delivered `seq` (or soon, when nobody listens). */
  deliveredUpTo(threadId: string, seq: number): Promise<void>;
  markDelivered(threadId: string, seq: number): void;
  /** A write to the thread went through: a stream waiting for it to exist tries again now. */
  kick(threadId: string): void;
  /** Resolves on the next write to the thread, or after `ms`. */
  untilKicked(threadId: string, ms: number): Promise<void>;
}

export function createDeliveryLedger(): DeliveryLedger {
  /** Highest seq delivered per thread, and who waits for a higher one. */
  const delivered = new Map<string, number>();
  const waiters = new Map<string, Set<{ seq: number; resolve: () => void }>>();
  /** Open subscriptions per thread. */
  const listening = new Map<string, number>();
  /** Streams waiting for a thread to exist, by thread. */
  const kicks = new Map<string, Set<() => void>>();

  return {
    listen(threadId) {
      listening.set(threadId, (listening.get(threadId) ?? 0) + 1);
      if (!waiters.has(threadId)) waiters.set(threadId, new Set());
    },
    unlisten(threadId) {
      const left = (listening.get(threadId) ?? 1) - 1;
      if (left > 0) return void listening.set(threadId, left);
      // Nobody listens any more: whoever waits for delivery stops waiting.
      listening.delete(threadId);
      for (const entry of waiters.get(threadId) ?? []) entry.resolve();
      waiters.delete(threadId);
    },
    deliveredUpTo(threadId, seq) {
      if ((delivered.get(threadId) ?? 0) >= seq || !waiters.has(threadId)) return Promise.resolve();
      return new Promise((resolve) => {
        // The events are on the server either way; do not hang a caller on a stream that is reconnecting.
        const timer = setTimeout(() => {
          waiters.get(threadId)?.delete(entry);
          resolve();
        }, 10_000);
        const entry = {
          seq,
          resolve: () => {
            clearTimeout(timer);
            resolve();
          },
        };
        waiters.get(threadId)!.add(entry);
      });
    },
    markDelivered(threadId, seq) {
      if (seq <= (delivered.get(threadId) ?? 0)) return;
      delivered.set(threadId, seq);
      for (const entry of waiters.get(threadId) ?? []) {
        if (entry.seq <= seq) {
          waiters.get(threadId)!.delete(entry);
          entry.resolve();
        }
      }
    },
    kick(threadId) {
      for (const wake of kicks.get(threadId) ?? []) wake();
    },
    untilKicked(threadId, ms) {
      return new Promise((resolve) => {
        let set = kicks.get(threadId);
        if (!set) kicks.set(threadId, (set = new Set()));
        const wake = () => {
          clearTimeout(timer);
          set!.delete(wake);
          if (set!.size === 0) kicks.delete(threadId);
          resolve();
        };
        const timer = setTimeout(wake, ms);
        set.add(wake);
      });
    },
  };
}
