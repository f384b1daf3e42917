import { useEffect, useId, useRef, useState, type ComponentPropsWithRef } from 'react';
import { flushSync } from 'react-dom';
import { useMessages } from '../messages/context';
import { useMessageQueue } from './context';
import type { QueuedMessage } from './queueStore';

export interface MessageQueueItemProps extends ComponentPropsWithRef<'li'> {
  /** The queued message. */
  item: QueuedMessage;
}

/**
 * One queued message: its text, "Send now" (stops the reply and sends it at once), "Edit" (in
 * place: Save or Cancel, Escape cancels) and "Remove". `data-state` is `waiting` or `editing`.
 * @example
 * <MessageQueue.Item item={queued} />
 */
export function MessageQueueItem({ item, ...props }: MessageQueueItemProps) {
  const m = useMessages().queue;
  const { queue, sendNow } = useMessageQueue('Item');
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(item.text);
  const box = useRef<HTMLTextAreaElement>(null);
  const editButton = useRef<HTMLButtonElement>(null);
  const id = useId();
  useEffect(() => {
    if (editing) box.current?.focus();
  }, [editing]);

  const finish = (save: boolean) => {
    const text = draft.trim();
    if (save && text) queue.edit(item.id, text);
    // Back to the item's Edit button, shown again at once (not at the next frame, which a busy or hidden page may not have yet).
    flushSync(() => setEditing(false));
    editButton.current?.focus();
  };

  return (
    <li {...props} data-part="message-queue-item" data-state={editing ? 'editing' : 'waiting'}>
      {editing ? (
        <form
          data-part="message-queue-edit"
          onSubmit={(event) => {
            event.preventDefault();
            finish(true);
          }}
          onKeyDown={(event) => {
            if (event.key !== 'Escape') return;
            event.stopPropagation();
            finish(false);
          }}
        >
          <label htmlFor={id} className="cs-visually-hidden">
            {m.editLabel}
          </label>
          <textarea id={id} ref={box} rows={2} value={draft} onChange={(event) => setDraft(event.target.value)} />
          <button type="submit" disabled={!draft.trim()}>
            {m.save}
          </button>
          <button type="button" onClick={() => finish(false)}>
            {m.cancel}
          </button>
        </form>
      ) : (
        <>
          <span data-part="message-queue-text">{item.text}</span>
          <span data-part="message-queue-buttons">
            <button type="button" aria-label={m.sendNowLabel(item.text)} onClick={() => sendNow(item.id)}>
              {m.sendNow}
            </button>
            <button
              type="button"
              ref={editButton}
              aria-label={m.editNamed(item.text)}
              onClick={() => {
                setDraft(item.text);
                setEditing(true);
              }}
            >
              {m.edit}
            </button>
            <button type="button" aria-label={m.removeNamed(item.text)} onClick={() => queue.remove(item.id)}>
              {m.remove}
            </button>
          </span>
        </>
      )}
    </li>
  );
}
MessageQueueItem.displayName = 'MessageQueue.Item';
