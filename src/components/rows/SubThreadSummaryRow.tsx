import type { ComponentPropsWithRef } from 'react';
import type { SubThreadSummaryRow as SubThreadSummaryRowData } from '../../runtime/fold';
import { useThreadNavigation } from '../chat-surface/threadNavigation';
import { useMessages } from '../messages/context';

export interface SubThreadSummaryRowProps extends ComponentPropsWithRef<'article'> {
  /** The summary to show. */
  row: SubThreadSummaryRowData;
}

/**
 * A sub-thread's outcome back in its parent: "The /review sub-thread
 * finished", then its last reply (trimmed) or its error, and a link to the
 * whole transcript. `data-state` is the outcome.
 * @example
 * <SubThreadSummaryRow row={{ kind: 'subthread_summary', id: 'main.sub-1', title: '/review', outcome: 'done', summary: 'Three records need attention.' }} />
 */
export function SubThreadSummaryRow({ row, ...props }: SubThreadSummaryRowProps) {
  const nav = useThreadNavigation();
  const m = useMessages().subThread;
  const heading = m.summary(row.title, row.outcome);
  return (
    <article aria-label={heading} {...props} data-part="subthread-summary" data-state={row.outcome}>
      <p data-part="row-label">{m.summaryLabel}</p>
      <p data-part="row-title">{heading}</p>
      <p data-part="row-reason">{row.summary}</p>
      {nav ? (
        <div data-part="row-actions">
          <button type="button" data-part="subthread-open" aria-label={m.showLabel(row.title)} onClick={() => nav.open(row.id)}>
            {m.show}
          </button>
        </div>
      ) : null}
    </article>
  );
}
SubThreadSummaryRow.displayName = 'ChatSurface.SubThreadSummaryRow';
