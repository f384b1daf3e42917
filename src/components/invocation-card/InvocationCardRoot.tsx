import { useId, useMemo, type ComponentPropsWithRef } from 'react';
import type { InvocationRow } from '../../runtime/fold';
import { InvocationCardContext } from './context';

export interface InvocationCardRootProps extends ComponentPropsWithRef<'article'> {
  /** The invocation to show, from the thread's rows. */
  row: InvocationRow;
}

/** The state a card shows: the row's state, with `streaming` for a running invocation that has sent output. */
export type InvocationCardState = InvocationRow['state'] | 'streaming';

/** The card's `data-state` for a row. */
export function cardState(row: InvocationRow): InvocationCardState {
  return row.state === 'running' && row.output ? 'streaming' : row.state;
}

/**
 * The card's frame, labelled by its title: `data-state`
 * queued|running|streaming|done|failed|cancelled, `aria-busy` until it settles.
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
        data-state={cardState(row)}
        data-capability={row.capability || undefined}
        data-violations={row.violations?.length || undefined}
        data-checks={row.state !== 'done' ? undefined : row.violations?.length ? 'failed' : row.checks?.length ? 'passed' : undefined}
      >
        {children}
      </article>
    </InvocationCardContext.Provider>
  );
}
InvocationCardRoot.displayName = 'InvocationCard.Root';
