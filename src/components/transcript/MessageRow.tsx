import type { ComponentPropsWithRef } from 'react';
import type { AssistantRow, UserRow } from '../../runtime/fold';
import { Markdown } from '../markdown/Markdown';
import { INTERRUPTED } from '../../runtime/host/derive';

export interface MessageRowProps extends ComponentPropsWithRef<'div'> {
  /** The message to show. */
  row: UserRow | AssistantRow;
}

/** What an interrupted reply says under the text that arrived. */
const INTERRUPTED_NOTE = INTERRUPTED.reply;

/**
 * A user or assistant message. The user's text shows as typed; the
 * assistant's renders as markdown, also while it streams. Assistant rows
 * carry `data-state` streaming|done|interrupted|error; an interrupted reply
 * (the server restarted mid-stream) keeps the text that arrived and says so.
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
        {row.kind === 'user' ? (
          <div data-part="message-text">{row.text}</div>
        ) : (
          <div data-part="message-text" data-format="markdown">
            <Markdown text={row.text} streaming={state === 'streaming'} />
          </div>
        )}
        {state === 'error' ? <span data-part="message-note">This reply was cut short.</span> : null}
        {state === 'interrupted' ? <span data-part="message-note">{INTERRUPTED_NOTE}</span> : null}
      </div>
    </div>
  );
}
MessageRow.displayName = 'ChatSurface.MessageRow';
