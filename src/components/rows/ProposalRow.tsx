import type { ComponentPropsWithRef } from 'react';
import type { ProposalRow as ProposalRowData } from '../../runtime/fold';
import { ArgsSummary } from './ArgsSummary';
import { RowChoices, RowFrame } from './RowFrame';
import { useRowDecision } from './useRowDecision';

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
  return (
    <RowFrame {...props} part="proposal" state={row.status} label="Suggested action" heading={row.title} outcome={row.status === 'pending' ? null : OUTCOME[row.status]} decision={decision}>
      {row.reason ? <p data-part="row-reason">{row.reason}</p> : null}
      <ArgsSummary args={row.args} capability={row.capability} />
      {pending ? (
        <RowChoices
          decision={decision}
          title={row.title}
          choices={[
            { label: 'Accept', decision: 'accept', part: 'proposal-accept', variant: 'primary' },
            { label: 'Dismiss', decision: 'dismiss', part: 'proposal-dismiss' },
          ]}
        />
      ) : null}
    </RowFrame>
  );
}
ProposalRow.displayName = 'ChatSurface.ProposalRow';
