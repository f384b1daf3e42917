import type { ComponentPropsWithRef } from 'react';
import { useMessages } from '../messages/context';
import type { DraftFile } from './draft';

export interface AttachmentChipProps extends Omit<ComponentPropsWithRef<'li'>, 'children'> {
  /** The file: uploading, ready or refused. */
  file: DraftFile;
  /** Removes it (its "Remove <name>" button); without it the chip has no button. */
  onRemove?: () => void;
}

/** A page-like glyph for a file that is not shown as an image. */
export function FileGlyph() {
  return (
    <svg aria-hidden="true" focusable="false" width="18" height="18" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" data-part="attachment-glyph">
      <path d="M14 2H6a2 2 0 0 0-2 2v16a2 2 0 0 0 2 2h12a2 2 0 0 0 2-2V8z" />
      <path d="M14 2v6h6" />
    </svg>
  );
}

/**
 * One file in the composer before sending: its thumbnail (an image) or a file glyph, its name and
 * size, a progress bar while it uploads (named "Uploading <name>"), the server's words when it was
 * refused, and "Remove <name>". `data-state` is uploading|ready|refused, `data-kind` image|file.
 * @example
 * <AttachmentChip file={{ key: 'f1', name: 'customers.csv', size: 812, type: 'text/csv', status: 'ready', sent: 812 }} onRemove={remove} />
 */
export function AttachmentChip({ file, onRemove, ...props }: AttachmentChipProps) {
  const m = useMessages().attachments;
  const refused = file.status === 'refused';
  return (
    <li {...props} data-part="attachment-chip" data-state={file.status} data-kind={file.preview ? 'image' : 'file'}>
      {file.preview ? <img src={file.preview} alt="" width={32} height={32} data-part="attachment-thumb" /> : <FileGlyph />}
      <span data-part="attachment-label">
        <span data-part="attachment-name">{file.name}</span> <span data-part="attachment-size">{m.size(file.size)}</span>
      </span>
      {file.status === 'uploading' ? <progress data-part="attachment-progress" aria-label={m.uploading(file.name)} max={Math.max(file.size, 1)} value={Math.min(file.sent, file.size)} /> : null}
      {onRemove ? (
        <button type="button" data-part="attachment-remove" aria-label={m.remove(file.name)} title={m.remove(file.name)} onClick={onRemove}>
          <svg aria-hidden="true" focusable="false" width="14" height="14" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2.5" strokeLinecap="round">
            <path d="M6 6l12 12M18 6L6 18" />
          </svg>
        </button>
      ) : null}
      {refused ? (
        <p role="alert" data-part="attachment-error">
          {m.refused(file.name, file.error ?? '')}
        </p>
      ) : null}
    </li>
  );
}
AttachmentChip.displayName = 'Composer.AttachmentChip';
