import { useRef, type ComponentPropsWithRef } from 'react';
import type { UserRow } from '../../runtime/fold';
import { useOptionalChatSurface } from '../../hooks/context';
import { canEditOn, openEditor, useEditingMessage, useFocusRequest, useMergedRef, useVersionsUi, versionGroupOf } from '../../hooks/useVersions';
import { useMessages } from '../messages/context';
import { preloadMessageParts } from './deferredMessageParts';

export interface MessageEditProps extends ComponentPropsWithRef<'button'> {
  /** The message of the user's the button edits. */
  row: UserRow;
}

/**
 * "Edit message": opens the message in place for editing (`Message.Editor`, focused, with its
 * text). Shows only with a workspace that takes edits and shows versions (`showVersion`), and not
 * while the message is open; focus comes back to it when the editor is left. ↑ in an empty
 * message box does the same for the newest message of the user's.
 * @example
 * <Message.Edit row={userRow} />
 */
export function MessageEdit({ row, children, onClick, ref, ...props }: MessageEditProps) {
  const m = useMessages().messageEdit;
  const surface = useOptionalChatSurface();
  const ui = useVersionsUi();
  const editing = useEditingMessage(row.id);
  const own = useRef<HTMLButtonElement>(null);
  const setRef = useMergedRef(own, ref);
  const shown = canEditOn(surface?.workspace) && editing === null;
  // Back here after Cancel; or, after Send, on the new version's button when it replaces this message.
  useFocusRequest('edit', versionGroupOf(row), own, { shown, version: row.id });
  if (!shown) return null;
  return (
    <button
      type="button"
      {...props}
      ref={setRef}
      data-part="message-edit"
      aria-label={m.edit}
      title={m.edit}
      // The editor's code loads on first use: fetched as the pointer comes or focus lands, so it is
      // usually there by the click (a click before it waits for it: the editor opens when it comes).
      onPointerEnter={(event) => {
        props.onPointerEnter?.(event);
        void preloadMessageParts().catch(() => {});
      }}
      onFocus={(event) => {
        props.onFocus?.(event);
        void preloadMessageParts().catch(() => {});
      }}
      onClick={(event) => {
        onClick?.(event);
        if (!event.defaultPrevented) openEditor(ui, row);
      }}
    >
      {children ?? <span aria-hidden="true">✎</span>}
    </button>
  );
}
MessageEdit.displayName = 'Message.Edit';
