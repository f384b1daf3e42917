import type { AttachmentRef } from '../../runtime/events/messages';
import type { AttachmentsApi, UploadRequest } from '../../workspace/types';

export interface MemoryAttachmentsOptions {
  maxPerMessage?: number;
  /** Refuses a file in words (as a server would), or lets it in (null). */
  refuse?: (file: Blob, name: string) => string | null;
  /** Holds each upload half way until `release()` (progress and a waiting Send in tests and stories). */
  hold?: boolean;
}

/** Files kept in memory with the `AttachmentsApi` shape: the kit's tests and stories (not a workspace's store). */
export interface MemoryAttachments extends AttachmentsApi {
  /** What was stored, by id. */
  readonly files: Map<string, { ref: AttachmentRef; blob: Blob }>;
  /** Ids removed, in order. */
  readonly removed: string[];
  /** Lets every held upload finish. */
  release(): void;
  /** Stores a file at once (a message's file in a story). */
  put(blob: Blob, name: string): AttachmentRef;
}

let next = 0;

export function memoryAttachments(options: MemoryAttachmentsOptions = {}): MemoryAttachments {
  const files = new Map<string, { ref: AttachmentRef; blob: Blob }>();
  const removed: string[] = [];
  let waiting: (() => void)[] = [];
  const put = (blob: Blob, name: string): AttachmentRef => {
    const ref = { id: `att_mem${(next++).toString(36)}`, name, media_type: blob.type.split(';')[0] || 'application/octet-stream', size: blob.size };
    files.set(ref.id, { ref, blob });
    return ref;
  };
  return {
    files,
    removed,
    maxPerMessage: options.maxPerMessage ?? 10,
    put,
    release() {
      const run = waiting;
      waiting = [];
      for (const go of run) go();
    },
    async upload({ file, name, onProgress, signal }: UploadRequest) {
      const shown = name ?? (file as Partial<File>).name ?? 'attachment';
      onProgress?.(0, file.size);
      if (options.hold) {
        onProgress?.(Math.floor(file.size / 2), file.size);
        await new Promise<void>((resolve, reject) => {
          waiting.push(resolve);
          signal?.addEventListener('abort', () => reject(new DOMException('The upload was cancelled.', 'AbortError')), { once: true });
        });
      }
      const refused = options.refuse?.(file, shown);
      if (refused) throw Object.assign(new Error(refused), { serverMessage: refused });
      onProgress?.(file.size, file.size);
      return put(file, shown);
    },
    async read(id) {
      const file = files.get(id);
      if (!file) throw new Error(`There is no attachment "${id}" here.`);
      return file.blob;
    },
    async remove(id) {
      removed.push(id);
      files.delete(id);
    },
  };
}
