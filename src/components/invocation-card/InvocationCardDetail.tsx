import type { ComponentPropsWithRef } from 'react';
import { formatDuration } from '../../hooks/useElapsed';
import { useInvocationCard } from './context';

export type InvocationCardDetailProps = ComponentPropsWithRef<'div'>;

/**
 * What else there is to know once it settled: the error with each bad field,
 * failed checks, a soft time limit it exceeded, and the raw envelope behind a
 * disclosure (the only place a raw result appears in the chat).
 * @example
 * <InvocationCard.Detail />
 */
export function InvocationCardDetail(props: InvocationCardDetailProps) {
  const { row } = useInvocationCard('Detail');
  if (row.state === 'running' || row.state === 'queued') return null;
  const checks = row.violations?.length ?? 0;
  return (
    <div {...props} data-part="invocation-card-detail">
      {row.error ? <p data-part="invocation-card-error">{row.error.message}</p> : null}
      {row.error?.issues?.length ? (
        <ul data-part="invocation-card-issues" aria-label="Problems with the arguments">
          {row.error.issues.map((issue) => (
            <li key={issue.path}>
              <code>{issue.path}</code>: {issue.message}
            </li>
          ))}
        </ul>
      ) : null}
      {checks ? (
        <p data-part="invocation-card-checks">
          {checks === 1 ? '1 check' : `${checks} checks`} failed after it finished: {row.violations!.map((v) => v.message).join(' ')}
        </p>
      ) : null}
      {row.slow ? (
        <p data-part="invocation-card-slow">
          Slower than expected: {formatDuration(row.slow.actual_ms)} (expected under {formatDuration(row.slow.max_ms)}).
        </p>
      ) : null}
      {row.result ? (
        <details data-part="invocation-card-raw">
          <summary>Raw result</summary>
          <pre tabIndex={0} aria-label={`${row.title} raw result`}>
            {JSON.stringify(row.result, null, 2)}
          </pre>
        </details>
      ) : null}
    </div>
  );
}
InvocationCardDetail.displayName = 'InvocationCard.Detail';
