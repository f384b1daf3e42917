import type { ComponentPropsWithRef } from 'react';
import { useMessages } from '../messages/context';
import { AttachmentChip } from './AttachmentChip';
import type { DraftFile } from './draft';

export interface AttachmentTrayProps extends Omit<ComponentPropsWithRef<'ul'>, 'children'> {
  files: readonly DraftFile[];
  /** Removes one chip by its key. */
  onRemove: (key: string) => void;
  /** Where focus goes once a chip is removed (the message box's id). */
  focusAfter?: string;
}

/**
 * The files going with the next message, as chips above the message box ("Files to send").
 * Removing a chip puts focus on the next chip's Remove, else on the message box.
 * @example
 * <AttachmentTray files={files} onRemove={remove} focusAfter={inputId} />
 */
export function AttachmentTray({ files, onRemove, focusAfter, ...props }: AttachmentTrayProps) {
  const m = useMessages().attachments;
  if (!files.length) return null;
  return (
    <ul aria-label={m.trayLabel} {...props} data-part="attachment-tray">
      {files.map((file, i) => (
        <AttachmentChip
          key={file.key}
          file={file}
          onRemove={() => {
            const next = files[i + 1] ?? files[i - 1];
            onRemove(file.key);
            const target = next ? document.querySelector<HTMLElement>(`[data-attachment-key="${next.key}"] [data-part="attachment-remove"]`) : null;
            (target ?? (focusAfter ? document.getElementById(focusAfter) : null))?.focus();
          }}
          data-attachment-key={file.key}
        />
      ))}
    </ul>
  );
}
AttachmentTray.displayName = 'Composer.AttachmentTray';
