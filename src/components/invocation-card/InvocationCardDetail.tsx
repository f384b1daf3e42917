import type { ComponentPropsWithRef } from 'react';
import { resultText } from '../../runtime/envelope';
import { useInvocationCard } from './context';

export type InvocationCardDetailProps = ComponentPropsWithRef<'div'>;

/**
 * The outcome in words: the result's text, or the error with each bad field;
 * the raw envelope sits behind a disclosure.
 * @example
 * <InvocationCard.Detail />
 */
export function InvocationCardDetail(props: InvocationCardDetailProps) {
  const { row } = useInvocationCard('Detail');
  if (row.state === 'running' || row.state === 'queued') return null;
  const summary = row.result?.display_hint?.summary ?? (row.result ? resultText(row.result) : '');
  return (
    <div {...props} data-part="invocation-card-detail">
      {row.error ? (
        <p data-part="invocation-card-error">{row.error.message}</p>
      ) : summary ? (
        <p data-part="invocation-card-result">{summary}</p>
      ) : null}
      {row.error?.issues?.length ? (
        <ul data-part="invocation-card-issues" aria-label="Problems with the arguments">
          {row.error.issues.map((issue) => (
            <li key={issue.path}>
              <code>{issue.path}</code>: {issue.message}
            </li>
          ))}
        </ul>
      ) : null}
      {row.result ? (
        <details data-part="invocation-card-raw">
          <summary>Raw result</summary>
          <pre tabIndex={0}>{JSON.stringify(row.result, null, 2)}</pre>
        </details>
      ) : null}
    </div>
  );
}
InvocationCardDetail.displayName = 'InvocationCard.Detail';
