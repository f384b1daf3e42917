import type { ThreadStore } from '../../hooks/threadStore';
import type { MessageQueue, QueuedMessage } from './queueStore';

export interface QueueRunnerOptions {
  queue: MessageQueue;
  /** The shown thread's store: whether a reply is running. */
  thread: ThreadStore;
  /** Sends one message as the user's; resolves when its turn has ended. */
  send(text: string): Promise<void>;
  /** Stops the running turn. */
  stop(turnId: string): void;
  /** What to say when a send fails. */
  reasonOf(error: unknown): string;
}

export interface QueueRunner {
  /** Stops the reply (if one runs) and sends this queued message at once; the others wait for its turn. */
  sendNow(id: string): void;
  dispose(): void;
}

/**
 * Sends the queue's messages one at a time, in order: the first once no reply is running and
 * nothing it sent is still running, the next when that one's turn has ended. A paused queue
 * (after a Stop) sends nothing until the user sends a message of it or resumes it.
 */
export function runQueue({ queue, thread, send, stop, reasonOf }: QueueRunnerOptions): QueueRunner {
  let inFlight = 0;
  let disposed = false;

  /** Sends a message already counted in flight (counted before it leaves the queue, so the queue's own change sends nothing else meanwhile). */
  const run = (message: QueuedMessage) => {
    send(message.text).then(
      () => {
        inFlight--;
        tick();
      },
      (error: unknown) => {
        inFlight--;
        if (!disposed) queue.putBack(message, reasonOf(error));
      },
    );
  };

  const tick = () => {
    if (disposed || inFlight > 0) return;
    const { items, paused } = queue.getState();
    const { thread: state, replaying } = thread.getState();
    if (paused || !items.length || state.activeTurn !== null || replaying) return;
    inFlight++;
    const next = queue.take(items[0]!.id);
    if (next) run(next);
    else inFlight--;
  };

  const offQueue = queue.subscribe(tick);
  const offThread = thread.subscribe((now, before) => {
    if (now.thread.activeTurn !== before.thread.activeTurn || now.replaying !== before.replaying) tick();
  });
  tick();

  return {
    sendNow(id) {
      inFlight++;
      const message = queue.take(id);
      if (!message) {
        inFlight--;
        return;
      }
      queue.resume();
      const turn = thread.getState().thread.activeTurn;
      if (turn !== null) stop(turn);
      run(message);
    },
    dispose() {
      disposed = true;
      offQueue();
      offThread();
    },
  };
}
