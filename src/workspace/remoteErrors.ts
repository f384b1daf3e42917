import { readErrorBody } from './protocol/errorBody';
import { remoteWords, sayRemote, type RemoteSentence, type RemoteWords } from './remoteWords';

/**
 * What went wrong between the remote workspace and its server, as an Error
 * whose message a user can read: the HTTP status and the server's own words
 * (origin refused, signed out, not found, too large), or that nothing could
 * be reached at the address.
 * @example
 * try { await workspace.send({ threadId, text }); } catch (error) {
 *   if (error instanceof RemoteWorkspaceError && error.status === 401) showSignIn();
 * }
 */
export class RemoteWorkspaceError extends Error {
  override name = 'RemoteWorkspaceError';
  /** Which of `remoteWords` says it, with what in it (null for the server's own words): the surface says it in its messages' words (`messages.remote`). */
  readonly sentence: RemoteSentence | null;
  constructor(
    /** The sentence to show: one of `remoteWords` with its values, or words as they are (the server's own, for a 400). */
    sentence: RemoteSentence | string,
    /** The HTTP status, or 0 when no answer could be read (nothing answered, or the browser hid it: code `cross_origin`). */
    readonly status: number,
    /** The error code of the server's JSON body (`unauthorized`, `cross_origin`, `payload_too_large`, …), or the client's own (`unreachable`, `not_json`). */
    readonly code: string,
    /** The server's own message, as it sent it ('' when it sent none). */
    readonly serverMessage: string = '',
  ) {
    super(typeof sentence === 'string' ? sentence : sayRemote(remoteWords, sentence));
    this.sentence = typeof sentence === 'string' ? null : sentence;
  }
}

/** One of `remoteWords` with its values. */
const sentence = <K extends keyof RemoteWords>(key: K, ...args: Parameters<RemoteWords[K]>): RemoteSentence => ({ key, args }) as RemoteSentence;

/** The sentence for an HTTP refusal, by status and the server's code. A 400 or 409 is about the request itself: the server's words as they are. */
export function refusalSentence(where: string, status: number, code: string, said: string, request: string, isServerError: boolean): RemoteSentence | string {
  if (status === 401) return sentence('signedOut', where, said);
  if (status === 403) return code === 'cross_origin' ? sentence('originRefused', where, said) : sentence('forbidden', where, said);
  if (status === 404) return isServerError ? sentence('notFound', where, said) : sentence('notTheServer', where, request);
  if (status === 413) return sentence('tooLarge', where, said);
  if (status === 429) return sentence('busy', where, said);
  if (status >= 500) return sentence('failed', where, status, said);
  if ((status === 400 || status === 409 || status === 422) && said) return said;
  return sentence('refused', where, status, said);
}

/** A failed answer as a RemoteWorkspaceError: the status, the server's code and words, in a sentence. */
export function refusalError(where: string, status: number, body: unknown, request: string): RemoteWorkspaceError {
  const error = readErrorBody(body);
  const said = error?.message ?? '';
  return new RemoteWorkspaceError(refusalSentence(where, status, error?.code ?? '', said, request, error !== null), status, error?.code ?? 'http_error', said);
}

/** The origin of the page this code runs in, or null outside a browser page. */
function pageOrigin(): string | null {
  const origin = (globalThis as { location?: { origin?: string } }).location?.origin;
  return origin && origin !== 'null' ? origin : null;
}

/** The address to name in sentences: the server's URL, or this page's origin for `url: ''`. */
export function serverAddress(base: string): string {
  return base || pageOrigin() || 'this origin';
}

/**
 * Why a request failed without an answer (fetch threw). On a browser page
 * whose server is another origin, the browser may have hidden a refusal
 * (the server sends CORS headers to listed origins only): ask again, plainly.
 * A readable answer is reported as it is; an answer the browser lets this page
 * see only opaquely (`no-cors`) means the server is there and refuses this
 * origin; no answer at all means it cannot be reached.
 */
export async function unreachableError(base: string, doFetch: typeof fetch, error: unknown): Promise<RemoteWorkspaceError> {
  const where = serverAddress(base);
  const detail = error instanceof Error ? error.message : String(error);
  const page = pageOrigin();
  const target = page ? safeOrigin(base, page) : null;
  if (page && target && target !== page) {
    const probe = `${base}/v1/manifest`;
    try {
      const answer = await doFetch(probe, { credentials: 'omit' });
      // Readable: this origin is served; the failure was the request's own (a header not allowed, the network).
      if (!answer.ok) return refusalError(where, answer.status, await answer.json().catch(() => null), `GET /v1/manifest`);
    } catch {
      try {
        await doFetch(probe, { mode: 'no-cors', credentials: 'omit' });
        return new RemoteWorkspaceError(sentence('originHidden', where, page), 0, 'cross_origin');
      } catch {
        // Nothing answered at all: unreachable, below.
      }
    }
  }
  return new RemoteWorkspaceError(sentence('unreachable', where, detail), 0, 'unreachable');
}

function safeOrigin(base: string, page: string): string | null {
  try {
    return new URL(base || page, page).origin;
  } catch {
    return null;
  }
}
