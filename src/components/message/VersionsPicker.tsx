import type { VersionPosition } from '../../runtime/fold';
import { BranchPickerRoot, type BranchPickerRootProps } from '../branch-picker/BranchPickerRoot';

export interface VersionsPickerProps extends BranchPickerRootProps {
  /** Where the message or reply stands among its versions (its shell shows it until the picker's code comes). */
  position: VersionPosition;
}

/** The picker of a message's or a reply's versions, as `MessageRow` shows it (loaded on use, see ./deferredMessageParts). */
export function VersionsPicker({ position: _position, ...props }: VersionsPickerProps) {
  return <BranchPickerRoot {...props} />;
}
