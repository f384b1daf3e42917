import { useId, useMemo, type ComponentPropsWithRef } from 'react';
import type { InvocationRow } from '../../runtime/fold';
import { InvocationCardContext } from './context';

export interface InvocationCardRootProps extends ComponentPropsWithRef<'article'> {
  /** The invocation to show, from the thread's rows. */
  row: InvocationRow;
}

/**
 * The card's frame: `data-state` running|done|error, labelled by its title.
 * @example
 * <InvocationCard.Root row={row}><InvocationCard.Title /></InvocationCard.Root>
 */
export function InvocationCardRoot({ row, children, ...props }: InvocationCardRootProps) {
  const titleId = useId();
  const value = useMemo(() => ({ row, titleId }), [row, titleId]);
  return (
    <InvocationCardContext.Provider value={value}>
      <article
        aria-labelledby={titleId}
        aria-busy={row.state === 'running' || row.state === 'queued'}
        {...props}
        data-part="invocation-card"
        data-state={row.state}
        data-capability={row.capability || undefined}
      >
        {children}
      </article>
    </InvocationCardContext.Provider>
  );
}
InvocationCardRoot.displayName = 'InvocationCard.Root';
