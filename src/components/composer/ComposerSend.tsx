import type { ComponentPropsWithRef } from 'react';
import { useComposer } from './context';
import { useMessages } from '../messages/context';

export type ComposerSendProps = ComponentPropsWithRef<'button'>;

/**
 * Sends the draft; disabled while the draft is empty or a file is still uploading (`Composer.Attach`).
 * @example
 * <Composer.Send>Send</Composer.Send>
 */
export function ComposerSend({ children, ...props }: ComposerSendProps) {
  const m = useMessages().composer;
  const { value, attachments, waitId } = useComposer('Send');
  const empty = !value.trim();
  // Files still going up: Send waits, and says why (the words under the composer).
  const uploading = attachments?.files.some((f) => f.status === 'uploading') ?? false;
  return (
    <button type="submit" {...props} data-part="composer-send" disabled={empty || uploading || props.disabled} aria-describedby={uploading ? waitId : props['aria-describedby']}>
      {children ?? m.send}
    </button>
  );
}
ComposerSend.displayName = 'Composer.Send';
