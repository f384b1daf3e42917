import type { ComponentPropsWithRef } from 'react';
import { useOptionalChatSurface } from '../../hooks/context';
import type { ApprovalRow as ApprovalRowData } from '../../runtime/fold';
import { APP_APPROVAL_PREFIX } from '../../runtime/mcpApp';
import type { RunStatus } from '../../runtime/runStatus';
import { ArgsSummary } from './ArgsSummary';
import { useDecisionRun } from './decisionRun';
import { RowChoices, RowFrame } from './RowFrame';
import { useRowDecision } from './useRowDecision';
import { useMessages } from '../messages/context';
import type { ChatSurfaceMessages } from '../messages/defaults';

export interface ApprovalRowProps extends ComponentPropsWithRef<'article'> {
  /** The approval request to show. */
  row: ApprovalRowData;
}

/** What came of the approval, by the status of the run it led to (none yet: it is starting). */
function approvalOutcome(m: ChatSurfaceMessages['approval'], status: 'approved' | 'denied', run: RunStatus | undefined): string {
  if (status === 'denied') return m.denied;
  if (run === 'done') return m.approvedDone;
  if (run === 'failed') return m.approvedFailed;
  if (run === 'cancelled') return m.approvedStopped;
  return m.approvedRunning;
}

/**
 * A change that waits for the user's approval before it runs: the turn holds
 * until Approve or Deny. A capability marked destructive says so.
 * `data-state` is pending|approved|denied; once approved, `data-run` is the status of the run it
 * led to (queued|running|done|failed|cancelled), and the outcome says it.
 * @example
 * <ApprovalRow row={{ kind: 'approval', id: 'a1', capability: 'records.delete', title: 'Delete records', args: { ids: [4, 7] }, reason: 'Deletes 2 records.', status: 'pending' }} />
 */
export function ApprovalRow({ row, ...props }: ApprovalRowProps) {
  const pending = row.status === 'pending';
  const decision = useRowDecision<HTMLElement>(row.id, pending);
  const m = useMessages().approval;
  // An MCP App's own call (once per app session): approving it runs nothing here, the app's calls run inside its card.
  const forApp = row.id.startsWith(APP_APPROVAL_PREFIX);
  const run = useDecisionRun(row, row.status === 'approved' && !forApp);
  const surface = useOptionalChatSurface();
  const info = surface?.workspace.manifest.capabilities.find((c) => c.name === row.capability);
  const destructive = info ? info.kind === 'mutate' && info.annotations.destructiveHint !== false && info.annotations.readOnlyHint !== true : false;
  return (
    <RowFrame
      {...props}
      part="approval"
      state={row.status}
      data-run={run}
      data-destructive={destructive || undefined}
      label={pending ? m.waiting : m.label}
      heading={row.title}
      outcome={row.status === 'pending' ? null : forApp && row.status === 'approved' ? m.approvedForApp : approvalOutcome(m, row.status, run)}
      decision={decision}
    >
      {row.reason ? <p data-part="row-reason">{row.reason}</p> : null}
      {destructive && pending ? <p data-part="row-warning">{m.destructive}</p> : null}
      <ArgsSummary args={row.args} capability={row.capability} />
      {pending ? (
        <RowChoices
          decision={decision}
          title={row.title}
          choices={[
            { label: m.approve, decision: 'approve', part: 'approval-approve', variant: destructive ? 'danger' : 'primary' },
            { label: m.deny, decision: 'deny', part: 'approval-deny' },
          ]}
        />
      ) : null}
    </RowFrame>
  );
}
ApprovalRow.displayName = 'ChatSurface.ApprovalRow';
