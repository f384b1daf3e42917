import type { ComponentPropsWithRef } from 'react';
import { formatDuration, useElapsed } from '../../hooks/useElapsed';
import { cardState, type InvocationCardState } from './InvocationCardRoot';
import { useInvocationCard } from './context';

export type InvocationCardStatusProps = ComponentPropsWithRef<'span'>;

const LABEL: Record<InvocationCardState, string> = {
  queued: 'Queued',
  running: 'Running',
  streaming: 'Running',
  done: 'Done',
  failed: 'Failed',
  cancelled: 'Cancelled',
};

/**
 * The state in words and the time: ticking while it runs, the duration once settled.
 * @example
 * <InvocationCard.Status />
 */
export function InvocationCardStatus(props: InvocationCardStatusProps) {
  const { row } = useInvocationCard('Status');
  const state = cardState(row);
  const elapsed = useElapsed(row.startedAt, row.endedAt, row.state === 'running');
  const notRun = row.state === 'failed' && row.startedAt === undefined;
  const label = notRun ? 'Not run' : LABEL[state];
  return (
    <span {...props} data-part="invocation-card-status" data-state={state}>
      {label}
      {elapsed !== null && !notRun ? (
        <span data-part="invocation-card-elapsed" data-state={row.state === 'running' ? 'ticking' : 'final'}>
          {' · '}
          {formatDuration(elapsed)}
        </span>
      ) : null}
    </span>
  );
}
InvocationCardStatus.displayName = 'InvocationCard.Status';
