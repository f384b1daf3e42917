import type { AssistantRow, UserRow, VersionPosition } from '../../runtime/fold';
import { useEffect, useState } from 'react';
import { whenIdle } from '../../hooks/whenIdle';
import { loadUsedParts, usedPart, usedPartsLoaded } from '../chat-surface/loadUsedParts';
import { deferred } from '../deferred/deferred';
import { useMessages } from '../messages/context';
import type { MessageActionsProps } from './MessageActions';
import type { MessageEditorProps } from './MessageEditor';
import type { VersionsPickerProps } from './VersionsPicker';

// A message row's actions, its editor and its versions picker load on use, in one chunk with the
// surface's other parts loaded on use (../chat-surface/usedParts),
// fetched when the first of them is needed: the first finished reply (its actions), the pointer
// or focus on Edit, or a message with versions. Until it comes each shows a shell of its own size
// (nothing moves when the part arrives): the actions' group, the picker with its count and its
// buttons unavailable, and the message's text under an editor not open yet. A click on Edit
// before it comes opens the editor when it does.

/** Fetches the chunk now (Edit is hovered or focused: the click should find the editor there); resolves when it is there. */
export function preloadMessageParts(): Promise<unknown> {
  return Promise.resolve(loadUsedParts());
}

/** The actions' group (`Message.Actions`) with no buttons yet: its height kept (styles.css). */
function ActionsShell({ row }: { row: AssistantRow }) {
  const m = useMessages().messageActions;
  return <div role="group" aria-label={m.label} aria-busy="true" data-part="message-actions" data-state={row.feedback?.rating ?? 'none'} />;
}

/**
 * `Message.Actions`, loaded on use: the first finished reply fetches the chunk once the browser is
 * idle (after the frame that shows the reply: a thread opened with a long history paints first),
 * its group standing in at the buttons' height meanwhile. A failed fetch is tried again when the
 * next reply's actions mount.
 */
export function MessageActionsLater(props: MessageActionsProps) {
  const [parts, setParts] = useState(usedPartsLoaded);
  useEffect(() => {
    if (parts) return;
    let live = true;
    const cancel = whenIdle(() => {
      Promise.resolve(loadUsedParts()).then(
        (loaded) => live && setParts(loaded),
        () => {}, // the group stays as it is; the next reply's actions ask again
      );
    });
    return () => {
      live = false;
      cancel();
    };
  }, [parts]);
  return parts ? <parts.MessageActions {...props} /> : <ActionsShell row={props.row} />;
}
MessageActionsLater.displayName = 'Message.Actions';

/** `Message.Editor`, loaded on first use; the message's text shows until it comes. */
export const messageEditor = deferred<MessageEditorProps>(
  usedPart((m) => m.MessageEditor),
  'Message.Editor',
  (props) => <EditorShell row={props.row} />,
  'part',
);

function EditorShell({ row }: { row: UserRow }) {
  return <div data-part="message-text">{row.text}</div>;
}

/** The versions picker (`BranchPicker.Root` with its parts), loaded on first use. */
export const versionsPicker = deferred<VersionsPickerProps>(
  usedPart((m) => m.VersionsPicker),
  'BranchPicker.Root',
  (props) => <PickerShell position={props.position} />,
  'part',
);

/** The picker as it will show, its buttons unavailable (as while a reply is written) until its code comes. */
function PickerShell({ position }: { position: VersionPosition }) {
  const m = useMessages().versions;
  return (
    <div role="group" aria-label={m.label} data-part="branch-picker" data-version-part={position.part} data-state="busy">
      <button type="button" data-part="branch-picker-previous" aria-label={m.previous} title={m.previous} aria-disabled="true">
        <span aria-hidden="true">‹</span>
      </button>
      <span data-part="branch-picker-count">
        <span aria-hidden="true">{m.count(position.index, position.count)}</span>
        <span className="cs-visually-hidden">{m.position(position.index, position.count)}</span>
      </span>
      <button type="button" data-part="branch-picker-next" aria-label={m.next} title={m.next} aria-disabled="true">
        <span aria-hidden="true">›</span>
      </button>
    </div>
  );
}
