// The remote workspace's sentences about a failed request, in English: a module of its own with no
// imports, so the surface's messages (components/messages/defaults.ts) take them as their defaults
// without loading the protocol.

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

/** The sentences the remote workspace says, by name: `remoteWords`, or a translation of them. */
export type RemoteWords = typeof remoteWords;

/** One of `remoteWords` with the values that go into it. */
export type RemoteSentence = { [K in keyof RemoteWords]: { key: K; args: Parameters<RemoteWords[K]> } }[keyof RemoteWords];

/** True for an error that carries one of these sentences (a remote workspace's; read without loading its class). */
export function hasRemoteSentence(error: unknown): error is Error & { sentence: RemoteSentence } {
  return error instanceof Error && typeof (error as { sentence?: { key?: unknown } }).sentence?.key === 'string';
}

/** The sentence in the given words (English `remoteWords`, or a surface's translation). */
export function sayRemote(words: RemoteWords, sentence: RemoteSentence): string {
  return (words[sentence.key] as (...args: RemoteSentence['args']) => string)(...sentence.args);
}
