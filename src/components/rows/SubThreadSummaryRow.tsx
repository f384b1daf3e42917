import type { ComponentPropsWithRef } from 'react';
import type { SubThreadSummaryRow as SubThreadSummaryRowData } from '../../runtime/fold';
import { useThreadNavigation } from '../chat-surface/threadNavigation';

export interface SubThreadSummaryRowProps extends ComponentPropsWithRef<'article'> {
  /** The summary to show. */
  row: SubThreadSummaryRowData;
}

const HEADINGS: Record<SubThreadSummaryRowData['outcome'], string> = {
  done: 'finished',
  failed: 'failed',
  cancelled: 'was stopped',
  interrupted: 'was interrupted',
};

/**
 * A sub-thread's outcome back in its parent: "The /review sub-thread
 * finished", then its last reply (trimmed) or its error, and a link to the
 * whole transcript. `data-state` is the outcome.
 * @example
 * <SubThreadSummaryRow row={{ kind: 'subthread_summary', id: 'main.sub-1', title: '/review', outcome: 'done', summary: 'Three records need attention.' }} />
 */
export function SubThreadSummaryRow({ row, ...props }: SubThreadSummaryRowProps) {
  const nav = useThreadNavigation();
  const heading = `The ${row.title} sub-thread ${HEADINGS[row.outcome]}`;
  return (
    <article aria-label={heading} {...props} data-part="subthread-summary" data-state={row.outcome}>
      <p data-part="row-label">Sub-thread summary</p>
      <p data-part="row-title">{heading}</p>
      <p data-part="row-reason">{row.summary}</p>
      {nav ? (
        <div data-part="row-actions">
          <button type="button" data-part="subthread-open" aria-label={`Show the ${row.title} sub-thread`} onClick={() => nav.open(row.id)}>
            Show the sub-thread
          </button>
        </div>
      ) : null}
    </article>
  );
}
SubThreadSummaryRow.displayName = 'ChatSurface.SubThreadSummaryRow';
