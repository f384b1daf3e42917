import { hasRemoteSentence, sayRemote } from '../../workspace/remoteWords';
import type { ChatSurfaceMessages } from './defaults';

/**
 * What a failed request says, in the surface's words: a remote workspace's sentence (the HTTP status
 * and the server's own message) in `messages.remote`, any other error's message as it is.
 * @example
 * setError(m.composer.notSent(reasonOf(error, messages)));
 */
export function reasonOf(error: unknown, messages: ChatSurfaceMessages): string {
  if (hasRemoteSentence(error)) return sayRemote(messages.remote, error.sentence);
  return error instanceof Error ? error.message : String(error);
}
