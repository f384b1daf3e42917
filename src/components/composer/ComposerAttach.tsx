import { useEffect, useRef, useState, type ComponentPropsWithRef } from 'react';
import { createPortal } from 'react-dom';
import { deferred } from '../deferred/deferred';
import { loadAttachParts } from '../attachments/loadAttachParts';
import { useMessages } from '../messages/context';
import { useComposer } from './context';

export type ComposerAttachProps = Omit<ComponentPropsWithRef<'button'>, 'type'>;

// The chips and the upload code are one chunk, fetched with the first file.
const tray = deferred(() => loadAttachParts().then((m) => m.AttachmentTray), 'Composer.AttachmentTray', null, 'the attached files');

/**
 * Attachments in the composer, where the workspace takes files (`workspace.attachments`; else
 * nothing renders): an "Attach files" button opening the file chooser (several files at once), a
 * drop target over the whole surface while files are dragged onto it, and the chips of the files
 * going with the next message (`AttachmentChip`). Pasted files (`Composer.Root`) join them. Each
 * file uploads at once; Send waits until all have.
 * @example
 * <Composer.Root><Composer.Attach /><Composer.Input /><Composer.Send /></Composer.Root>
 */
export function ComposerAttach({ children, ...props }: ComposerAttachProps) {
  const m = useMessages().attachments;
  const { attachments, inputId } = useComposer('Attach');
  const input = useRef<HTMLInputElement>(null);
  const [surface, setSurface] = useState<HTMLElement | null>(null);
  const [dragging, setDragging] = useState(false);
  const add = attachments?.add;

  // Files dropped anywhere on the surface join the message; a visible target says where they go.
  useEffect(() => {
    const root = input.current?.closest<HTMLElement>('[data-chat-surface]') ?? input.current?.form;
    if (!root || !add) return;
    setSurface(root);
    let depth = 0;
    const onDrag = (event: DragEvent) => {
      if (!event.dataTransfer?.types.includes('Files')) return;
      if (event.type !== 'dragleave') event.preventDefault();
      if (event.type === 'dragenter') depth++;
      else if (event.type === 'dragleave') depth = Math.max(0, depth - 1);
      else if (event.type === 'drop') {
        depth = 0;
        if (event.dataTransfer.files.length) add([...event.dataTransfer.files]);
      }
      setDragging(depth > 0);
    };
    const types = ['dragenter', 'dragover', 'dragleave', 'drop'] as const;
    for (const type of types) root.addEventListener(type, onDrag);
    return () => {
      for (const type of types) root.removeEventListener(type, onDrag);
    };
  }, [add]);

  if (!attachments) return null;
  return (
    <>
      {attachments.files.length ? <tray.Part files={attachments.files} onRemove={attachments.remove} focusAfter={inputId} /> : null}
      <button
        {...(children ? {} : { 'aria-label': m.attach, title: m.attach })}
        {...props}
        type="button"
        data-part="composer-attach"
        onClick={(event) => {
          props.onClick?.(event);
          if (!event.defaultPrevented) input.current?.click();
        }}
      >
        {children ?? (
          // A paperclip: the button is square beside Send, so the message box keeps its width on a phone; its name is the words.
          <svg aria-hidden="true" focusable="false" width="18" height="18" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round">
            <path d="M21.4 11.1l-9.2 9.2a6 6 0 0 1-8.5-8.5l9.2-9.2a4 4 0 0 1 5.7 5.7l-9.2 9.2a2 2 0 0 1-2.8-2.8l8.5-8.5" />
          </svg>
        )}
      </button>
      <input
        ref={input}
        type="file"
        multiple
        hidden
        tabIndex={-1}
        aria-hidden="true"
        data-part="composer-attach-input"
        onChange={(event) => {
          const files = [...(event.currentTarget.files ?? [])];
          // Cleared, so choosing the same file again is a change too.
          event.currentTarget.value = '';
          if (files.length) attachments.add(files);
        }}
      />
      {dragging && surface
        ? createPortal(
            <div data-part="attach-drop" data-state="active" aria-hidden="true">
              {m.drop}
            </div>,
            surface,
          )
        : null}
    </>
  );
}
ComposerAttach.displayName = 'Composer.Attach';
