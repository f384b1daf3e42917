import type { ComponentPropsWithRef } from 'react';
import { useInvocationCard } from './context';
import { useLocale, useMessages } from '../messages/context';
import { formatPercent } from '../messages/plural';

export type InvocationCardProgressProps = ComponentPropsWithRef<'div'>;

/**
 * A progress bar while running: determinate when the handler gave a total,
 * indeterminate otherwise, with the handler's message. While queued it says so.
 * @example
 * <InvocationCard.Progress />
 */
export function InvocationCardProgress(props: InvocationCardProgressProps) {
  const { row } = useInvocationCard('Progress');
  const m = useMessages().card;
  const locale = useLocale();
  if (row.state === 'queued') {
    return (
      <div {...props} data-part="invocation-card-progress" data-state="queued">
        <span data-part="progress-message">{m.waitingToStart}{row.job_id ? m.trackedAsJob : ''}</span>
      </div>
    );
  }
  if (row.state !== 'running') return null;
  const { progress } = row;
  const percent =
    progress?.total !== undefined ? Math.max(0, Math.min(100, Math.round((progress.progress / progress.total) * 100))) : undefined;
  const state = percent === undefined ? 'indeterminate' : 'determinate';
  return (
    <div {...props} data-part="invocation-card-progress" data-state={state}>
      <div
        role="progressbar"
        aria-label={m.progressLabel(row.title)}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        aria-valuetext={progress?.message ?? (percent === undefined ? m.working : formatPercent(locale, percent))}
        data-part="progress-track"
      >
        <div data-part="progress-fill" data-state={state} style={percent === undefined ? undefined : { width: `${percent}%` }} />
      </div>
      {progress?.message || percent !== undefined ? (
        <span data-part="progress-message">
          {progress?.message}
          {percent !== undefined ? <span data-part="progress-percent">{progress?.message ? ` · ${formatPercent(locale, percent)}` : formatPercent(locale, percent)}</span> : null}
        </span>
      ) : null}
    </div>
  );
}
InvocationCardProgress.displayName = 'InvocationCard.Progress';
