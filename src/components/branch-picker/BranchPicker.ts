import { BranchPickerCount } from './BranchPickerCount';
import { BranchPickerRoot } from './BranchPickerRoot';
import { BranchPickerNext, BranchPickerPrevious } from './BranchPickerStep';

/**
 * The versions of a message of the user's (its edits) or of the reply to one (its
 * regenerations), as parts a host recomposes: `Root` (the "Versions" group, with all of them by
 * default), `Previous`, `Count` ("2 / 3") and `Next`.
 * @example
 * <BranchPicker.Root message={userRow}>
 *   <BranchPicker.Previous />
 *   <BranchPicker.Count />
 *   <BranchPicker.Next />
 * </BranchPicker.Root>
 */
export const BranchPicker = {
  Root: BranchPickerRoot,
  Previous: BranchPickerPrevious,
  Count: BranchPickerCount,
  Next: BranchPickerNext,
};
