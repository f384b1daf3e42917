import { createStore, type StoreApi } from 'zustand/vanilla';
import { createId } from '../../runtime/ids';

/** A message the user sent while a reply was running: it waits here and is sent when the reply ends. */
export interface QueuedMessage {
  id: string;
  text: string;
}

export interface MessageQueueState {
  /** In the order they are sent. */
  items: readonly QueuedMessage[];
  /** After a Stop (or a send that failed): nothing is sent until the user sends them. */
  paused: boolean;
  /** Why the last queued message could not be sent (it is back at the front). */
  error: string | null;
}

/** The messages a thread's user queued while a reply ran; the surface's runner sends them (`runQueue`). */
export interface MessageQueue extends StoreApi<MessageQueueState> {
  add(text: string): void;
  edit(id: string, text: string): void;
  remove(id: string): void;
  /** Takes the message out to send it (null when it is not queued). */
  take(id: string): QueuedMessage | null;
  /** Puts a message whose send failed back at the front, paused, with why. */
  putBack(message: QueuedMessage, error: string): void;
  pause(): void;
  resume(): void;
}

/** How many messages may wait; one more is refused (the composer keeps it). */
export const QUEUE_LIMIT = 20;

export function createMessageQueue(): MessageQueue {
  const store = createStore<MessageQueueState>(() => ({ items: [], paused: false, error: null }));
  const { getState, setState } = store;
  return {
    ...store,
    add(text) {
      // A message written after a Stop joins the end, and the queue goes on: the user is writing again.
      setState({ items: [...getState().items, { id: createId('queued'), text }], paused: false, error: null });
    },
    edit(id, text) {
      setState({ items: getState().items.map((m) => (m.id === id ? { ...m, text } : m)) });
    },
    remove(id) {
      const items = getState().items.filter((m) => m.id !== id);
      setState(items.length ? { items } : { items, paused: false, error: null });
    },
    take(id) {
      const message = getState().items.find((m) => m.id === id) ?? null;
      if (message) setState({ items: getState().items.filter((m) => m !== message), error: null });
      return message;
    },
    putBack(message, error) {
      setState({ items: [message, ...getState().items], paused: true, error });
    },
    pause() {
      if (getState().items.length) setState({ paused: true });
    },
    resume() {
      setState({ paused: false, error: null });
    },
  };
}
