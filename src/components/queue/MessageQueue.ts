import { MessageQueueItem } from './MessageQueueItem';
import { MessageQueueRoot } from './MessageQueueRoot';

/**
 * The messages a user sent while a reply was running, as parts a host recomposes: `Root` (the
 * list under the transcript; its items by default) and `Item`.
 * @example
 * <MessageQueue.Root />
 */
export const MessageQueue = {
  Root: MessageQueueRoot,
  Item: MessageQueueItem,
};
