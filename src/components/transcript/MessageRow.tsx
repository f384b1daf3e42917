import type { ComponentPropsWithRef } from 'react';
import type { AssistantRow, UserRow } from '../../runtime/fold';

export interface MessageRowProps extends ComponentPropsWithRef<'div'> {
  /** The message to show. */
  row: UserRow | AssistantRow;
}

/**
 * A user or assistant message; assistant rows carry `data-state` streaming|done|error.
 * @example
 * <MessageRow row={{ kind: 'user', id: 'm1', text: 'hello' }} />
 */
export function MessageRow({ row, ...props }: MessageRowProps) {
  const author = row.kind === 'user' ? 'You' : (row.driver?.label ?? 'Assistant');
  const state = row.kind === 'user' ? 'done' : row.status;
  return (
    <div
      {...props}
      data-part="message"
      data-role={row.kind}
      data-state={state}
      aria-busy={state === 'streaming' || undefined}
    >
      <div data-part="message-bubble">
        <span data-part="message-author">{author}</span>
        <div data-part="message-text">{row.text}</div>
        {state === 'error' ? <span data-part="message-note">This reply was cut short.</span> : null}
      </div>
    </div>
  );
}
MessageRow.displayName = 'ChatSurface.MessageRow';
