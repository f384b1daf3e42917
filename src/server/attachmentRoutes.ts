import { Hono, type Context } from 'hono';
import type { Principal } from '../runtime/principal';
import { spaceOf } from '../runtime/principal';
import type { AttachmentReader } from '../runtime/model';
import { readAll, type AttachmentBody, type AttachmentMeta, type AttachmentOwner, type AttachmentStore } from '../runtime/stores/attachmentStore';
import { THREAD_ID, THREAD_ID_RULE } from '../runtime/threadId';
import { DEFAULT_ATTACHMENT_TYPES, INLINE_TYPES, sizeInWords, sniffStart, textHint, textTypeOf, typeLabel } from './attachmentTypes';
import { crossSiteGuard, requirePrincipal, type PrincipalVariables } from './guard';
import { errorResponse } from './http';

/** The attachment limits (docs/server.md#attachments). */
export interface AttachmentLimits {
  /** Largest file, in bytes (413 beyond, nothing stored); below the Messages API's 32 MB request. @default 20971520 (20 MB) */
  maxFileBytes?: number;
  /** Files one message may carry. @default 10 */
  maxPerMessage?: number;
  /** Bytes one user may keep in attachments (413 beyond). @default 209715200 (200 MB) */
  maxBytesPerUser?: number;
  /** Media types taken, as the content shows them (SVG and HTML are never served inline, even when listed). @default PNG, JPEG, GIF, WebP, PDF, plain text, CSV, Markdown, JSON */
  types?: readonly string[];
}

export const DEFAULT_ATTACHMENT_LIMITS = { maxFileBytes: 20 * 1024 * 1024, maxPerMessage: 10, maxBytesPerUser: 200 * 1024 * 1024 } as const;

export interface AttachmentRoutesOptions {
  store: AttachmentStore;
  /** The caller (the workspace protocol's principal); null answers 401. */
  principal(request: Request): Promise<Principal | null>;
  /** As the guard's: other origins whose pages may upload. */
  allowedOrigins: readonly string[];
  limits?: AttachmentLimits;
}

type Env = { Variables: PrincipalVariables };

export const UPLOAD_PATH = '/v1/threads/:threadId/attachments';
const FILE_PATH = '/v1/attachments/:id';
/** How many first bytes decide a binary kind. */
const HEAD_BYTES = 512;
/** Bodies a form can send without a preflight: refused, as the guard refuses them for JSON routes (CSRF). */
const FORM_TYPES = new Set(['application/x-www-form-urlencoded', 'multipart/form-data', 'text/plain']);
/** What a served file may do in a browser: nothing but show itself. */
const SANDBOX = "sandbox; default-src 'none'; img-src 'self'; style-src 'unsafe-inline'";

