import { useContext, type ComponentPropsWithRef } from 'react';
import { useOptionalChatSurface } from '../../hooks/context';
import { InvocationCardDefaultsContext, useInvocationCard } from './context';
import { issueSentence } from '../../runtime/issueWords';
import type { InvocationRow } from '../../runtime/fold';
import { fieldLabel, plainValue, propertyOf, useValueWords } from './plainWords';
import { useMessages } from '../messages/context';
import type { ChatSurfaceMessages } from '../messages/defaults';

/**
 * What a run that was stopped part way had done, from its last progress report (the handler's
 * words, e.g. "2 of 4 records enriched", else "2 of 4 done"), or null when it had done nothing yet.
 */
function stoppedPartWay(m: ChatSurfaceMessages['card'], row: Pick<InvocationRow, 'state' | 'progress'>): string | null {
  const progress = row.progress;
  if (row.state !== 'cancelled' || !progress || !(progress.progress > 0)) return null;
  const done = progress.message?.trim() || m.partWayCount(progress.progress, progress.total);
  return m.stoppedPartWay(done.replace(/[.]$/, ''));
}

export interface InvocationCardDetailProps extends ComponentPropsWithRef<'div'> {
  /** Show the "Details" disclosure; the host's `InvocationCard.Defaults` when absent. */
  details?: boolean;
}

/**
 * What else there is to know once it settled. In plain sight: why it failed,
 * in one sentence per bad field named by its title, what a run stopped part
 * way had done (its last progress report), and a soft time limit it exceeded. Under one "Details" disclosure, for developers (a host can turn
 * it off): the output, the result's fields with their units, the failed
 * checks' expected and actual values, and the raw result.
 * @example
 * <InvocationCard.Detail details={false} />
 */
export function InvocationCardDetail({ details, ...props }: InvocationCardDetailProps) {
  const { row } = useInvocationCard('Detail');
  const defaults = useContext(InvocationCardDefaultsContext);
  const surface = useOptionalChatSurface();
  const m = useMessages();
  const words = useValueWords();
  if (row.state === 'running' || row.state === 'queued') return null;
  const info = surface?.workspace.manifest.capabilities.find((c) => c.name === row.capability);
  const showDetails = details ?? defaults.details;
  const fields = Object.entries(row.result?.structuredContent ?? {}).filter(([, v]) => v === null || typeof v !== 'object');
  const issues = row.error?.issues ?? [];
  const partWay = stoppedPartWay(m.card, row);
  return (
    <div {...props} data-part="invocation-card-detail">
      {row.error && !issues.length ? <p data-part="invocation-card-error">{row.error.message}</p> : null}
      {partWay ? <p data-part="invocation-card-part-way">{partWay}</p> : null}
      {issues.length ? (
        <ul data-part="invocation-card-issues" aria-label={m.card.argumentProblems}>
          {issues.map((issue) => (
            <li key={issue.path}>{issueSentence(fieldLabel(issue.path.split('.')[0] ?? issue.path, propertyOf(info, issue.path.split('.')[0] ?? '')), issue.message)}</li>
          ))}
        </ul>
      ) : null}
      {row.slow ? (
        <p data-part="invocation-card-slow">
          {m.card.slow(m.time.duration(row.slow.actual_ms), m.time.duration(row.slow.max_ms))}
        </p>
      ) : null}
      {showDetails && (row.result || row.output || row.error) ? (
        <details data-part="invocation-card-details">
          <summary>{m.card.details}</summary>
          {row.output ? (
            <pre data-part="invocation-card-details-output" tabIndex={0} aria-label={m.card.outputLabel(row.title)}>
              {row.output}
            </pre>
          ) : null}
          {fields.length ? (
            <dl data-part="result-fields">
              {fields.map(([name, value]) => (
                <div key={name}>
                  <dt>{fieldLabel(name, propertyOf(info, name, 'output'))}</dt>
                  <dd>{plainValue(value, name, 60, words)}</dd>
                </div>
              ))}
            </dl>
          ) : null}
          {row.violations?.length ? (
            <ul data-part="invocation-card-failed-checks">
              {row.violations.map((v, i) => (
                <li key={i}>
                  {m.card.failedCheck(v.postcondition, v.expected, v.actual)}
                </li>
              ))}
            </ul>
          ) : null}
          {row.error ? <p data-part="invocation-card-error-code">{m.card.errorCode(row.error.code)}</p> : null}
          {row.result ? (
            <pre data-part="invocation-card-raw" tabIndex={0} aria-label={m.card.rawResult(row.title)}>
              {JSON.stringify(row.result, null, 2)}
            </pre>
          ) : null}
        </details>
      ) : null}
    </div>
  );
}
InvocationCardDetail.displayName = 'InvocationCard.Detail';

