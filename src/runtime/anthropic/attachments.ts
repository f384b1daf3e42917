import type { AttachmentRef } from '../events/messages';
import type { AttachmentReader, ModelMessage } from '../model';

/**
 * The files users' messages carry, as the Messages API takes them: images as `image` blocks
 * (base64; PNG, JPEG, GIF, WebP), PDFs as `document` blocks with a base64 source, text files
 * (plain, CSV, Markdown, JSON) as `document` blocks with a plain-text source; with citations on,
 * every document asks for them (the API takes all or none). The bytes are read before the request
 * is built (`readAttachments`), so building it stays pure.
 */

type CacheControl = { type: 'ephemeral' };

export interface ImageBlock {
  type: 'image';
  source: { type: 'base64'; media_type: string; data: string };
  cache_control?: CacheControl;
}

export interface DocumentBlock {
  type: 'document';
  source: { type: 'base64'; media_type: 'application/pdf'; data: string } | { type: 'text'; media_type: 'text/plain'; data: string };
  title?: string;
  context?: string;
  citations?: { enabled: boolean };
  cache_control?: CacheControl;
}

/** The image types the API takes. */
export const API_IMAGE_TYPES: ReadonlySet<string> = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);
/** Text types sent as documents with a plain-text source */
const TEXT_DOCUMENT_TYPES: ReadonlySet<string> = new Set(['text/plain', 'text/csv', 'text/markdown', 'application/json']);
/** The most one image's base64 may weigh (the API refuses more: 5 MB). */
export const MAX_IMAGE_BASE64 = 5 * 1024 * 1024;
/** The most all files of one request may weigh as base64, leaving room under the API's 32 MB request limit. */
export const MAX_FILES_BASE64 = 24 * 1024 * 1024;

/** What was read for each file id: its bytes, null when it is gone, absent when it was not read (no reader, or over the request's budget). */
export type AttachmentBytes = ReadonlyMap<string, Uint8Array | null>;

const base64Size = (bytes: number) => Math.ceil(bytes / 3) * 4;
const sendable = (f: AttachmentRef) => API_IMAGE_TYPES.has(f.media_type) || f.media_type === 'application/pdf' || TEXT_DOCUMENT_TYPES.has(f.media_type);

/**
 * Reads the files the conversation's user messages carry, newest first, as long as they fit
 * `MAX_FILES_BASE64` together (older ones beyond it go as a note). Without a reader nothing is read.
 */
export async function readAttachments(messages: readonly ModelMessage[], reader: AttachmentReader | undefined, signal: AbortSignal): Promise<AttachmentBytes> {
  const out = new Map<string, Uint8Array | null>();
  if (!reader) return out;
  const files = messages.flatMap((m) => (m.role === 'user' ? (m.attachments ?? []) : []));
  let budget = MAX_FILES_BASE64;
  for (let i = files.length - 1; i >= 0; i--) {
    const file = files[i]!;
    if (out.has(file.id) || !sendable(file)) continue;
    const size = base64Size(file.size);
    if (size > budget || (API_IMAGE_TYPES.has(file.media_type) && size > MAX_IMAGE_BASE64)) continue;
    budget -= size;
    out.set(file.id, await reader(file, signal));
  }
  return out;
}

/** Bytes as base64, without `node:*` (the runtime runs in the browser too). */
export function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/** Why a file goes as a note instead of its content, in words the model passes on. */
function noteOf(file: AttachmentRef, bytes: Uint8Array | null | undefined): string {
  const what = `"${file.name}" (${file.media_type}, ${file.size} bytes)`;
  if (bytes === null) return `[The user attached ${what}, which has since been removed.]`;
  if (!sendable(file)) return `[The user attached ${what}, a kind of file that cannot be shown to the model.]`;
  if (API_IMAGE_TYPES.has(file.media_type) && base64Size(file.size) > MAX_IMAGE_BASE64) return `[The user attached the image ${what}, which is larger than the 5 MB the model takes; it was not sent.]`;
  return `[The user attached ${what}; its content is not in this request.]`;
}

/**
 * A user message's files as content blocks, in the order attached: an image, a document, or a
 * text note for one that cannot go (gone, not read, too large, a kind the API does not take).
 */
export function attachmentBlocks(files: readonly AttachmentRef[], read: AttachmentBytes, citations: boolean): (ImageBlock | DocumentBlock | { type: 'text'; text: string })[] {
  return files.map((file) => {
    const bytes = read.get(file.id);
    if (!bytes) return { type: 'text', text: noteOf(file, bytes) };
    if (API_IMAGE_TYPES.has(file.media_type)) return { type: 'image', source: { type: 'base64', media_type: file.media_type, data: toBase64(bytes) } };
    const cite = citations ? { citations: { enabled: true } } : {};
    if (file.media_type === 'application/pdf') return { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: toBase64(bytes) }, title: file.name, ...cite };
    const text = new TextDecoder().decode(bytes);
    // The API refuses an empty text source: an empty file is said in words.
    if (!text.trim()) return { type: 'text', text: `[The user attached "${file.name}", an empty file.]` };
    return { type: 'document', source: { type: 'text', media_type: 'text/plain', data: text }, title: file.name, context: `A ${file.media_type} file the user attached.`, ...cite };
  });
}
