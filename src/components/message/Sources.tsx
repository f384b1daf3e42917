import { useId } from 'react';
import type { ReplySource } from '../../runtime/fold';
import { useMessages } from '../messages/context';
import type { ChatSurfaceMessages } from '../messages/defaults';
import { sourceTitle } from './sourceTitle';

export interface MessageSourcesProps {
  /** The reply's sources, numbered, as the fold keeps them (`AssistantRow.citations`). */
  sources: readonly ReplySource[];
  /** Where the items' ids start: source `n` is `${idPrefix}source-${n}` (what its markers lead to). */
  idPrefix: string;
}

type Words = ChatSurfaceMessages['citations'];

/** Where in its document the passage is, in words; null when the source says nothing of it. */
function place(source: ReplySource, words: Words): string | null {
  const l = source.location;
  if (!l) return source.source.kind === 'resource' ? words.linked : null;
  // Ends are exclusive: pages count from 1, blocks and characters from 0.
  if (l.unit === 'page') return words.pages(l.start, Math.max(l.start, l.end - 1));
  if (l.unit === 'block') return words.passages(l.start + 1, Math.max(l.start + 1, l.end));
  return words.characters(l.start + 1, Math.max(l.start + 1, l.end));
}

/** Only http(s) addresses become links. */
const isWeb = (url: string | undefined): url is string => !!url && /^https?:\/\//i.test(url);

/**
 * The list under a reply of the sources it cites, numbered as its markers are: each with its
 * title (a link, in a new tab, only for an http(s) address), where the passage is, and the passage
 * quoted. Everything is text: no source's words are ever read as HTML. Each item can take focus,
 * so a marker leads to it. The assistant row renders it through `MessageSourcesSlot`, which loads
 * this code on first use.
 * @example
 * <MessageSources idPrefix="r1-" sources={[{ n: 1, source: { kind: 'document', title: 'Guide' }, cited_text: 'Grass is green.', ranges: [], seq: 1 }]} />
 */
export function MessageSources({ sources, idPrefix }: MessageSourcesProps) {
  const words = useMessages().citations;
  const heading = useId();
  return (
    <div data-part="sources">
      <p data-part="sources-heading" id={heading}>
        {words.heading}
      </p>
      <ol aria-labelledby={heading}>
        {sources.map((source) => {
          const title = sourceTitle(source, words);
          const where = place(source, words);
          return (
            <li key={source.n} value={source.n} id={`${idPrefix}source-${source.n}`} tabIndex={-1} data-part="source" data-kind={source.source.kind}>
              {isWeb(source.source.url) ? (
                <a data-part="source-title" href={source.source.url} target="_blank" rel="noopener noreferrer">
                  {title}
                </a>
              ) : (
                <span data-part="source-title">{title}</span>
              )}
              {where ? <span data-part="source-location">{where}</span> : null}
              {source.cited_text ? <q data-part="source-quote">{source.cited_text}</q> : null}
            </li>
          );
        })}
      </ol>
    </div>
  );
}
MessageSources.displayName = 'ChatSurface.MessageSources';
