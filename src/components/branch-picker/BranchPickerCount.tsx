import type { ComponentPropsWithRef } from 'react';
import { useMessages } from '../messages/context';
import { useBranchPicker } from './context';

export type BranchPickerCountProps = ComponentPropsWithRef<'span'>;

/**
 * Which version shows: "2 / 3" on screen, "Version 2 of 3" for screen readers.
 * @example
 * <BranchPicker.Count />
 */
export function BranchPickerCount({ children, ...props }: BranchPickerCountProps) {
  const m = useMessages().versions;
  const { position } = useBranchPicker('Count');
  return (
    <span {...props} data-part="branch-picker-count">
      {children ?? (
        <>
          <span aria-hidden="true">{m.count(position.index, position.count)}</span>
          <span className="cs-visually-hidden">{m.position(position.index, position.count)}</span>
        </>
      )}
    </span>
  );
}
BranchPickerCount.displayName = 'BranchPicker.Count';
