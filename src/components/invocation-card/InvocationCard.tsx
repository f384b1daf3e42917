import type { InvocationRow } from '../../runtime/fold';
import { InvocationCardCancel } from './InvocationCardCancel';
import { InvocationCardDetail } from './InvocationCardDetail';
import { InvocationCardOutput } from './InvocationCardOutput';
import { InvocationCardProgress } from './InvocationCardProgress';
import { InvocationCardResult } from './InvocationCardResult';
import { InvocationCardRetry } from './InvocationCardRetry';
import { InvocationCardRoot } from './InvocationCardRoot';
import { InvocationCardStatus } from './InvocationCardStatus';
import { InvocationCardTitle } from './InvocationCardTitle';

export interface InvocationCardProps {
  /** The invocation to show. */
  row: InvocationRow;
}

/**
 * The assembled card; recompose it from `InvocationCard.Root` and its parts to change the layout.
 * @example
 * <InvocationCard row={row} />
 */
function InvocationCardAssembled({ row }: InvocationCardProps) {
  return (
    <InvocationCardRoot row={row}>
      <header data-part="invocation-card-header">
        <InvocationCardTitle />
        <InvocationCardStatus />
        <InvocationCardCancel />
        <InvocationCardRetry />
      </header>
      <InvocationCardProgress />
      <InvocationCardOutput />
      <InvocationCardResult />
      <InvocationCardDetail />
    </InvocationCardRoot>
  );
}
InvocationCardAssembled.displayName = 'InvocationCard';

export const InvocationCard = Object.assign(InvocationCardAssembled, {
  Root: InvocationCardRoot,
  Title: InvocationCardTitle,
  Status: InvocationCardStatus,
  Progress: InvocationCardProgress,
  Output: InvocationCardOutput,
  Result: InvocationCardResult,
  Detail: InvocationCardDetail,
  Cancel: InvocationCardCancel,
  Retry: InvocationCardRetry,
});
