import type { ComponentPropsWithRef } from 'react';
import type { ErrorRow as ErrorRowData } from '../../runtime/fold';

export interface ErrorRowProps extends ComponentPropsWithRef<'div'> {
  /** The error to show. */
  row: ErrorRowData;
}

/**
 * A problem outside any capability: a model error, a stopped turn, a malformed event.
 * @example
 * <ErrorRow row={{ kind: 'error', id: 'e1', code: 'model_error', message: 'The model is unreachable.', recoverable: true }} />
 */
export function ErrorRow({ row, ...props }: ErrorRowProps) {
  return (
    <div {...props} data-part="error-row" data-state="error" data-code={row.code}>
      <span data-part="error-row-label">Problem</span>
      <p data-part="error-row-text">{row.message}</p>
    </div>
  );
}
ErrorRow.displayName = 'ChatSurface.ErrorRow';
