import type { AttachmentRef } from '../runtime/events/messages';
import type * as Errors from './remoteErrors';
import type { AttachmentsApi, UploadRequest } from './types';

/** A ref as the upload route answers it (201): checked field by field (no schema code in this chunk). */
function refOf(json: unknown): AttachmentRef | null {
  const ref = (json as { attachment?: Partial<AttachmentRef> } | null)?.attachment;
  const ok = ref && typeof ref.id === 'string' && /^att_[0-9a-z]{1,40}$/.test(ref.id) && typeof ref.name === 'string' && typeof ref.media_type === 'string' && Number.isInteger(ref.size);
  return ok ? { id: ref.id!, name: ref.name!, media_type: ref.media_type!, size: ref.size! } : null;
}

interface AttachmentClientOptions {
  /** The remote workspace's error helpers (passed in, so this chunk loads nothing the page has already). */
  errors: Pick<typeof Errors, 'RemoteWorkspaceError' | 'refusalError' | 'serverAddress' | 'unreachableError'>;
  base: string;
  fetch: typeof fetch;
  headers: Record<string, string>;
  /** Use XMLHttpRequest for uploads (its upload progress), where there is one and the host passed no `fetch` of its own. */
  xhr: boolean;
  maxPerMessage: number;
}

/** An answer's body as JSON, or null. */
function parseJson(text: string): unknown {
  try {
    return text ? JSON.parse(text) : null;
  } catch {
    return null;
  }
}

/**
 * The workspace server's attachment routes for `createRemoteWorkspace`: an upload is the file's
 * bytes as the body of `POST /v1/threads/{id}/attachments?name=` (its progress from the
 * browser's upload events), a read and a removal are `GET` and `DELETE /v1/attachments/{id}`. A
 * refusal rejects with a `RemoteWorkspaceError` whose `serverMessage` is the server's own words
 * (the file's type, its size, the user's quota).
 */
export function remoteAttachments(options: AttachmentClientOptions): AttachmentsApi {
  const { base, headers } = options;
  const { RemoteWorkspaceError, refusalError, serverAddress, unreachableError } = options.errors;
  const where = serverAddress(base);
  const fileUrl = (id: string) => `${base}/v1/attachments/${encodeURIComponent(id)}`;

  const answer = (status: number, text: string, request: string) => {
    const json = parseJson(text);
    if (status < 200 || status >= 300) throw refusalError(where, status, json, request);
    const ref = refOf(json);
    if (!ref) throw new RemoteWorkspaceError(`The workspace server's answer to ${request} is not what the protocol says (no attachment id, name, media_type and size).`, status, 'unreadable_answer');
    return ref;
  };

  const upload: AttachmentsApi['upload'] = async ({ threadId, file, name, onProgress, signal }: UploadRequest) => {
    const shown = name ?? (file as Partial<File>).name ?? 'attachment';
    const path = `/v1/threads/${encodeURIComponent(threadId)}/attachments?name=${encodeURIComponent(shown)}`;
    const request = `POST /v1/threads/${threadId}/attachments`;
    // The file's own type when it names one: the server reads the type from the bytes either way.
    const type = file.type || 'application/octet-stream';
    if (options.xhr) return answerOf(await xhrUpload(`${base}${path}`, { ...headers, 'content-type': type }, file, onProgress, signal), request);
    let response: Response;
    try {
      onProgress?.(0, file.size);
      response = await options.fetch(`${base}${path}`, { method: 'POST', headers: { ...headers, 'content-type': type }, body: file, ...(signal ? { signal } : {}) });
    } catch (error) {
      if (signal?.aborted) throw error;
      throw await unreachableError(base, options.fetch, error);
    }
    const text = await response.text();
    const ref = answer(response.status, text, request);
    onProgress?.(file.size, file.size);
    return ref;
  };

  const answerOf = (got: { status: number; text: string } | Error, request: string) => {
    if (got instanceof Error) throw got;
    return answer(got.status, got.text, request);
  };

  const xhrUpload = (url: string, sent: Record<string, string>, file: Blob, onProgress: UploadRequest['onProgress'], signal: AbortSignal | undefined) =>
    new Promise<{ status: number; text: string } | Error>((resolve) => {
      const xhr = new XMLHttpRequest();
      xhr.open('POST', url);
      for (const [key, value] of Object.entries(sent)) xhr.setRequestHeader(key, value);
      xhr.upload.onprogress = (event) => onProgress?.(event.loaded, event.lengthComputable ? event.total : file.size);
      xhr.onload = () => resolve({ status: xhr.status, text: xhr.responseText });
      xhr.onerror = () => resolve(new RemoteWorkspaceError({ key: 'unreachable', args: [where, 'the upload was cut off'] }, 0, 'unreachable'));
      xhr.onabort = () => resolve(new DOMException('The upload was cancelled.', 'AbortError'));
      if (signal?.aborted) return resolve(new DOMException('The upload was cancelled.', 'AbortError'));
      signal?.addEventListener('abort', () => xhr.abort(), { once: true });
      onProgress?.(0, file.size);
      xhr.send(file);
    });

  return {
    maxPerMessage: options.maxPerMessage,
    upload,
    async read(id, signal) {
      let response: Response;
      try {
        response = await options.fetch(fileUrl(id), { headers, ...(signal ? { signal } : {}) });
      } catch (error) {
        if (signal?.aborted) throw error;
        throw await unreachableError(base, options.fetch, error);
      }
      if (!response.ok) throw refusalError(where, response.status, parseJson(await response.text()), `GET /v1/attachments/${id}`);
      return response.blob();
    },
    async remove(id) {
      // The server's cross-site guard takes a write only as JSON, so the removal sends `{}`.
      const response = await options.fetch(fileUrl(id), { method: 'DELETE', headers: { ...headers, 'content-type': 'application/json' }, body: '{}' }).catch(async (error: unknown) => {
        throw await unreachableError(base, options.fetch, error);
      });
      if (!response.ok && response.status !== 404) throw refusalError(where, response.status, parseJson(await response.text()), `DELETE /v1/attachments/${id}`);
    },
  };
}
