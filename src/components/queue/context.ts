import { createContext, useContext } from 'react';
import type { MessageQueue } from './queueStore';

export interface MessageQueueContextValue {
  queue: MessageQueue;
  /** Stops the reply, if one runs, and sends the queued message at once. */
  sendNow(id: string): void;
}

export const MessageQueueContext = createContext<MessageQueueContextValue | null>(null);

/** The shown thread's queue, or null outside a surface. */
export function useOptionalMessageQueue(): MessageQueueContextValue | null {
  return useContext(MessageQueueContext);
}

export function useMessageQueue(part: string): MessageQueueContextValue {
  const value = useContext(MessageQueueContext);
  if (!value) throw new Error(`<MessageQueue.${part}> must be used within <ChatSurface> or <ChatSurface.Root>.`);
  return value;
}
