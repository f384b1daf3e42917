import { useId, useState, type ComponentPropsWithRef } from 'react';
import { useInvocationCard } from './context';
import { useMessages } from '../messages/context';

export interface InvocationCardOutputProps extends ComponentPropsWithRef<'div'> {
  /** Lines shown while collapsed (the newest ones). @default 6 */
  collapsedLines?: number;
}

/**
 * Output streamed by the handler while it runs: the newest lines, with a
 * toggle for all of it (itself bounded by the thread; it says when older
 * text was dropped). Once it settles the output moves into Details.
 * @example
 * <InvocationCard.Output collapsedLines={4} />
 */
export function InvocationCardOutput({ collapsedLines = 6, ...props }: InvocationCardOutputProps) {
  const { row } = useInvocationCard('Output');
  const [expanded, setExpanded] = useState(false);
  const outputId = useId();
  const m = useMessages().card;
  if (!row.output || (row.state !== 'running' && row.state !== 'queued')) return null;
  const lines = row.output.replace(/\n$/, '').split('\n');
  const hidden = Math.max(0, lines.length - collapsedLines);
  const shown = expanded || hidden === 0 ? lines : lines.slice(-collapsedLines);
  return (
    <div {...props} data-part="invocation-card-output-frame" data-state={expanded ? 'expanded' : 'collapsed'}>
      <pre id={outputId} data-part="invocation-card-output" tabIndex={0} aria-label={m.outputLabel(row.title)}>
        {(expanded && row.outputTruncated) || (!expanded && hidden > 0) ? (
          <span data-part="output-elided">{expanded ? m.earlierDropped : m.earlierLines(hidden)}
            {'\n'}
          </span>
        ) : null}
        {shown.join('\n')}
      </pre>
      {hidden > 0 ? (
        <button type="button" data-part="invocation-card-output-toggle" aria-expanded={expanded} aria-controls={outputId} onClick={() => setExpanded(!expanded)}>
          {expanded ? m.showLessOutput : m.showAllOutput(lines.length)}
        </button>
      ) : null}
    </div>
  );
}
InvocationCardOutput.displayName = 'InvocationCard.Output';
