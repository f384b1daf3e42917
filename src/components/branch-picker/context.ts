import { createContext, useContext } from 'react';
import type { VersionPosition } from '../../runtime/fold';

export interface BranchPickerContextValue {
  /** Where the shown version stands among its siblings. */
  position: VersionPosition;
  /** No switching now: a reply is being written (the workspace refuses then), or a switch is under way. */
  blocked: boolean;
  /** Shows the version before or after the shown one (nothing at the ends, or while blocked). */
  go(which: 'previous' | 'next'): void;
}

export const BranchPickerContext = createContext<BranchPickerContextValue | null>(null);

export function useBranchPicker(part: string): BranchPickerContextValue {
  const value = useContext(BranchPickerContext);
  if (!value) throw new Error(`<BranchPicker.${part}> must be used within <BranchPicker.Root>.`);
  return value;
}
