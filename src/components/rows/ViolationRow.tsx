import { useId, type ComponentPropsWithRef } from 'react';
import type { ViolationRow as ViolationRowData } from '../../runtime/fold';
import { useMessages } from '../messages/context';
import { checkName } from '../invocation-card/checkNames';

export interface ViolationRowProps extends ComponentPropsWithRef<'article'> {
  /** The failed postcondition to show. */
  row: ViolationRowData;
}

/**
 * A check that failed after a capability finished: the invocation is done,
 * but what it promised did not happen. Shows the check and, in words, what
 * went wrong; what was expected and found, as the check words them, sit under
 * a Details disclosure as on the cards.
 * @example
 * <ViolationRow row={{ kind: 'violation', id: 'v1', invocation_id: 'inv_1', title: 'Import CSV', postcondition: 'row_count_change', expected: '+= 120', actual: '+0', message: 'No rows were added.' }} />
 */
export function ViolationRow({ row, ...props }: ViolationRowProps) {
  const titleId = useId();
  const m = useMessages().violation;
  return (
    <article aria-labelledby={titleId} {...props} data-part="violation" data-state="violated" data-postcondition={row.postcondition}>
      <p data-part="row-label">{m.label}</p>
      <p id={titleId} data-part="row-title">
        {row.title}: {checkName(row.postcondition, m.checks)}
      </p>
      <p data-part="row-reason">{row.message}</p>
      <details data-part="violation-details">
        <summary>{m.details}</summary>
        <dl data-part="violation-detail">
          <div>
            <dt>{m.expected}</dt>
            <dd>{row.expected}</dd>
          </div>
          <div>
            <dt>{m.found}</dt>
            <dd>{row.actual}</dd>
          </div>
        </dl>
      </details>
    </article>
  );
}
ViolationRow.displayName = 'ChatSurface.ViolationRow';
