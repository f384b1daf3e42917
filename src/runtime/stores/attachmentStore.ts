import { createId } from '../ids';

/** Whose files: a user within a space (a principal's `user` and `spaceOf(principal)`). */
export interface AttachmentOwner {
  user: string;
  space: string;
}

/** What is kept about one stored file (never its bytes). */
export interface AttachmentMeta {
  /** Made by the store with `attachmentId()`: `att_` and up to 40 of `[0-9a-z]` (the event schema and the routes take no other). */
  id: string;
  user: string;
  space: string;
  /** The thread it was sent to. */
  threadId: string;
  /** The name the user gave it: display text only, never a path or a type. */
  name: string;
  /** The type its content showed (sniffed by the server, not taken from the name). */
  mediaType: string;
  /** Bytes. */
  size: number;
  /** Epoch ms. */
  createdAt: number;
}

/** A file to store: its owner, thread and name, and its type (a function is called once the body has ended). */
export interface AttachmentDraft extends AttachmentOwner {
  threadId: string;
  name: string;
  mediaType: string | (() => string);
}

/** The bytes, as chunks; an error thrown while they are read stores nothing. */
export type AttachmentBody = AsyncIterable<Uint8Array>;

/**
 * Where attached files live (the bytes and what is known of them), behind
 * one small interface like the other stores: the file system beside SQLite,
 * PostgreSQL, memory for tests, or a host's own object store. Every read is
 * by owner: another owner's id answers exactly as an unknown one (null).
 */
export interface AttachmentStore {
  /** Stores `body` whole, or nothing when reading it throws (the error is thrown again). */
  put(draft: AttachmentDraft, body: AttachmentBody): Promise<AttachmentMeta>;
  /** What is known of `owner`'s file `id`, or null (unknown, or someone else's). */
  meta(owner: AttachmentOwner, id: string): Promise<AttachmentMeta | null>;
  /** `owner`'s file `id` with its bytes, or null. */
  get(owner: AttachmentOwner, id: string): Promise<{ meta: AttachmentMeta; body: AttachmentBody } | null>;
  /** Removes `owner`'s file `id`; false when there was none. */
  delete(owner: AttachmentOwner, id: string): Promise<boolean>;
  /** What `owner` holds: files and bytes (the per-user quota counts these). */
  usage(owner: AttachmentOwner): Promise<{ files: number; bytes: number }>;
}

/** A new attachment id (`att_k3j9x2q8m1`), for a store of your own. */
export const attachmentId = (): string => createId('att');

/** Reads a body whole (the model's request takes files of at most the per-file limit). */
export async function readAll(body: AttachmentBody): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of body) {
    chunks.push(chunk);
    size += chunk.byteLength;
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.byteLength;
  }
  return out;
}

const owns = (owner: AttachmentOwner, meta: AttachmentMeta) => meta.user === owner.user && meta.space === owner.space;

/** The media type a draft names, once its body has ended. */
export const draftType = (draft: AttachmentDraft): string => (typeof draft.mediaType === 'function' ? draft.mediaType() : draft.mediaType);

/**
 * Files kept in this process only: tests, and a server on `':memory:'`.
 * @example
 * const attachments = createMemoryAttachmentStore();
 */
export function createMemoryAttachmentStore(options: { now?: () => number } = {}): AttachmentStore {
  const now = options.now ?? Date.now;
  const files = new Map<string, { meta: AttachmentMeta; bytes: Uint8Array }>();
  const mine = (owner: AttachmentOwner, id: string) => {
    const file = files.get(id);
    return file && owns(owner, file.meta) ? file : null;
  };
  return {
    async put(draft, body) {
      const bytes = await readAll(body);
      const meta: AttachmentMeta = { id: attachmentId(), user: draft.user, space: draft.space, threadId: draft.threadId, name: draft.name, mediaType: draftType(draft), size: bytes.byteLength, createdAt: now() };
      files.set(meta.id, { meta, bytes });
      return { ...meta };
    },
    async meta(owner, id) {
      const file = mine(owner, id);
      return file ? { ...file.meta } : null;
    },
    async get(owner, id) {
      const file = mine(owner, id);
      if (!file) return null;
      const { bytes } = file;
      return {
        meta: { ...file.meta },
        body: (async function* () {
          yield bytes.slice();
        })(),
      };
    },
    async delete(owner, id) {
      return mine(owner, id) ? files.delete(id) : false;
    },
    async usage(owner) {
      let count = 0;
      let bytes = 0;
      for (const { meta } of files.values()) {
        if (owns(owner, meta)) {
          count++;
          bytes += meta.size;
        }
      }
      return { files: count, bytes };
    },
  };
}
