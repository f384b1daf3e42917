import type { ComponentPropsWithRef } from 'react';
import { useElapsed } from '../../hooks/useElapsed';
import { cardState } from './InvocationCardRoot';
import { useInvocationCard } from './context';
import { useMessages } from '../messages/context';

export type InvocationCardStatusProps = ComponentPropsWithRef<'span'>;


/**
 * The state in words and the time: ticking while it runs, the duration once settled.
 * @example
 * <InvocationCard.Status />
 */
export function InvocationCardStatus(props: InvocationCardStatusProps) {
  const { row } = useInvocationCard('Status');
  const state = cardState(row);
  const elapsed = useElapsed(row.startedAt, row.endedAt, row.state === 'running');
  // A call the model wrote that never ran (bad arguments, or its reply stopped before it was whole).
  const notRun = (row.state === 'failed' || row.error?.code === 'not_run') && row.startedAt === undefined;
  const writing = row.argsText !== undefined;
  const m = useMessages();
  const label = writing ? m.calls.writing : notRun ? m.card.notRun : m.card[state === 'streaming' ? 'running' : state];
  return (
    <span {...props} data-part="invocation-card-status" data-state={writing ? 'writing' : state}>
      {label}
      {elapsed !== null && !notRun ? (
        <span data-part="invocation-card-elapsed" data-state={row.state === 'running' ? 'ticking' : 'final'}>
          {' · '}
          {m.time.duration(elapsed)}
        </span>
      ) : null}
    </span>
  );
}
InvocationCardStatus.displayName = 'InvocationCard.Status';
