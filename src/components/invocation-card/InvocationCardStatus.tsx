import type { ComponentPropsWithRef } from 'react';
import type { InvocationRow } from '../../runtime/fold';
import { useInvocationCard } from './context';

export type InvocationCardStatusProps = ComponentPropsWithRef<'span'>;

const LABEL: Record<InvocationRow['state'], string> = {
  queued: 'Queued',
  running: 'Running',
  done: 'Done',
  error: 'Failed',
  cancelled: 'Cancelled',
};

/**
 * The state in words, and how long it took once settled.
 * @example
 * <InvocationCard.Status />
 */
export function InvocationCardStatus(props: InvocationCardStatusProps) {
  const { row } = useInvocationCard('Status');
  const notRun = row.state === 'error' && row.startedAt === undefined;
  const label = notRun ? 'Not run' : LABEL[row.state];
  const took = row.startedAt !== undefined && row.endedAt !== undefined ? row.endedAt - row.startedAt : null;
  return (
    <span {...props} data-part="invocation-card-status" data-state={row.state}>
      {label}
      {took !== null ? <span data-part="invocation-card-elapsed"> · {formatMs(took)}</span> : null}
    </span>
  );
}
InvocationCardStatus.displayName = 'InvocationCard.Status';

function formatMs(ms: number): string {
  return ms < 1000 ? `${Math.max(0, Math.round(ms))} ms` : `${(ms / 1000).toFixed(1)} s`;
}
