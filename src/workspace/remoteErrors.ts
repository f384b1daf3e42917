import { ErrorAnswer } from './protocol/answers';

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
  constructor(
    /** The sentence to show (`remoteWords` make it). */
    message: string,
    /** The HTTP status, or 0 when no answer could be read (nothing answered, or the browser hid it: code `cross_origin`). */
    readonly status: number,
    /** The error code of the server's JSON body (`unauthorized`, `cross_origin`, `payload_too_large`, …), or the client's own (`unreachable`, `not_json`). */
    readonly code: string,
    /** The server's own message, as it sent it ('' when it sent none). */
    readonly serverMessage: string = '',
  ) {
    super(message);
  }
}

/**
 * Every sentence the remote workspace says about a failed request, in one
 * place. `where` is the server's address (`http://127.0.0.1:8787`), `said`
 * the server's own message ('' when it gave none).
 */
export const remoteWords = {
  unreachable: (where: string, detail: string) =>
    `Could not reach the workspace server at ${where} (${detail}). Check that it is running and that the address is right.`,
  /** A browser page on another origin: the server answered, but the browser kept its answer from the page (no CORS for this origin). */
  originHidden: (where: string, page: string) =>
    `The workspace server at ${where} answered, but not to this page: it answers only its own origin and the origins in its allowedOrigins. List ${page} in allowedOrigins, or serve this page and the server from one origin (a dev proxy).`,
  originRefused: (where: string, said: string) => `The workspace server at ${where} refused this page's origin (403)${reason(said)}`,
  forbidden: (where: string, said: string) => `The workspace server at ${where} did not allow this (403)${reason(said)}`,
  signedOut: (where: string, said: string) => `You are not signed in to the workspace server at ${where} (401)${reason(said)}`,
  notFound: (where: string, said: string) => `The workspace server at ${where} could not find what was asked for (404)${reason(said)}`,
  /** A 404 without the server's JSON error: something else answers at that address. */
  notTheServer: (where: string, request: string) =>
    `Nothing at ${where} answers the workspace protocol (404 for ${request}). Check the server's address, or that the dev proxy passes /v1 on to it.`,
  tooLarge: (where: string, said: string) => `That is too large for the workspace server at ${where} (413)${reason(said)}`,
  busy: (where: string, said: string) => `The workspace server at ${where} turned this away for now (429)${reason(said)}`,
  failed: (where: string, status: number, said: string) => `The workspace server at ${where} could not do this (${status})${reason(said)}`,
  refused: (where: string, status: number, said: string) => `The workspace server at ${where} refused this (${status})${reason(said)}`,
  /** A success whose body is not JSON (a page's HTML from a dev server with no proxy, say). */
  notJson: (where: string, request: string, contentType: string) =>
    `The answer from ${where} to ${request} is not JSON (${contentType || 'no content type'}): check that the address is the workspace server's, or that the dev proxy passes /v1 on to it.`,
};

/** ": the server's words", or ", without saying why." */
function reason(said: string): string {
  return said ? `: ${said}` : ', without saying why.';
}

/** The sentence for an HTTP refusal, by status and the server's code. A 400 or 409 is about the request itself: the server's words as they are. */
export function refusalSentence(where: string, status: number, code: string, said: string, request: string, isServerError: boolean): string {
  if (status === 401) return remoteWords.signedOut(where, said);
  if (status === 403) return code === 'cross_origin' ? remoteWords.originRefused(where, said) : remoteWords.forbidden(where, said);
  if (status === 404) return isServerError ? remoteWords.notFound(where, said) : remoteWords.notTheServer(where, request);
  if (status === 413) return remoteWords.tooLarge(where, said);
  if (status === 429) return remoteWords.busy(where, said);
  if (status >= 500) return remoteWords.failed(where, status, said);
  if ((status === 400 || status === 409 || status === 422) && said) return said;
  return remoteWords.refused(where, status, said);
}

/** A failed answer as a RemoteWorkspaceError: the status, the server's code and words, in a sentence. */
export function refusalError(where: string, status: number, body: unknown, request: string): RemoteWorkspaceError {
  const parsed = ErrorAnswer.safeParse(body);
  const error = parsed.success ? parsed.data.error : undefined;
  const said = error?.message ?? '';
  return new RemoteWorkspaceError(refusalSentence(where, status, error?.code ?? '', said, request, parsed.success), status, error?.code ?? 'http_error', said);
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
        return new RemoteWorkspaceError(remoteWords.originHidden(where, page), 0, 'cross_origin');
      } catch {
        // Nothing answered at all: unreachable, below.
      }
    }
  }
  return new RemoteWorkspaceError(remoteWords.unreachable(where, detail), 0, 'unreachable');
}

function safeOrigin(base: string, page: string): string | null {
  try {
    return new URL(base || page, page).origin;
  } catch {
    return null;
  }
}
