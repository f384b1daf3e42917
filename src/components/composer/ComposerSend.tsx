import type { ComponentPropsWithRef } from 'react';
import { useComposer } from './context';
import { useMessages } from '../messages/context';

export type ComposerSendProps = ComponentPropsWithRef<'button'>;

/**
 * Sends the draft; disabled while the draft is empty.
 * @example
 * <Composer.Send>Send</Composer.Send>
 */
export function ComposerSend({ children, ...props }: ComposerSendProps) {
  const m = useMessages().composer;
  const { value } = useComposer('Send');
  const empty = !value.trim();
  return (
    <button type="submit" {...props} data-part="composer-send" disabled={empty || props.disabled}>
      {children ?? m.send}
    </button>
  );
}
ComposerSend.displayName = 'Composer.Send';
