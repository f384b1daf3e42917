import type { AttachmentRef } from '../../runtime/events/messages';

/** A file in the composer before its message is sent: uploading, stored (ready), or refused with the server's words. */
export interface DraftFile {
  /** Stable within the composer (a chip's React key). */
  key: string;
  name: string;
  size: number;
  /** The type the browser gave it ('' when none): an image gets a thumbnail. */
  type: string;
  status: 'uploading' | 'ready' | 'refused';
  /** Bytes sent so far (uploading). */
  sent: number;
  /** What the server stored (ready): its id goes with the message. */
  ref?: AttachmentRef;
  /** Why it was refused, in the server's words. */
  error?: string;
  /** An object URL of an image's bytes for its thumbnail; revoked when the chip goes. */
  preview?: string;
}

/** The composer's files and what changes them (`Composer.Root` keeps them; the upload code loads on first use). */
export interface DraftFiles {
  files: readonly DraftFile[];
  /** Adds files (the chooser, a paste, a drop): each is uploaded at once. */
  add(files: readonly File[]): void;
  /** Removes a chip: stops its upload, or removes the stored file. */
  remove(key: string): void;
}

/** The files a message is sent with: the stored ones' ids. */
export const readyIds = (files: readonly DraftFile[]): string[] => files.flatMap((f) => (f.status === 'ready' && f.ref ? [f.ref.id] : []));

/** Lets go of the chips' thumbnails (their object URLs). */
export function revokePreviews(files: readonly DraftFile[]): void {
  for (const file of files) if (file.preview) URL.revokeObjectURL(file.preview);
}

/** The composer's chips as a small store: read at once (a count, a send), watched by the parts that show them. */
export interface DraftStore {
  get(): readonly DraftFile[];
  set(update: (files: readonly DraftFile[]) => readonly DraftFile[]): void;
  subscribe(listener: () => void): () => void;
}

export function createDraftStore(): DraftStore {
  let files: readonly DraftFile[] = [];
  const listeners = new Set<() => void>();
  return {
    get: () => files,
    set(update) {
      files = update(files);
      for (const listener of listeners) listener();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
