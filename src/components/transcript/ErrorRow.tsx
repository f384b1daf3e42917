import type { ComponentPropsWithRef } from 'react';
import type { ErrorRow as ErrorRowData } from '../../runtime/fold';
import { useMessages } from '../messages/context';

export interface ErrorRowProps extends ComponentPropsWithRef<'div'> {
  /** The error to show. */
  row: ErrorRowData;
  /** Called by the Retry button; the button shows only when this is given and the error is recoverable. */
  onRetry?: () => void;
}

/**
 * A problem outside any capability: a model error, a malformed event, or a
 * turn the user stopped (`data-state="cancelled"`, labelled "Stopped"). A recoverable one offers Retry.
 * @example
 * <ErrorRow row={{ kind: 'error', id: 'e1', code: 'model_error', message: 'The model is unreachable.', recoverable: true }} onRetry={() => send(lastText)} />
 */
export function ErrorRow({ row, onRetry, children, ...props }: ErrorRowProps) {
  const stopped = row.code === 'cancelled';
  const state = stopped ? 'cancelled' : 'error';
  const m = useMessages().error;
  return (
    <div {...props} data-part="error-row" data-state={state} data-code={row.code}>
      <span data-part="error-row-label" data-state={state}>{stopped ? m.stopped : m.problem}</span>
      <p data-part="error-row-text">{row.message}</p>
      {row.recoverable && onRetry ? (
        <button type="button" data-part="error-row-retry" onClick={onRetry}>
          {m.retry}
        </button>
      ) : null}
      {children}
    </div>
  );
}
ErrorRow.displayName = 'ChatSurface.ErrorRow';
