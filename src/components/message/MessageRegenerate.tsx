import type { ComponentPropsWithRef } from 'react';
import { useMessages } from '../messages/context';
import { useMessageActions } from './context';

export type MessageRegenerateProps = ComponentPropsWithRef<'button'>;

/**
 * Asks for a new reply to the same message of the user's ("Regenerate"); the reply shown stays,
 * one switch away in the reply's versions (`BranchPicker`). Shows only on the row that starts a
 * reply (`Message.Actions`' `replyTo`) with a workspace that regenerates. `data-state`
 * idle|regenerating; a refusal says why in the group's alert.
 * @example
 * <Message.Actions row={reply} replyTo="u2"><Message.Regenerate /></Message.Actions>
 */
export function MessageRegenerate({ children, onClick, ...props }: MessageRegenerateProps) {
  const m = useMessages().messageActions;
  const { canRegenerate, regenerate, regenerating } = useMessageActions('Regenerate');
  if (!canRegenerate) return null;
  return (
    <button
      type="button"
      {...props}
      data-part="message-regenerate"
      data-state={regenerating ? 'regenerating' : 'idle'}
      aria-label={m.regenerate}
      title={m.regenerate}
      // Not `disabled` while it is asked for: a disabled button loses focus.
      aria-disabled={regenerating || undefined}
      onClick={(event) => {
        onClick?.(event);
        if (!event.defaultPrevented) regenerate();
      }}
    >
      {children ?? <span aria-hidden="true">↻</span>}
    </button>
  );
}
MessageRegenerate.displayName = 'Message.Regenerate';
