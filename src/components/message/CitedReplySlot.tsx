import { deferred } from '../deferred/deferred';
import { Markdown } from '../markdown/Markdown';
import { useMessages } from '../messages/context';
import type { CitedReplyProps } from './CitedReply';

/**
 * What stands in while the cited reply's code loads: the reply's text, and its sources as plain
 * lines of the list's shape (title, passage), so the row keeps its height when the markers and
 * the list arrive (`data-state="loading"`).
 */
function Placeholder({ row, streaming }: CitedReplyProps) {
  const heading = useMessages().citations.heading;
  return (
    <>
      <Markdown text={row.text} streaming={streaming} />
      <div data-part="sources" data-state="loading" aria-hidden="true">
        <p data-part="sources-heading">{heading}</p>
        <ol>
          {row.citations?.map((s) => (
            <li key={s.n} data-part="source">
              <span data-part="source-title">{s.source.title || s.source.url || '\u00a0'}</span>
              {s.cited_text ? <q data-part="source-quote">{s.cited_text}</q> : null}
            </li>
          ))}
        </ol>
      </div>
    </>
  );
}

const part = deferred<CitedReplyProps>(() => import('./CitedReply').then((m) => m.CitedReply), 'ChatSurface.CitedReplySlot', (props) => <Placeholder {...props} />);

/**
 * A reply that cites sources (`CitedReply`: its numbered markers and the list of sources), its
 * code loaded on first use: only a reply that cites something fetches it.
 * @example
 * {row.citations ? <CitedReplySlot row={row} streaming={row.status === 'streaming'} /> : <Markdown text={row.text} />}
 */
export const CitedReplySlot = part.Part;
/** Fetches the cited reply's code ahead of use. */
export const preloadCitedReply = part.preload;
