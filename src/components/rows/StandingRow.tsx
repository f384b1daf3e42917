import type { ComponentPropsWithRef } from 'react';
import type { StandingRow as StandingRowData } from '../../runtime/fold';
import { useMessages } from '../messages/context';

export interface StandingRowProps extends ComponentPropsWithRef<'div'> {
  /** The standing request to show. */
  row: StandingRowData;
}

/**
 * A standing request ("watch…", "every week…") the app now tracks on its own.
 * @example
 * <StandingRow row={{ kind: 'standing', id: 's1', text: 'Tell me when a record is added', cadence: 'daily' }} />
 */
export function StandingRow({ row, ...props }: StandingRowProps) {
  const m = useMessages().standing;
  return (
    <div {...props} data-part="standing" data-state="tracking">
      <p data-part="row-label">{m.label}{row.cadence ? ` · ${row.cadence}` : ''}</p>
      <p data-part="row-title">{row.text}</p>
      <p data-part="row-reason">{m.tracking}</p>
    </div>
  );
}
StandingRow.displayName = 'ChatSurface.StandingRow';
