import type { ComponentPropsWithRef } from 'react';
import { useOptionalChatSurface } from '../../hooks/context';
import { useInvocationCard } from './context';
import { useMessages } from '../messages/context';

export type InvocationCardCancelProps = ComponentPropsWithRef<'button'>;

/**
 * Cancels the invocation while it runs; hidden once it has settled or outside a surface.
 * @example
 * <InvocationCard.Cancel />
 */
export function InvocationCardCancel({ children, ...props }: InvocationCardCancelProps) {
  const m = useMessages().card;
  const { row } = useInvocationCard('Cancel');
  const surface = useOptionalChatSurface();
  // While the model still writes the call there is nothing to cancel yet (Stop ends the turn).
  if ((row.state !== 'running' && row.state !== 'queued') || row.argsText !== undefined || !surface) return null;
  return (
    <button
      type="button"
      aria-label={m.cancelLabel(row.title)}
      {...props}
      data-part="invocation-card-cancel"
      onClick={(event) => {
        props.onClick?.(event);
        if (!event.defaultPrevented) surface.workspace.cancel({ threadId: surface.threadId, id: row.id });
      }}
    >
      {children ?? m.cancel}
    </button>
  );
}
InvocationCardCancel.displayName = 'InvocationCard.Cancel';