/** A refusal found while the body streams: thrown through the store, which then keeps nothing. */
class Refusal extends Error {
  constructor(
    readonly status: 413 | 415 | 400,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

const ownerOf = (principal: Principal): AttachmentOwner => ({ user: principal.user, space: spaceOf(principal) });

/** A principal's files for the model: the bytes of one of their own, read whole, or null when it is gone. */
export const attachmentReader =
  (store: AttachmentStore) =>
  (principal: Principal): AttachmentReader =>
  async (file) => {
    const got = await store.get(ownerOf(principal), file.id);
    return got ? readAll(got.body) : null;
  };

/** What a message carries of a file: ids and words, never bytes. */
export const attachmentRef = (meta: AttachmentMeta) => ({ id: meta.id, name: meta.name, media_type: meta.mediaType, size: meta.size });

/** The name as display text: the last path segment, no control characters, at most 255 characters. */
function displayName(raw: string | undefined): string {
  const last = (raw ?? '').split(/[\\/]/).pop() ?? '';
  // eslint-disable-next-line no-control-regex
  const clean = last.replace(/[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g, '').trim().slice(0, 255);
  return clean || 'attachment';
}

/** The words for what the server takes: "PNG, JPEG, … or JSON". */
function takenWords(types: readonly string[]): string {
  const labels = types.map(typeLabel);
  return labels.length > 1 ? `${labels.slice(0, -1).join(', ')} or ${labels.at(-1)}` : (labels[0] ?? 'nothing');
}

interface Checked {
  types: ReadonlySet<string>;
  maxFileBytes: number;
  maxBytesPerUser: number;
  words: string;
}

const notTaken = (label: string, c: Checked) => new Refusal(415, 'unsupported_file_type', `This file looks like ${label}, which cannot be attached here. Attach ${c.words}.`);
const tooLarge = (c: Checked) => new Refusal(413, 'file_too_large', `The file is larger than ${sizeInWords(c.maxFileBytes)}, the most one attachment may be here; nothing was stored.`);
const overQuota = (c: Checked, used: number) =>
  new Refusal(
    413,
    'attachment_quota',
    `Your attachments here come to ${sizeInWords(used)} of the ${sizeInWords(c.maxBytesPerUser)} you may keep, and this file does not fit; nothing was stored. Remove some attachments first.`,
  );

/** Reads the first bytes (or all of a shorter body), refusing past `limit`. */
async function readHead(reader: ReadableStreamDefaultReader<Uint8Array>, limit: number, refuse: () => Refusal): Promise<{ head: Uint8Array; done: boolean }> {
  const parts: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    if (size >= HEAD_BYTES) return { head: concat(parts, size), done: false };
    const { done, value } = await reader.read();
    if (done) return { head: concat(parts, size), done: true };
    size += value.byteLength;
    if (size > limit) throw refuse();
    parts.push(value);
  }
}

function concat(parts: Uint8Array[], size: number): Uint8Array {
  const out = new Uint8Array(size);
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.byteLength;
  }
  return out;
}

/**
 * The body after its head, counted as it arrives and refused past `limit`;
 * a text body checked whole as UTF-8 without NUL and typed at its end.
 */
function checkedBody(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  start: { head: Uint8Array; done: boolean; text: boolean; hint: string | null },
  limit: number,
  refuse: () => Refusal,
  c: Checked,
  typed: (mediaType: string) => void,
): AttachmentBody {
  return (async function* () {
    const decoder = new TextDecoder('utf-8', { fatal: true });
    const startText = start.text ? new TextDecoder().decode(start.head).replace(/^\uFEFF/, '').trimStart() : '';
    // JSON is parsed whole; for the other text kinds the first 64 KB say enough.
    const keepAll = start.hint === 'application/json' || startText === '' || /^[[{]/.test(startText);
    let text = '';
    let size = 0;
    const take = (chunk: Uint8Array, last: boolean) => {
      size += chunk.byteLength;
      if (size > limit) throw refuse();
      if (!start.text) return;
      if (chunk.includes(0)) throw new Refusal(415, 'unsupported_file_type', 'This file has NUL bytes in it, so it is not text; nothing was stored.');
      let part: string;
      try {
        part = decoder.decode(chunk, { stream: !last });
      } catch {
        throw new Refusal(415, 'unsupported_file_type', 'This file is not UTF-8 text (nor a kind of file this server knows); nothing was stored. Save text as UTF-8.');
      }
      if (keepAll || text.length < 65_536) text += part;
    };
    take(start.head, start.done);
    yield start.head;
    if (!start.done) {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        take(value, false);
        yield value;
      }
      take(new Uint8Array(0), true);
    }
    if (!start.text) return;
    const typedText = textTypeOf(text, start.hint);
    if ('refused' in typedText) throw new Refusal(415, 'unsupported_file_type', `${typedText.refused} Nothing was stored.`);
    if (!c.types.has(typedText.mediaType)) throw notTaken(typeLabel(typedText.mediaType), c);
    typed(typedText.mediaType);
  })();
}

/** `POST /v1/threads/{threadId}/attachments`: the body is the file; `?name=` its display name. */
async function upload(c: Context<Env>, store: AttachmentStore, checked: Checked): Promise<Response> {
  const threadId = c.req.param('threadId') ?? '';
  if (!THREAD_ID.test(threadId)) return errorResponse(400, 'invalid_thread_id', THREAD_ID_RULE);
  const contentType = c.req.header('content-type');
  const essence = contentType?.split(';')[0]!.trim().toLowerCase();
  if (!essence || FORM_TYPES.has(essence)) {
    return errorResponse(415, 'unsupported_media_type', "Send the file's bytes as the request body, with Content-Type: application/octet-stream (or the file's own type); a form post is not taken.");
  }
  const owner = ownerOf(c.get('principal'));
  const used = (await store.usage(owner)).bytes;
  const room = checked.maxBytesPerUser - used;
  const limit = Math.min(checked.maxFileBytes, room);
  const refuse = () => (limit === checked.maxFileBytes ? tooLarge(checked) : overQuota(checked, used));
  const length = c.req.header('content-length');
  const declared = length !== undefined && c.req.header('transfer-encoding') === undefined ? Number.parseInt(length, 10) : NaN;
  const answer = (r: Refusal) => errorResponse(r.status, r.code, r.message);
  if (declared > limit || room <= 0) return answer(declared > checked.maxFileBytes ? tooLarge(checked) : overQuota(checked, used));
  const body = c.req.raw.body;
  if (!body || declared === 0) return errorResponse(400, 'empty_file', 'The file is empty; nothing was stored.');
  const reader = body.getReader();
  try {
    const { head, done } = await readHead(reader, limit, refuse);
    if (head.byteLength === 0) return errorResponse(400, 'empty_file', 'The file is empty; nothing was stored.');
    const sniffed = sniffStart(head);
    if (sniffed.kind !== 'text' && (sniffed.kind === 'unknown' || !checked.types.has(sniffed.mediaType))) throw notTaken(sniffed.label, checked);
    let mediaType = sniffed.kind === 'text' ? '' : sniffed.mediaType;
    const start = { head, done, text: sniffed.kind === 'text', hint: textHint(contentType) };
    const meta = await store.put(
      { ...owner, threadId, name: displayName(c.req.query('name')), mediaType: () => mediaType },
      checkedBody(reader, start, limit, refuse, checked, (type) => (mediaType = type)),
    );
    return c.json({ attachment: attachmentRef(meta) }, 201);
  } catch (error) {
    await reader.cancel().catch(() => undefined);
    if (error instanceof Refusal) return answer(error);
    throw error;
  }
}

/** `Content-Disposition` with the name as text: an ASCII fallback and the UTF-8 form (RFC 6266). */
function disposition(kind: 'inline' | 'attachment', name: string): string {
  const fallback = name.replace(/[^\x20-\x7e]|["\\%]/g, '_');
  return `${kind}; filename="${fallback}"; filename*=UTF-8''${encodeURIComponent(name).replace(/['()*]/g, (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase()}`)}`;
}

/** A store's chunks as a response body. */
function streamOf(body: AttachmentBody): ReadableStream<Uint8Array> {
  const chunks = body[Symbol.asyncIterator]();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { done, value } = await chunks.next();
      if (done) controller.close();
      else controller.enqueue(value);
    },
    async cancel() {
      await chunks.return?.();
    },
  });
}

/** The served file: its own type, never sniffed by the browser, sandboxed, and a download unless it is an image, a PDF or plain text. */
function served(meta: AttachmentMeta, body: AttachmentBody): Response {
  // Only the fixed set is ever inline: a host that lists SVG or HTML still gets them as downloads.
  const inline = INLINE_TYPES.has(meta.mediaType) && !/svg|html|xml/i.test(meta.mediaType);
  const text = meta.mediaType.startsWith('text/') || meta.mediaType === 'application/json';
  return new Response(streamOf(body), {
    headers: {
      'content-type': text ? `${meta.mediaType}; charset=utf-8` : meta.mediaType,
      'content-length': String(meta.size),
      'content-disposition': disposition(inline ? 'inline' : 'attachment', meta.name),
      'x-content-type-options': 'nosniff',
      'content-security-policy': SANDBOX,
      'cross-origin-resource-policy': 'same-origin',
      'cache-control': 'private, no-cache',
    },
  });
}

/**
 * Attached files (docs/server.md#attachments), in two parts for the server
 * to mount: `upload` before the guard (it streams a body of its own type and
 * size, with the guard's cross-site rule, and sign-in), `files` after it.
 * Another user's file is a file that is not there (404), on every route.
 * @example
 * const attachments = attachmentRoutes({ store, principal, allowedOrigins: [] });
 * app.route('/', attachments.upload);
 * app.use(guard(…));
 * app.route('/', attachments.files);
 */
export function attachmentRoutes(options: AttachmentRoutesOptions): { upload: Hono<Env>; files: Hono<Env>; send: { store: AttachmentStore; maxPerMessage: number } } {
  const { store } = options;
  const types = options.limits?.types ?? DEFAULT_ATTACHMENT_TYPES;
  const checked: Checked = {
    types: new Set(types),
    maxFileBytes: options.limits?.maxFileBytes ?? DEFAULT_ATTACHMENT_LIMITS.maxFileBytes,
    maxBytesPerUser: options.limits?.maxBytesPerUser ?? DEFAULT_ATTACHMENT_LIMITS.maxBytesPerUser,
    words: takenWords(types),
  };
  const signedIn = requirePrincipal(options.principal, 'Sign in to attach files.');
  const uploads = new Hono<Env>();
  uploads.use(UPLOAD_PATH, crossSiteGuard({ allowedOrigins: options.allowedOrigins }));
  uploads.post(UPLOAD_PATH, signedIn, (c) => upload(c, store, checked));

  const files = new Hono<Env>();
  files.use('/v1/attachments/*', signedIn);
  const unknown = (id: string) => errorResponse(404, 'unknown_attachment', `There is no attachment "${id}" here.`);
  files.get(FILE_PATH, async (c) => {
    const id = c.req.param('id');
    const file = await store.get(ownerOf(c.get('principal')), id);
    return file ? served(file.meta, file.body) : unknown(id);
  });
  files.delete(FILE_PATH, async (c) => {
    const id = c.req.param('id');
    return (await store.delete(ownerOf(c.get('principal')), id)) ? new Response(null, { status: 204 }) : unknown(id);
  });
  return { upload: uploads, files, send: { store, maxPerMessage: options.limits?.maxPerMessage ?? DEFAULT_ATTACHMENT_LIMITS.maxPerMessage } };
}
