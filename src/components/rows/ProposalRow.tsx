import type { ComponentPropsWithRef } from 'react';
import type { ProposalRow as ProposalRowData } from '../../runtime/fold';
import { ArgsSummary } from './ArgsSummary';
import { RowChoices, RowFrame } from './RowFrame';
import { useRowDecision } from './useRowDecision';
import { useMessages } from '../messages/context';

export interface ProposalRowProps extends ComponentPropsWithRef<'article'> {
  /** The proposal to show. */
  row: ProposalRowData;
}

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
  const m = useMessages().proposal;
  return (
    <RowFrame {...props} part="proposal" state={row.status} label={m.label} heading={row.title} outcome={row.status === 'pending' ? null : row.status === 'accepted' ? m.accepted : m.dismissed} decision={decision}>
      {row.reason ? <p data-part="row-reason">{row.reason}</p> : null}
      <ArgsSummary args={row.args} capability={row.capability} />
      {pending ? (
        <RowChoices
          decision={decision}
          title={row.title}
          choices={[
            { label: m.accept, decision: 'accept', part: 'proposal-accept', variant: 'primary' },
            { label: m.dismiss, decision: 'dismiss', part: 'proposal-dismiss' },
          ]}
        />
      ) : null}
    </RowFrame>
  );
}
ProposalRow.displayName = 'ChatSurface.ProposalRow';
