import { useId, useMemo } from 'react';
import type { AssistantRow } from '../../runtime/fold';
import { CitationMarkers, type CitationMarkerTargets } from '../markdown/citationMarker';
import { Markdown } from '../markdown/Markdown';
import { useMessages } from '../messages/context';
import { citationMarkdown } from './citationMarkdown';
import { sourceTitle } from './sourceTitle';
import { MessageSources } from './Sources';

export interface CitedReplyProps {
  /** The reply, with the sources it cites (`row.citations`). */
  row: AssistantRow;
  /** The reply still streams. */
  streaming: boolean;
}

/**
 * A reply that cites sources: its markdown with a numbered marker after each cited span, and the
 * list of its sources under it. The markers are links the markdown parser places
 * (`citationMarkdown`), drawn by `CitationMarker` from the names and ids given here. The
 * assistant row renders it through `CitedReplySlot`, which loads this code on first use.
 * @example
 * {row.citations ? <CitedReply row={row} streaming={row.status === 'streaming'} /> : <Markdown text={row.text} />}
 */
export function CitedReply({ row, streaming }: CitedReplyProps) {
  const words = useMessages().citations;
  const prefix = useId();
  const sources = row.citations ?? [];
  const text = useMemo(() => citationMarkdown(row.text, sources), [row.text, sources]);
  const targets = useMemo<CitationMarkerTargets>(
    () => ({
      label: (n) => {
        const source = sources[n - 1];
        return source ? words.marker(n, sourceTitle(source, words)) : null;
      },
      target: (n) => `${prefix}source-${n}`,
    }),
    [sources, words, prefix],
  );
  return (
    <CitationMarkers value={targets}>
      <Markdown text={text} streaming={streaming} />
      {sources.length ? <MessageSources sources={sources} idPrefix={prefix} /> : null}
    </CitationMarkers>
  );
}
CitedReply.displayName = 'ChatSurface.CitedReply';
