import type { ComponentPropsWithRef } from 'react';
import { useChatSurface } from '../../hooks/context';

export type DriverBadgeProps = ComponentPropsWithRef<'p'>;

/**
 * Says which model answers, so a demo never hides whether it is offline or Claude.
 * @example
 * <DriverBadge />
 */
export function DriverBadge(props: DriverBadgeProps) {
  const { workspace } = useChatSurface();
  const { driver } = workspace.manifest;
  return (
    <p {...props} data-part="driver-badge" data-driver={driver.id}>
      Answering: <strong>{driver.label}</strong>
    </p>
  );
}
DriverBadge.displayName = 'ChatSurface.DriverBadge';
