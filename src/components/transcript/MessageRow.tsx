import { useId, useState, type ComponentPropsWithRef } from 'react';
import type { AssistantRow, UserRow } from '../../runtime/fold';
import { useOptionalChatSurface } from '../../hooks/context';
import { useEditingMessage, useMessageVersions, useReplyStart, useReplyVersions } from '../../hooks/useVersions';
import { Markdown } from '../markdown/Markdown';
import { MessageReasoningSlot } from '../message/ReasoningSlot';
import { CitedReplySlot } from '../message/CitedReplySlot';
import { MessageFilesSlot } from '../message/MessageFilesSlot';
// The actions, the editor and the versions picker load on first use (../message/deferredMessageParts).
import { MessageActionsLater, messageEditor, versionsPicker } from '../message/deferredMessageParts';
import { MessageEdit } from '../message/MessageEdit';
import type { ChatSurfaceMessages } from '../messages/defaults';
import { useMessages } from '../messages/context';

export interface MessageRowProps extends ComponentPropsWithRef<'div'> {
  /** The message to show. */
  row: UserRow | AssistantRow;
  /**
   * Show the message's actions: under a finished reply Copy, Regenerate and the rating buttons
   * (`Message.Actions`); on a message of the user's Edit (`Message.Edit`, `Message.Editor`); and
   * the versions of either (`BranchPicker`). @default true
   */
  actions?: boolean;
  /**
   * The row's place in the transcript (`TranscriptRow` passes it): the first reply row after a
   * message of the user's then carries Regenerate and the reply's versions.
   */
  index?: number;
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
 * the workspace takes feedback (`Message.Actions`). With a workspace that keeps versions, a
 * message of the user's has Edit (it opens in place, `Message.Editor`) and the row that starts a
 * reply has Regenerate; either shows its versions ("2 / 3", `BranchPicker`) when it has some.
 * @example
 * <MessageRow row={{ kind: 'user', id: 'm1', text: 'hello' }} />
 */
export function MessageRow({ row, actions = true, index, ...props }: MessageRowProps) {
  const m = useMessages().message;
  const editing = useEditingMessage(row.kind === 'user' && actions ? row.id : '') !== null;
  const replyTo = useReplyStart(actions && row.kind === 'assistant' ? index : undefined);
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
      data-message-id={row.id}
      data-state={state}
      aria-busy={state === 'streaming' || undefined}
      data-collapsed={long && !expanded && !editing ? '' : undefined}
    >
      <div data-part="message-bubble">
        <span data-part="message-author">{author}</span>
        {row.kind === 'assistant' && row.reasoning ? <MessageReasoningSlot reasoning={row.reasoning} streaming={state === 'streaming'} /> : null}
        {row.kind === 'user' && editing ? (
          <messageEditor.Part row={row} />
        ) : row.kind === 'user' ? (
          <div data-part="message-text" id={textId}>
            {row.text}
          </div>
        ) : (
          <div data-part="message-text" data-format="markdown">
            {row.citations ? <CitedReplySlot row={row} streaming={state === 'streaming'} /> : <Markdown text={row.text} streaming={state === 'streaming'} />}
          </div>
        )}
        {row.kind === 'user' && row.attachments?.length ? <MessageFilesSlot files={row.attachments} /> : null}
        {long && !editing ? (
          <button type="button" data-part="message-expand" aria-expanded={expanded} aria-controls={textId} onClick={() => setExpanded((v) => !v)}>
            {expanded ? m.showLess : m.showAll(row.text.length)}
          </button>
        ) : null}
        {state === 'error' ? <span data-part="message-note" data-state={state}>{m.cutShort}</span> : null}
        {state === 'interrupted' ? <span data-part="message-note" data-state={state}>{m.interrupted}</span> : null}
      </div>
      {actions && row.kind === 'user' ? (
        <div data-part="message-user-actions">
          <MessageVersions message={row} />
          <MessageEdit row={row} />
        </div>
      ) : null}
      {actions && replyTo !== null ? <MessageVersions replyTo={replyTo} /> : null}
      {actions && row.kind === 'assistant' && state !== 'streaming' && row.text ? <MessageActionsLater row={row} replyTo={replyTo} /> : null}
    </div>
  );
}
MessageRow.displayName = 'ChatSurface.MessageRow';

/**
 * The versions picker of a message of the user's (`message`) or of the reply to one (`replyTo`),
 * only when it has other versions and the workspace can switch them: its code is fetched then.
 */
function MessageVersions({ message, replyTo }: { message?: UserRow; replyTo?: string }) {
  const surface = useOptionalChatSurface();
  const ofMessage = useMessageVersions(message);
  const ofReply = useReplyVersions(message ? null : replyTo);
  const position = message ? ofMessage : ofReply;
  if (!position || !surface?.workspace.showVersion) return null;
  return message ? <versionsPicker.Part message={message} position={position} /> : <versionsPicker.Part replyTo={replyTo ?? null} position={position} />;
}
