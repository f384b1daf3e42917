import { useState, type ComponentPropsWithRef } from 'react';
import { useOptionalChatSurface } from '../../hooks/context';
import { noteUserAction } from '../../hooks/userAction';
import { useInvocationCard } from './context';
import { useMessages } from '../messages/context';
import { reasonOf } from '../messages/reason';
import { offersRetry } from './retryable';

export type InvocationCardRetryProps = ComponentPropsWithRef<'button'>;

/**
 * Runs the capability again with the same arguments, without a model call.
 * Shown when it failed or was cancelled and the failure is recoverable;
 * never for refused arguments (the same ones would be refused again).
 * @example
 * <InvocationCard.Retry />
 */
export function InvocationCardRetry({ children, ...props }: InvocationCardRetryProps) {
  const messages = useMessages();
  const m = messages.card;
  const { row } = useInvocationCard('Retry');
  const surface = useOptionalChatSurface();
  const [failure, setFailure] = useState<string | null>(null);
  if (!surface || !offersRetry(row)) return null;
  return (
    <>
      <button
        type="button"
        aria-label={m.retryLabel(row.title)}
        {...props}
        data-part="invocation-card-retry"
        onClick={(event) => {
          props.onClick?.(event);
          if (event.defaultPrevented) return;
          setFailure(null);
          noteUserAction(surface.store);
          surface.workspace
            .invoke({ threadId: surface.threadId, capability: row.capability, args: row.args ?? {} })
            .catch((reason: unknown) => setFailure(m.retryFailed(reasonOf(reason, messages))));
        }}
      >
        {children ?? m.retry}
      </button>
      {failure ? (
        <span role="alert" data-part="invocation-card-retry-error">
          {failure}
        </span>
      ) : null}
    </>
  );
}
InvocationCardRetry.displayName = 'InvocationCard.Retry';
