import type { ComponentPropsWithRef } from 'react';
import { useChatSurface } from '../../hooks/context';
import { useMessages } from '../messages/context';

export type DriverBadgeProps = ComponentPropsWithRef<'p'>;

/**
 * Says which model answers, so a demo never hides whether it is offline or Claude.
 * @example
 * <DriverBadge />
 */
export function DriverBadge(props: DriverBadgeProps) {
  const { workspace } = useChatSurface();
  const { driver } = workspace.manifest;
  const m = useMessages().surface;
  return (
    <p {...props} data-part="driver-badge" data-driver={driver.id}>
      {m.answering} <strong>{driver.label}</strong>
    </p>
  );
}
DriverBadge.displayName = 'ChatSurface.DriverBadge';
