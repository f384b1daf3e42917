import type { ComponentPropsWithRef } from 'react';
import { useInvocationCard } from './context';

export type InvocationCardOutputProps = ComponentPropsWithRef<'pre'>;

/**
 * Output streamed by the handler (bounded; says so when older text was dropped).
 * @example
 * <InvocationCard.Output />
 */
export function InvocationCardOutput(props: InvocationCardOutputProps) {
  const { row } = useInvocationCard('Output');
  if (!row.output) return null;
  return (
    <pre {...props} data-part="invocation-card-output" tabIndex={0} aria-label={`${row.title} output`}>
      {row.outputTruncated ? '… earlier output dropped …\n' : ''}
      {row.output}
    </pre>
  );
}
InvocationCardOutput.displayName = 'InvocationCard.Output';
