import type { AttachmentsApi } from '../../workspace/types';
import type { attachmentWords } from './attachmentWords';
import type { DraftFile } from './draft';
import { THUMBNAIL_TYPES } from './thumbnails';

/** What the upload code needs from the composer: the workspace's files API, the thread, the chips and their words. */
export interface UploadEnv {
  api: AttachmentsApi;
  threadId: string;
  get(): readonly DraftFile[];
  set(update: (files: readonly DraftFile[]) => readonly DraftFile[]): void;
  words: typeof attachmentWords;
  /** The running uploads by chip key (Remove aborts one). */
  uploads: Map<string, AbortController>;
}

let counter = 0;
const nextKey = () => `file-${Date.now().toString(36)}-${(counter++).toString(36)}`;

/** Why an upload failed, in the server's own words when it sent some (the type, the size, the quota), else the error's. */
export function refusalWords(error: unknown): string {
  const said = (error as { serverMessage?: unknown } | null)?.serverMessage;
  if (typeof said === 'string' && said) return said;
  return error instanceof Error ? error.message : String(error);
}

const change = (env: UploadEnv, key: string, patch: Partial<DraftFile>) => env.set((files) => files.map((f) => (f.key === key ? { ...f, ...patch } : f)));

/**
 * Adds files to the composer (from the chooser, a paste or a drop) and uploads each at once, its
 * chip showing the bytes sent; a refusal stays on the chip in the server's words. Files past the
 * message's limit are refused here, not uploaded.
 */
export function addFiles(env: UploadEnv, list: readonly File[]): void {
  const kept = env.get().filter((f) => f.status !== 'refused').length;
  const added: DraftFile[] = list.map((file, i) => {
    const base = { key: nextKey(), name: file.name || 'pasted file', size: file.size, type: file.type, sent: 0 };
    if (kept + i >= env.api.maxPerMessage) return { ...base, status: 'refused', error: env.words.tooMany(env.api.maxPerMessage) };
    return { ...base, status: 'uploading', ...(THUMBNAIL_TYPES.has(file.type) ? { preview: URL.createObjectURL(file) } : {}) };
  });
  env.set((files) => [...files, ...added]);
  added.forEach((draft, i) => {
    if (draft.status === 'uploading') upload(env, draft, list[i]!);
  });
}

function upload(env: UploadEnv, draft: DraftFile, file: File): void {
  const controller = new AbortController();
  env.uploads.set(draft.key, controller);
  env.api
    .upload({
      threadId: env.threadId,
      file,
      name: draft.name,
      signal: controller.signal,
      onProgress: (sent) => change(env, draft.key, { sent }),
    })
    .then(
      (ref) => {
        // Removed while it went up: the stored file is not wanted.
        if (controller.signal.aborted) return void env.api.remove(ref.id).catch(() => undefined);
        change(env, draft.key, { status: 'ready', sent: draft.size, ref });
      },
      (error: unknown) => {
        if (controller.signal.aborted) return;
        // Refused: no thumbnail of bytes the server would not take (a program named .png is no image).
        if (draft.preview) URL.revokeObjectURL(draft.preview);
        env.set((files) =>
          files.map((f) => {
            if (f.key !== draft.key) return f;
            const { preview: _revoked, ...rest } = f;
            return { ...rest, status: 'refused' as const, error: refusalWords(error) };
          }),
        );
      },
    )
    .finally(() => env.uploads.delete(draft.key));
}

/** Removes a chip: stops its upload, or removes its stored file (it was never sent); lets go of its thumbnail. */
export function removeFile(env: UploadEnv, key: string): void {
  const file = env.get().find((f) => f.key === key);
  if (!file) return;
  env.uploads.get(key)?.abort();
  if (file.status === 'ready' && file.ref) env.api.remove(file.ref.id).catch(() => undefined);
  if (file.preview) URL.revokeObjectURL(file.preview);
  env.set((files) => files.filter((f) => f.key !== key));
}
