import { useCallback, useRef, useState } from 'react';

export interface ControllableStateOptions<T> {
  /** The controlled value; when defined, the caller owns the state. */
  value?: T | undefined;
  /** The initial value when uncontrolled. */
  defaultValue: T;
  /** Told of every change, controlled or not. */
  onChange?: ((value: T) => void) | undefined;
}

/**
 * One helper for every `value` / `defaultValue` / `onValueChange` prop trio.
 * @example
 * const [text, setText] = useControllableState({ value, defaultValue: '', onChange: onValueChange });
 */
export function useControllableState<T>({ value, defaultValue, onChange }: ControllableStateOptions<T>) {
  const [inner, setInner] = useState(defaultValue);
  const controlled = value !== undefined;
  const current = controlled ? value : inner;
  const onChangeRef = useRef(onChange);
  onChangeRef.current = onChange;
  const set = useCallback(
    (next: T) => {
      if (!controlled) setInner(next);
      onChangeRef.current?.(next);
    },
    [controlled],
  );
  return [current, set] as const;
}
