import { useId, type ComponentPropsWithRef } from 'react';
import type { ProposalRow as ProposalRowData } from '../../runtime/fold';
import { ArgsSummary } from './ArgsSummary';
import { useRowDecision } from './useRowDecision';
import { RowError } from './RowError';

export interface ProposalRowProps extends ComponentPropsWithRef<'article'> {
  /** The proposal to show. */
  row: ProposalRowData;
}

const OUTCOME = { accepted: 'Accepted: running it now.', dismissed: 'Dismissed: nothing was run.' } as const;

/**
 * Something the assistant proposes to run: what, why and with which
 * arguments, with Accept and Dismiss. Nothing runs until the user accepts.
 * `data-state` is pending|accepted|dismissed.
 * @example
 * <ProposalRow row={{ kind: 'proposal', id: 'p1', capability: 'records.enrich', title: 'Enrich records', args: { limit: 10 }, status: 'pending' }} />
 */
export function ProposalRow({ row, ...props }: ProposalRowProps) {
  const pending = row.status === 'pending';
  const decision = useRowDecision<HTMLElement>(row.id, pending);
  const titleId = useId();
  return (
    <article
      tabIndex={-1}
      aria-labelledby={titleId}
      {...props}
      ref={decision.ref}
      data-part="proposal"
      data-state={row.status}
      aria-busy={decision.busy || undefined}
    >
      <p data-part="row-label">Suggested action</p>
      <p id={titleId} data-part="row-title">
        {row.title}
      </p>
      {row.reason ? <p data-part="row-reason">{row.reason}</p> : null}
      <ArgsSummary args={row.args} />
      {pending && decision.canDecide ? (
        <div data-part="row-actions">
          <button type="button" data-part="proposal-accept" aria-label={`Accept ${row.title}`} data-variant="primary" disabled={decision.busy} onClick={() => decision.decide('accept')}>
            Accept
          </button>
          <button type="button" data-part="proposal-dismiss" aria-label={`Dismiss ${row.title}`} disabled={decision.busy} onClick={() => decision.decide('dismiss')}>
            Dismiss
          </button>
        </div>
      ) : null}
      {row.status === 'pending' ? null : <p data-part="row-outcome">{OUTCOME[row.status]}</p>}
      <RowError error={decision.error} />
    </article>
  );
}
ProposalRow.displayName = 'ChatSurface.ProposalRow';
