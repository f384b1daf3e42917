import type { ComponentPropsWithRef } from 'react';
import { useComposer } from './context';

export type ComposerSendProps = ComponentPropsWithRef<'button'>;

/**
 * Sends the draft; disabled while the draft is empty.
 * @example
 * <Composer.Send>Send</Composer.Send>
 */
export function ComposerSend({ children = 'Send', ...props }: ComposerSendProps) {
  const { value } = useComposer('Send');
  const empty = !value.trim();
  return (
    <button type="submit" {...props} data-part="composer-send" disabled={empty || props.disabled}>
      {children}
    </button>
  );
}
ComposerSend.displayName = 'Composer.Send';
