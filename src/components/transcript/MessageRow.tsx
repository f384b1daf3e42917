import { useId, useState, type ComponentPropsWithRef } from 'react';
import type { AssistantRow, UserRow } from '../../runtime/fold';
import { Markdown } from '../markdown/Markdown';
import { MessageActions } from '../message/MessageActions';
import type { ChatSurfaceMessages } from '../messages/defaults';
import { useMessages } from '../messages/context';

export interface MessageRowProps extends ComponentPropsWithRef<'div'> {
  /** The message to show. */
  row: UserRow | AssistantRow;
  /** Show Copy and the rating buttons under a finished reply (`Message.Actions`). @default true */
  actions?: boolean;
}

/** A message of the user's longer than this (characters, or lines) shows collapsed until "Show all". */
const LONG_CHARS = 1_200;
const LONG_LINES = 12;

/** Who wrote it, in the transcript's words: the offline model says who it is once, in the header's badge. */
function authorOf(row: UserRow | AssistantRow, m: ChatSurfaceMessages['message']): string {
  if (row.kind === 'user') return m.you;
  return !row.driver || row.driver.id === 'offline' ? m.assistant : row.driver.label;
}

/**
 * A user or assistant message. The user's text shows as typed; the
 * assistant's renders as markdown, also while it streams. Assistant rows
 * carry `data-state` streaming|done|interrupted|error; an interrupted reply
 * (the server restarted mid-stream) keeps the text that arrived and says so.
 * A long paste of the user's shows its first lines until "Show all"
 * (`data-collapsed`; the button says how long it is and toggles back).
 * A finished reply has its actions under it: Copy, and rating buttons when
 * the workspace takes feedback (`Message.Actions`).
 * @example
 * <MessageRow row={{ kind: 'user', id: 'm1', text: 'hello' }} />
 */
export function MessageRow({ row, actions = true, ...props }: MessageRowProps) {
  const m = useMessages().message;
  const author = authorOf(row, m);
  const state = row.kind === 'user' ? 'done' : row.status;
  const long = row.kind === 'user' && (row.text.length > LONG_CHARS || row.text.split('\n').length > LONG_LINES);
  const [expanded, setExpanded] = useState(false);
  const textId = useId();
  return (
    <div
      {...props}
      data-part="message"
      data-role={row.kind}
      data-state={state}
      aria-busy={state === 'streaming' || undefined}
      data-collapsed={long && !expanded ? '' : undefined}
    >
      <div data-part="message-bubble">
        <span data-part="message-author">{author}</span>
        {row.kind === 'user' ? (
          <div data-part="message-text" id={textId}>
            {row.text}
          </div>
        ) : (
          <div data-part="message-text" data-format="markdown">
            <Markdown text={row.text} streaming={state === 'streaming'} />
          </div>
        )}
        {long ? (
          <button type="button" data-part="message-expand" aria-expanded={expanded} aria-controls={textId} onClick={() => setExpanded((v) => !v)}>
            {expanded ? m.showLess : m.showAll(row.text.length)}
          </button>
        ) : null}
        {state === 'error' ? <span data-part="message-note" data-state={state}>{m.cutShort}</span> : null}
        {state === 'interrupted' ? <span data-part="message-note" data-state={state}>{m.interrupted}</span> : null}
      </div>
      {actions && row.kind === 'assistant' && state !== 'streaming' && row.text ? <MessageActions row={row} /> : null}
    </div>
  );
}
MessageRow.displayName = 'ChatSurface.MessageRow';
