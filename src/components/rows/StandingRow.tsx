import type { ComponentPropsWithRef } from 'react';
import type { StandingRow as StandingRowData } from '../../runtime/fold';

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
  return (
    <div {...props} data-part="standing" data-state="tracking">
      <p data-part="row-label">Standing request{row.cadence ? ` · ${row.cadence}` : ''}</p>
      <p data-part="row-title">{row.text}</p>
      <p data-part="row-reason">The app keeps track of this and will let you know.</p>
    </div>
  );
}
StandingRow.displayName = 'ChatSurface.StandingRow';
