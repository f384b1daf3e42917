import { useId, useRef, type ComponentPropsWithRef } from 'react';
import type { UserRow } from '../../runtime/fold';
import { useOptionalChatSurface } from '../../hooks/context';
import { noteUserAction } from '../../hooks/userAction';
import { updateEditor, useEditingMessage, useFocusRequest, useVersionsUi, versionGroupOf } from '../../hooks/useVersions';
import { useMessages } from '../messages/context';
import { reasonOf } from '../messages/reason';

export interface MessageEditorProps extends Omit<ComponentPropsWithRef<'form'>, 'onSubmit'> {
  /** The message of the user's being edited. */
  row: UserRow;
}

/**
 * A message of the user's, open for editing in place (after `Message.Edit`, or ↑ in an empty
 * message box): a text box with its text, "Send" and "Cancel". Send (or Enter; Shift+Enter for a
 * new line) makes a new version of the message, with a new reply, the old one staying one switch
 * away (`BranchPicker`); an empty text cannot be sent. Cancel (or Escape) leaves everything as it
 * was and gives focus back to Edit. A refused edit says why (`role="alert"`) and keeps the text.
 * Renders nothing while the message is not open. `data-state` is editing|sending|error.
 * @example
 * <Message.Editor row={userRow} />
 */
export function MessageEditor({ row, onKeyDown, ...props }: MessageEditorProps) {
  const messages = useMessages();
  const m = messages.messageEdit;
  const surface = useOptionalChatSurface();
  const ui = useVersionsUi();
  const editing = useEditingMessage(row.id);
  const box = useRef<HTMLTextAreaElement>(null);
  const id = useId();
  useFocusRequest('editor', row.id, box, {
    shown: editing !== null,
    // The caret at the end of the text, as where one goes on typing.
    then: (el) => el.setSelectionRange(el.value.length, el.value.length),
  });
  if (!editing || !surface) return null;
  const sending = editing.state === 'sending';
  const empty = !editing.text.trim();
  const group = versionGroupOf(row);

  const cancel = () => {
    if (ui.getState().editing?.id !== row.id) return;
    ui.setState({ editing: null, focus: { target: 'edit', key: group, force: true } });
  };
  const send = () => {
    const text = editing.text.trim();
    if (!text || sending) return;
    updateEditor(ui, row.id, { state: 'sending', error: null });
    // The new version replaces this message: its Edit button takes the focus the editor had.
    ui.setState({ focus: { target: 'edit', key: group, force: false, from: row.id } });
    noteUserAction(surface.store);
    let promise: Promise<void>;
    try {
      promise = Promise.resolve(surface.workspace.send({ threadId: surface.threadId, text, edits: row.id }));
    } catch (reason) {
      promise = Promise.reject(reason);
    }
    promise.then(
      () => {
        const now = ui.getState().editing;
        if (now?.id === row.id && now.state === 'sending') ui.setState({ editing: null });
      },
      (reason: unknown) => {
        updateEditor(ui, row.id, { state: 'error', error: m.notSent(reasonOf(reason, messages).replace(/\.$/, '')) });
        if (ui.getState().editing?.id === row.id) ui.setState({ focus: { target: 'editor', key: row.id, force: false } });
      },
    );
  };

  const errorId = `${id}-error`;
  return (
    <form
      aria-label={m.label}
      {...props}
      data-part="message-editor"
      data-state={editing.state}
      onSubmit={(event) => {
        event.preventDefault();
        send();
      }}
      onKeyDown={(event) => {
        onKeyDown?.(event);
        if (event.defaultPrevented) return;
        if (event.key === 'Escape') {
          // Not the surface's Escape (which stops a running reply): this one leaves the editor.
          event.preventDefault();
          event.stopPropagation();
          if (!sending) cancel();
        }
      }}
    >
      <label htmlFor={id} className="cs-visually-hidden">
        {m.label}
      </label>
      <textarea
        ref={box}
        id={id}
        rows={Math.min(8, Math.max(2, editing.text.split('\n').length))}
        value={editing.text}
        readOnly={sending}
        aria-invalid={editing.state === 'error' || undefined}
        aria-describedby={editing.error ? errorId : undefined}
        onChange={(event) => updateEditor(ui, row.id, { text: event.target.value, ...(editing.state === 'error' ? { state: 'editing' as const } : {}) })}
        onKeyDown={(event) => {
          if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing && event.keyCode !== 229) {
            event.preventDefault();
            send();
          }
        }}
      />
      <div data-part="message-editor-buttons">
        {/* `aria-disabled` while it sends (the button pressed keeps focus); `disabled` while the text is empty. */}
        <button type="submit" disabled={empty} aria-disabled={sending || undefined}>
          {m.send}
        </button>
        <button type="button" aria-disabled={sending || undefined} onClick={() => !sending && cancel()}>
          {m.cancel}
        </button>
      </div>
      {editing.error ? (
        <p id={errorId} role="alert" data-part="message-editor-error">
          {editing.error}
        </p>
      ) : null}
    </form>
  );
}
MessageEditor.displayName = 'Message.Editor';
