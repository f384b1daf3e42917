import { useId, type ComponentPropsWithRef } from 'react';
import { useOptionalChatSurface } from '../../hooks/context';
import type { ApprovalRow as ApprovalRowData } from '../../runtime/fold';
import { ArgsSummary } from './ArgsSummary';
import { useRowDecision } from './useRowDecision';
import { RowError } from './RowError';

export interface ApprovalRowProps extends ComponentPropsWithRef<'article'> {
  /** The approval request to show. */
  row: ApprovalRowData;
}

const OUTCOME = { approved: 'Approved: it is running.', denied: 'Denied: it was not run.' } as const;

/**
 * A change that waits for the user's approval before it runs: the turn holds
 * until Approve or Deny. A capability marked destructive says so.
 * `data-state` is pending|approved|denied.
 * @example
 * <ApprovalRow row={{ kind: 'approval', id: 'a1', capability: 'records.delete', title: 'Delete records', args: { ids: [4, 7] }, reason: 'Deletes 2 records.', status: 'pending' }} />
 */
export function ApprovalRow({ row, ...props }: ApprovalRowProps) {
  const pending = row.status === 'pending';
  const decision = useRowDecision<HTMLElement>(row.id, pending);
  const surface = useOptionalChatSurface();
  const info = surface?.workspace.manifest.capabilities.find((c) => c.name === row.capability);
  const destructive = info ? info.kind === 'mutate' && info.annotations.destructiveHint !== false && info.annotations.readOnlyHint !== true : false;
  const titleId = useId();
  return (
    <article
      tabIndex={-1}
      aria-labelledby={titleId}
      {...props}
      ref={decision.ref}
      data-part="approval"
      data-state={row.status}
      data-destructive={destructive || undefined}
      aria-busy={decision.busy || undefined}
    >
      <p data-part="row-label">{pending ? 'Waiting for your approval' : 'Approval'}</p>
      <p id={titleId} data-part="row-title">
        {row.title}
      </p>
      {row.reason ? <p data-part="row-reason">{row.reason}</p> : null}
      {destructive && pending ? <p data-part="row-warning">This changes or removes data and may not be undoable.</p> : null}
      <ArgsSummary args={row.args} />
      {pending && decision.canDecide ? (
        <div data-part="row-actions">
          <button type="button" data-part="approval-approve" aria-label={`Approve ${row.title}`} data-variant={destructive ? 'danger' : 'primary'} disabled={decision.busy} onClick={() => decision.decide('approve')}>
            Approve
          </button>
          <button type="button" data-part="approval-deny" aria-label={`Deny ${row.title}`} disabled={decision.busy} onClick={() => decision.decide('deny')}>
            Deny
          </button>
        </div>
      ) : null}
      {row.status === 'pending' ? null : <p data-part="row-outcome">{OUTCOME[row.status]}</p>}
      <RowError error={decision.error} />
    </article>
  );
}
ApprovalRow.displayName = 'ChatSurface.ApprovalRow';
