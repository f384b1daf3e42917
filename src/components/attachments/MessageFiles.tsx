import { useEffect, useRef, useState, type ComponentPropsWithRef } from 'react';
import { useOptionalChatSurface } from '../../hooks/context';
import type { AttachmentRef } from '../../runtime/events/messages';
import { reasonOf } from '../messages/reason';
import { useMessages } from '../messages/context';
import type { AttachmentsApi } from '../../workspace/types';
import { FileGlyph } from './AttachmentChip';
import { THUMBNAIL_TYPES } from './thumbnails';

export interface MessageFilesProps extends Omit<ComponentPropsWithRef<'ul'>, 'children'> {
  /** The files a message of the user's carries (its `attachments`). */
  files: readonly AttachmentRef[];
}

/** Recently read files, so a row scrolled back into view does not fetch its thumbnails again. */
const recent = new Map<string, Promise<Blob>>();
const RECENT = 12;
function readOnce(api: AttachmentsApi, id: string): Promise<Blob> {
  let got = recent.get(id);
  if (!got) {
    got = api.read(id);
    recent.set(id, got);
    got.catch(() => recent.delete(id));
    if (recent.size > RECENT) recent.delete(recent.keys().next().value!);
  }
  return got;
}

/**
 * The files of a message in the transcript: images as thumbnails that open full size in a dialog,
 * other files as chips that download them (read through `workspace.attachments`, so the
 * workspace's sign-in goes with them). Only PNG, JPEG, GIF and WebP bytes are ever shown as
 * images; anything else, SVG and HTML included, is a download.
 * @example
 * <MessageFiles files={row.attachments} />
 */
export function MessageFiles({ files, ...props }: MessageFilesProps) {
  const m = useMessages().attachments;
  return (
    <ul aria-label={m.messageFiles} {...props} data-part="message-files">
      {files.map((file) => (THUMBNAIL_TYPES.has(file.media_type) ? <ImageFile key={file.id} file={file} /> : <OtherFile key={file.id} file={file} />))}
    </ul>
  );
}
MessageFiles.displayName = 'Message.Files';

/** An image's bytes as an object URL (revoked when the part goes), or why they cannot be read. */
function useImage(api: AttachmentsApi | undefined, id: string): { url: string | null; error: unknown } {
  const [state, setState] = useState<{ url: string | null; error: unknown }>({ url: null, error: null });
  useEffect(() => {
    if (!api) return;
    let url: string | null = null;
    let live = true;
    readOnce(api, id).then(
      (blob) => {
        if (!live) return;
        // The served type decides: bytes that are not one of the safe image kinds are not shown as one.
        if (!THUMBNAIL_TYPES.has(blob.type.split(';')[0]!.trim())) return setState({ url: null, error: new Error(`it is ${blob.type || 'of no type'}, not an image`) });
        url = URL.createObjectURL(blob);
        setState({ url, error: null });
      },
      (error: unknown) => live && setState({ url: null, error }),
    );
    return () => {
      live = false;
      if (url) URL.revokeObjectURL(url);
    };
  }, [api, id]);
  return state;
}

function ImageFile({ file }: { file: AttachmentRef }) {
  const messages = useMessages();
  const m = messages.attachments;
  const api = useOptionalChatSurface()?.workspace.attachments;
  const { url, error } = useImage(api, file.id);
  const dialog = useRef<HTMLDialogElement>(null);
  if (error || !api) {
    return (
      <li data-part="message-file" data-kind="image" data-state="unavailable">
        <FileGlyph />
        <span data-part="attachment-name">{api ? m.unavailable(file.name, reasonOf(error, messages)) : file.name}</span>
      </li>
    );
  }
  return (
    <li data-part="message-file" data-kind="image" data-state={url ? 'ready' : 'loading'}>
      <button type="button" data-part="message-file-open" aria-label={m.openImage(file.name)} title={file.name} disabled={!url} onClick={() => dialog.current?.showModal()}>
        {url ? <img src={url} alt="" data-part="message-file-thumb" /> : <span data-part="message-file-thumb" aria-hidden="true" />}
      </button>
      {url ? (
        <dialog ref={dialog} data-part="message-file-dialog" aria-label={file.name} onClick={(event) => event.target === event.currentTarget && event.currentTarget.close()}>
          <img src={url} alt={file.name} data-part="message-file-full" />
          <form method="dialog">
            <button type="submit" data-part="message-file-close">
              {m.close}
            </button>
          </form>
        </dialog>
      ) : null}
    </li>
  );
}

function OtherFile({ file }: { file: AttachmentRef }) {
  const messages = useMessages();
  const m = messages.attachments;
  const api = useOptionalChatSurface()?.workspace.attachments;
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const size = m.size(file.size);
  const download = async () => {
    if (!api) return;
    setBusy(true);
    setError(null);
    try {
      const blob = await api.read(file.id);
      // Always a download, with the name as text: never opened in the page, whatever the bytes are.
      const url = URL.createObjectURL(new Blob([blob], { type: 'application/octet-stream' }));
      const link = document.createElement('a');
      link.href = url;
      link.download = file.name;
      link.rel = 'noopener';
      document.body.append(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(url), 30_000);
    } catch (reason) {
      setError(m.unavailable(file.name, reasonOf(reason, messages)));
    } finally {
      setBusy(false);
    }
  };
  return (
    <li data-part="message-file" data-kind="file" data-state={error ? 'unavailable' : busy ? 'loading' : 'ready'}>
      <button type="button" data-part="message-file-open" aria-label={m.openFile(file.name, size)} disabled={!api || busy} onClick={() => void download()}>
        <FileGlyph />
        <span data-part="attachment-name">{file.name}</span> <span data-part="attachment-size">{size}</span>
      </button>
      {error ? (
        <p role="alert" data-part="attachment-error">
          {error}
        </p>
      ) : null}
    </li>
  );
}
