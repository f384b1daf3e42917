import { useStore } from 'zustand';
import { usedPart } from '../chat-surface/loadUsedParts';
import { deferred } from '../deferred/deferred';
import { useMessageQueue } from './context';
import type { MessageQueueRootProps } from './MessageQueueRoot';

/** `MessageQueue.Root`, loaded on use with the surface's other parts loaded on use (../chat-surface/usedParts). */
const queueList = deferred<MessageQueueRootProps>(usedPart((m) => m.MessageQueueRoot), 'MessageQueue.Root', null, 'part');

/**
 * The assembled surface's queue: `MessageQueue.Root` once a message waits (its code is fetched
 * then, or is there already with a finished reply's actions); nothing before.
 */
export function QueuedMessages() {
  const { queue } = useMessageQueue('Root');
  const waiting = useStore(queue, (s) => s.items.length > 0);
  return waiting ? <queueList.Part /> : null;
}
