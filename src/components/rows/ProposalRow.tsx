import type { ComponentPropsWithRef } from 'react';
import type { ProposalRow as ProposalRowData } from '../../runtime/fold';
import type { RunStatus } from '../../runtime/runStatus';
import { ArgsSummary } from './ArgsSummary';
import { useDecisionRun } from './decisionRun';
import { RowChoices, RowFrame } from './RowFrame';
import { useRowDecision } from './useRowDecision';
import { useMessages } from '../messages/context';
import type { ChatSurfaceMessages } from '../messages/defaults';

export interface ProposalRowProps extends ComponentPropsWithRef<'article'> {
  /** The proposal to show. */
  row: ProposalRowData;
}

/** What came of the proposal, by the status of the run it led to (none yet: it is starting). */
function proposalOutcome(m: ChatSurfaceMessages['proposal'], status: 'accepted' | 'dismissed', run: RunStatus | undefined): string {
  if (status === 'dismissed') return m.dismissed;
  if (run === 'done') return m.acceptedDone;
  if (run === 'failed') return m.acceptedFailed;
  if (run === 'cancelled') return m.acceptedStopped;
  return m.accepted;
}

/**
 * Something the assistant proposes to run: what, why and with which
 * arguments, with Accept and Dismiss. Nothing runs until the user accepts.
 * `data-state` is pending|accepted|dismissed; once accepted, `data-run` is the status of the run it
 * led to, and the outcome says it.
 * @example
 * <ProposalRow row={{ kind: 'proposal', id: 'p1', capability: 'records.enrich', title: 'Enrich records', args: { limit: 10 }, status: 'pending' }} />
 */
export function ProposalRow({ row, ...props }: ProposalRowProps) {
  const pending = row.status === 'pending';
  const decision = useRowDecision<HTMLElement>(row.id, pending);
  const m = useMessages().proposal;
  const run = useDecisionRun(row, row.status === 'accepted');
  return (
    <RowFrame {...props} part="proposal" state={row.status} data-run={run} label={m.label} heading={row.title} outcome={row.status === 'pending' ? null : proposalOutcome(m, row.status, run)} decision={decision}>
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
