import { useRef, type ComponentPropsWithRef } from 'react';
import { pickerKey, useFocusRequest, useMergedRef } from '../../hooks/useVersions';
import { useMessages } from '../messages/context';
import { useBranchPicker } from './context';

export type BranchPickerStepProps = ComponentPropsWithRef<'button'>;

function useStep(which: 'previous' | 'next', { children, onClick, ref, ...props }: BranchPickerStepProps) {
  const m = useMessages().versions;
  const { position, blocked, go } = useBranchPicker(which === 'previous' ? 'Previous' : 'Next');
  const own = useRef<HTMLButtonElement>(null);
  const setRef = useMergedRef(own, ref);
  useFocusRequest(which, pickerKey(position), own, { version: position.version });
  const target = which === 'previous' ? position.previous : position.next;
  const label = which === 'previous' ? m.previous : m.next;
  // `aria-disabled`, not `disabled`: the button pressed keeps focus when it comes to an end.
  const disabled = target === null || blocked;
  return (
    <button
      type="button"
      {...props}
      ref={setRef}
      data-part={`branch-picker-${which}`}
      aria-label={label}
      title={label}
      aria-disabled={disabled || undefined}
      onClick={(event) => {
        onClick?.(event);
        if (!event.defaultPrevented && !disabled) go(which);
      }}
    >
      {children ?? <span aria-hidden="true">{which === 'previous' ? '‹' : '›'}</span>}
    </button>
  );
}

/**
 * Shows the version before the shown one ("Previous version"); `aria-disabled` on the first, and
 * while no switch can be made.
 * @example
 * <BranchPicker.Previous />
 */
export function BranchPickerPrevious(props: BranchPickerStepProps) {
  return useStep('previous', props);
}
BranchPickerPrevious.displayName = 'BranchPicker.Previous';

/**
 * Shows the version after the shown one ("Next version"); `aria-disabled` on the last, and while
 * no switch can be made.
 * @example
 * <BranchPicker.Next />
 */
export function BranchPickerNext(props: BranchPickerStepProps) {
  return useStep('next', props);
}
BranchPickerNext.displayName = 'BranchPicker.Next';
