import type { ComponentPropsWithRef } from 'react';
import { useStore } from 'zustand';
import { useMessages } from '../messages/context';
import { useMessageQueue } from './context';
import { MessageQueueItem } from './MessageQueueItem';

export type MessageQueueRootProps = ComponentPropsWithRef<'section'>;

/**
 * The messages the user sent while a reply was running, under the transcript: each waits to be
 * sent, in order, when the reply ends, and can be sent now, edited or removed. After a Stop they
 * wait (`data-state="paused"`) until the user sends them. Renders nothing when none wait.
 * @example
 * <MessageQueue.Root />
 */
export function MessageQueueRoot({ children, ...props }: MessageQueueRootProps) {
  const m = useMessages().queue;
  const { queue } = useMessageQueue('Root');
  const items = useStore(queue, (s) => s.items);
  const paused = useStore(queue, (s) => s.paused);
  const error = useStore(queue, (s) => s.error);
  if (!items.length) return null;
  return (
    <section aria-label={m.label} {...props} data-part="message-queue" data-state={paused ? 'paused' : 'waiting'}>
      <p data-part="message-queue-status" role="status">
        {paused ? m.paused(items.length) : m.waiting(items.length)}
      </p>
      {error ? (
        <p role="alert" data-part="message-queue-error">
          {m.notSent(error)}
        </p>
      ) : null}
      <ol data-part="message-queue-items">{children ?? items.map((item) => <MessageQueueItem key={item.id} item={item} />)}</ol>
      {paused ? (
        <button type="button" data-part="message-queue-resume" onClick={() => queue.getState().items.length && queue.resume()}>
          {m.resume}
        </button>
      ) : null}
    </section>
  );
}
MessageQueueRoot.displayName = 'MessageQueue.Root';
