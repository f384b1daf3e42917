import type { ReplySource } from '../../runtime/fold';
import type { ChatSurfaceMessages } from '../messages/defaults';

/** A source's title, as its marker and its item say it: its own, else its URL, the document's number, or "Source n". */
export function sourceTitle(source: ReplySource, words: ChatSurfaceMessages['citations']): string {
  const { title, url, index } = source.source;
  if (title) return title;
  if (url) return url;
  return source.source.kind === 'document' && index !== undefined ? words.untitled(index + 1) : words.untitled(source.n);
}
